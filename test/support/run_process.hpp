// Runs a program (no shell) and captures its exit status, stdout and stderr, for CLI tests.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace perfgauge::test {

struct ProcessResult {
    int exit_code = -1;  ///< exit status, or 128 + signal
    std::string out;
    std::string err;
};

/// How the program runs, for tests of hostile conditions. Defaults: output captured, the
/// test's working directory, the test's process group.
struct ProcessOptions {
    /// Where stdout / stderr go instead of being captured (e.g. "/dev/full"); "-" closes it.
    std::string stdout_path, stderr_path;
    std::filesystem::path working_directory;  ///< empty: the test's
    /// When set: the program leads a new process group, which gets `signal` after
    /// `signal_after_s` seconds - as Ctrl-C on a terminal signals the whole foreground group.
    std::optional<int> signal;
    double signal_after_s = 0;
    /// With `signal`: instead of after a time, the signal goes once this is true (polled every
    /// 5 ms: a file the program or what it runs creates at the moment the test means), so that
    /// a loaded machine cannot make it arrive too early; not at all if the program ends first.
    std::function<bool()> signal_when;
    /// With `signal`: only the program gets it (as `kill PID` sends it), not what it started.
    bool signal_program_only = false;
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

/// For ProcessOptions::signal_when: true once `path` exists.
std::function<bool()> once_exists(const std::filesystem::path& path);

}  // namespace perfgauge::test
