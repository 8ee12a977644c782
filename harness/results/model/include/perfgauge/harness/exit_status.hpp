// How a measured command ended, as results record it.
#pragma once

#include <string>

namespace perfgauge::harness {

/// How a command ended.
struct ExitStatus {
    bool exec_failed = false;  ///< the command could not be started (see exec_error)
    int exec_error = 0;        ///< errno of execvp
    bool signaled = false;
    int code = 0;  ///< exit code, or the signal number when signaled
    bool core_dumped = false;

    /// It ran and exited (not killed by a signal) with `exit_code`; exited_with(0): it
    /// succeeded.
    bool exited_with(int exit_code) const { return !exec_failed && !signaled && code == exit_code; }
    /// The shell convention: the exit code, 128 + signal, or 127 when it could not be started.
    int shell_status() const;
    /// "exited with 3", "killed by signal 6 (SIGABRT)", "could not be executed: ...".
    std::string describe() const;
};

/// Name of a signal ("SIGABRT"), or "signal N".
std::string signal_name(int signal);

}  // namespace perfgauge::harness
