// Shared plumbing of the perfgauge subcommands: argument parsing and error reporting.
#pragma once

#include <boost/program_options.hpp>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <optional>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/stat_report.hpp"

namespace perfgauge::cli {

namespace po = boost::program_options;

/// Exit statuses shared by every subcommand (`stat` passes the command's own through instead).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure =
    1;                                ///< the work could not be done (e.g. nothing can be counted)
inline constexpr int kExitUsage = 2;  ///< bad input: options, event names, paths
inline constexpr int kExitRegression = 3;  ///< compare --fail-on-regression found one

/// Bad input from the user; the message is printed with the command's name and exit 2.
class UsageError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Parses `args` against `options` (+ positional), turning boost's errors into UsageError.
po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& options,
                                const po::positional_options_description& positional);

/// Which ends of a Bounds interval are excluded.
enum class Open { none, low, high, both };
/// Where a numeric option's value must lie; no `high`: any finite value from `low` up.
/// NaN and infinity are always outside ("inf" seconds would mean "never stop").
struct Bounds {
    double low;
    std::optional<double> high;
    Open open;
    const char* unit;  ///< " s", " %", ""
};
/// The double value of --`name`; UsageError naming the option, the bounds and the value
/// unless it lies within `bounds`.
double bounded_option(const po::variables_map& vm, const char* name, const Bounds& bounds);

/// `args` with each old spelling in `aliases` ("--repetitions") replaced by its current one
/// ("--repeat"), "=VALUE" kept: old command lines keep working while --help shows one name.
std::vector<std::string> canonical_spellings(
    std::vector<std::string> args, const std::vector<std::pair<std::string, std::string>>& aliases);

/// The value of --format as an OutputFormat; UsageError for an unknown one, naming `choices`
/// when the command has formats of its own beside these ("table, csv, json, md or bmf").
harness::OutputFormat format_option(const po::variables_map& vm, const char* choices = nullptr);
/// UsageError unless `path` can be written: checked before any work, so nothing is lost.
void check_output_path(const std::string& path);
/// The value of -o/--output, "" when absent or "-" (the standard stream); checked with
/// check_output_path. check_output_path refuses "-" (for outputs that must be files).
std::string output_option(const po::variables_map& vm);
/// UsageError when an output names another output or one of `inputs` (result files read,
/// executables run): harness::refuse_overlapping_paths, with perfgauge's own executable always
/// an input. Called before any work by every command that writes files.
void refuse_outputs_over_inputs(const std::vector<harness::NamedPath>& outputs,
                                std::vector<harness::NamedPath> inputs);
/// The same for one -o `output` and the result files `inputs` (compare A B -o A).
void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs);
/// `text` on stdout, or atomically into `output` when one was given.
void write_output(const std::string& text, const std::string& output);

/// Saves a result's JSON to `path` when given; else under a new name `stem`.json in the current
/// directory (numbered when taken), the next free one when -o `output` names it (-o's file is the
/// user's choice, and would replace the result). Returns the path written.
std::string save_result_json(const std::string& json, const std::optional<std::string>& path,
                             const std::string& stem, const std::string& output);

/// The value of --backend; UsageError for an unknown one.
harness::Backend backend_option(const po::variables_map& vm);
/// valgrind's path when `backend` may simulate with it (nullopt: do not simulate). --backend sim
/// insists: std::runtime_error (exit 1) when valgrind is missing or this build cannot run under
/// it.
std::optional<std::string> simulation_valgrind(harness::Backend backend);

/// The path perfgauge runs from (/proc/self/exe), for re-running itself.
std::string own_executable();

int doctor_command(const std::vector<std::string>& args);
int events_command(const std::vector<std::string>& args);
int stat_command(const std::vector<std::string>& args);
int calibrate_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int list_command(const std::vector<std::string>& args);
int compare_command(const std::vector<std::string>& args);
int export_command(const std::vector<std::string>& args);
int plot_command(const std::vector<std::string>& args);
int selftest_command(const std::vector<std::string>& args);
int history_command(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
