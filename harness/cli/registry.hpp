// The commands perfgauge has: one table that drives dispatch (main.cpp), the usage text and
// `perfgauge help COMMAND`. Adding a command is a folder (COMMAND/options.hpp, options.cpp,
// command.cpp, listed in cli/CMakeLists.txt), its handler declared below and one row in
// registry.cpp's table.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace perfgauge::cli {

/// A command's body: takes the arguments after its name, returns the exit status.
using CommandHandler = int (*)(const std::vector<std::string>& args);

struct Command {
    std::string_view name;
    /// Its lines in the usage text, indented as they appear there (several for a command
    /// with more than one form).
    std::string_view synopsis;
    CommandHandler handler;
};

/// Every command, in the order the usage text lists them.
std::span<const Command> commands();
/// The command named `name`, or nullptr.
const Command* find_command(std::string_view name);
/// The usage text: what perfgauge is, every command's synopsis, exit statuses.
std::string usage_text();

int calibrate_command(const std::vector<std::string>& args);
int compare_command(const std::vector<std::string>& args);
int doctor_command(const std::vector<std::string>& args);
int events_command(const std::vector<std::string>& args);
int export_command(const std::vector<std::string>& args);
int history_command(const std::vector<std::string>& args);
int list_command(const std::vector<std::string>& args);
int plot_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int selftest_command(const std::vector<std::string>& args);
int stat_command(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
