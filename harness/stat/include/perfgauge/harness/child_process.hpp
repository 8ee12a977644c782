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
/// shell is involved. The child starts with default dispositions of SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT, and is registered to receive perfgauge's interrupts (see interrupt.hpp).
class PendingChild {
  public:
    explicit PendingChild(const std::vector<std::string>& argv);
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

  private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    pmu::FileDescriptor go_write_;    // closing it releases the child
    pmu::FileDescriptor error_read_;  // the child writes its exec errno here
};

}  // namespace perfgauge::harness
