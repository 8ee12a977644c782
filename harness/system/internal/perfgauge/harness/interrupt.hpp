// Interruptions (SIGINT, SIGTERM, SIGHUP) that stop perfgauge cleanly instead of killing it
// mid-way: the work in progress notices, its children are signalled and reaped, temporary files
// go with their owners' destructors, and what was completed is saved and marked interrupted.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include "perfgauge/harness/exit_status.hpp"  // signal_name

namespace perfgauge::harness {

/// While alive, SIGINT, SIGTERM and SIGHUP no longer kill this process: the first is recorded
/// (interrupt_signal()) and passed on to every registered child; a further one kills the
/// registered children outright (SIGKILL), so a child that ignores signals cannot hold
/// perfgauge. The previous dispositions come back with the destructor; the recorded signal
/// stays. A signal that was ignored when perfgauge started (`nohup`'s SIGHUP, a background
/// job's SIGINT) is left ignored: it neither interrupts perfgauge nor reaches its children. One
/// at a time per process (the CLI's main).
class InterruptHandling {
  public:
    InterruptHandling();
    InterruptHandling(const InterruptHandling&) = delete;
    InterruptHandling& operator=(const InterruptHandling&) = delete;
    ~InterruptHandling();

  private:
    struct sigaction old_[3]{};
};

/// The signal that interrupted this process, 0 while none has. Async-signal-safe.
int interrupt_signal();

/// The exit status of a process that stopped because of `signal`: 128 + N, as a shell reports a
/// process the signal killed.
inline int interrupted_exit_status(int signal) {
    return 128 + signal;
}

/// Children that receive the interrupt (PendingChild registers itself); at most 32 at once.
void register_child(pid_t pid);
void unregister_child(pid_t pid);

/// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER): when a
/// measured command dies and leaves children behind (`sh -c 'sleep 9 | cat'`), they become
/// perfgauge's, so an interruption can end them too. Returns false where the kernel refuses.
bool adopt_orphans();

/// Reaps the adopted orphans that have ended: children of this process in the zombie state that
/// no PendingChild registered (those are reaped by their owner). Called after every run of a
/// command, so that `stat -r 300` of a command that leaves children behind does not pile up
/// zombies (each one counts against the user's process limit). Nothing before adopt_orphans().
void reap_ended_orphans();

/// Ends every remaining child of this process, adopted orphans included: `signal` first,
/// SIGKILL to those still there after `grace_ms`, and reaps them. For after an interruption,
/// once the registered children have ended: nothing the command started outlives perfgauge.
void end_remaining_children(int signal, int grace_ms);

/// In a child just forked from `parent` (async-signal-safe): SIGKILL when the thread that forked
/// it ends - so when perfgauge dies of a signal it does not handle (SIGKILL, SIGQUIT, a crash) -
/// instead of living on unattended. Kept across exec, except into a set-user-ID or set-group-ID
/// program or one with file capabilities; not inherited by the child's own children. False when
/// it cannot be set or `parent` is gone already: the child should _exit then.
bool die_with_parent(pid_t parent);

/// Blocks the interrupting signals for its lifetime: around fork(), so that no signal finds a
/// child started but not yet registered (it is delivered, and passed on, when unblocked).
class InterruptsBlocked {
  public:
    InterruptsBlocked();
    InterruptsBlocked(const InterruptsBlocked&) = delete;
    InterruptsBlocked& operator=(const InterruptsBlocked&) = delete;
    ~InterruptsBlocked();
    /// In the child just forked under this block: default dispositions (an inherited SIG_IGN
    /// kept), signals unblocked.
    /// Async-signal-safe (no allocation).
    void reset_in_child() const;

  private:
    sigset_t old_mask_{};
};

}  // namespace perfgauge::harness
