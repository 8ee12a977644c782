// Starting a command for `perfgauge stat`: fork, let the parent attach counters, then exec.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "perfgauge/harness/exit_status.hpp"
#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::harness {

/// A forked child stopped before exec until start() is called, so counters can be attached
/// to its pid first (with enable_on_exec they start exactly at exec). execvp searches PATH; no
/// shell is involved. The child restores default signal dispositions before exec.
class PendingChild {
  public:
    explicit PendingChild(const std::vector<std::string>& argv);
    PendingChild(const PendingChild&) = delete;
    PendingChild& operator=(const PendingChild&) = delete;
    /// Kills and reaps a child that was never started or waited for.
    ~PendingChild();

    pid_t pid() const { return pid_; }
    /// Lets the child exec.
    void start();
    /// Waits for the child (SIGINT and SIGQUIT are ignored meanwhile, like time(1) does, so
    /// Ctrl-C reaches the command and the counts are still reported).
    ExitStatus wait();

  private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    pmu::FileDescriptor go_write_;    // closing it releases the child
    pmu::FileDescriptor error_read_;  // the child writes its exec errno here
};

}  // namespace perfgauge::harness
