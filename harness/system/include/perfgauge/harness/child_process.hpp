// Starting a command for `perfgauge stat`: fork, let the parent attach counters, then exec.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/exit_status.hpp"
#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::harness {

/// What the command gets beyond perfgauge's own environment.
struct ChildSetup {
    /// "NAME=VALUE" entries set in the command's environment (replacing NAME if present).
    std::vector<std::string> environment;
    /// A descriptor the command inherits across exec (perfgauge's are close-on-exec); -1: none.
    int inherited_fd = -1;
    /// The command's standard output goes to perfgauge's standard error: what a helper process
    /// prints must not mix into output perfgauge writes to stdout (a JSON document).
    bool stdout_to_stderr = false;
    /// Descriptors the command's standard output and error are replaced with (-1: keep
    /// perfgauge's): a run whose output is not the user's (stat's run under callgrind) writes
    /// there instead. dup2'd after stdout_to_stderr.
    int stdout_fd = -1;
    int stderr_fd = -1;
};

/// CPU time a command used: its own and that of the descendants it waited for (wait4's rusage;
/// children it left running are not in it).
struct CpuTimes {
    double user_seconds = 0;
    double system_seconds = 0;
};

/// What perfgauge does while it waits for the command (wait(hooks)).
struct WaitHooks {
    /// Called whenever `served_fd` is readable (or hung up); returns false once the descriptor
    /// is done with (end of file), and it is no longer watched. -1: none.
    int served_fd = -1;
    std::function<bool()> on_readable;
    /// Called once, this long after the command's exec succeeded (not when it ends first).
    std::optional<std::chrono::milliseconds> after_exec;
    std::function<void()> on_after_exec;
};

/// The file execvp would run for `command`: itself when it contains a '/', else the first
/// executable regular file of that name in $PATH (unset: /bin:/usr/bin, as glibc's execvp);
/// nullopt when there is none (exec will fail and say so).
std::optional<std::string> executable_path(const std::string& command);

/// A forked child stopped before exec until start() is called, so counters can be attached
/// to its pid first (with enable_on_exec they start exactly at exec). execvp searches PATH; no
/// shell is involved. The child starts with default dispositions of SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT (except those perfgauge was started with ignored: they stay ignored), and is
/// registered to receive perfgauge's interrupts (see interrupt.hpp). It is
/// killed (SIGKILL) when the thread that made it ends - so when perfgauge dies of any signal:
/// make children on a thread that outlives them.
class PendingChild {
  public:
    explicit PendingChild(const std::vector<std::string>& argv, const ChildSetup& setup = {});
    PendingChild(const PendingChild&) = delete;
    PendingChild& operator=(const PendingChild&) = delete;
    /// Kills and reaps a child that was never started or waited for.
    ~PendingChild();

    pid_t pid() const { return pid_; }
    /// Lets the child exec - unless perfgauge was interrupted already: then it is killed
    /// before exec. Called by wait() when not called before.
    void start();
    /// start()s the child and waits for it to end. An interrupt meanwhile reaches the child; the
    /// caller sees interrupt_signal() and reports what completed.
    ExitStatus wait();
    /// The same, serving `hooks` meanwhile: it polls the served descriptor, a pidfd of the child
    /// (or, on kernels without pidfd_open, checks every 10 ms) and the exec-error pipe, whose
    /// closing tells when exec succeeded.
    ExitStatus wait(const WaitHooks& hooks);
    /// After wait(): the CPU time the command used.
    CpuTimes cpu_times() const { return usage_; }

  private:
    void record_usage(const struct rusage& usage);
    /// Reads the exec-error pipe (once): its errno when exec failed, end of file when exec
    /// succeeded. Blocks until one of them, so only once it is readable or the child ended.
    void read_exec_outcome();
    ExitStatus status_from(int wait_status);

    pid_t pid_ = -1;
    bool reaped_ = false;
    pmu::FileDescriptor go_write_;    // closing it releases the child
    pmu::FileDescriptor error_read_;  // the child writes its exec errno here
    bool exec_outcome_known_ = false;
    std::optional<int> exec_error_;  // set when exec failed
    CpuTimes usage_;
};

}  // namespace perfgauge::harness
