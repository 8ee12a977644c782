#include "perfgauge/harness/interrupt.hpp"

#include <atomic>
#include <cerrno>

namespace perfgauge::harness {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t kMaxChildren = 32;

// Lock-free atomics only: the handler reads them.
std::atomic<int> recorded_signal{0};
std::atomic<int> signals_received{0};
std::atomic<pid_t> children[kMaxChildren];

void on_interrupt(int signal) {
    const int saved_errno = errno;  // the interrupted code may be about to read it
    int expected = 0;
    recorded_signal.compare_exchange_strong(expected, signal);
    // The first signal is passed on as it came (a measured command may want to clean up); a
    // second means "now": nothing registered may outlive perfgauge.
    const int forwarded = signals_received.fetch_add(1) == 0 ? signal : SIGKILL;
    for (auto& child : children) {
        const pid_t pid = child.load();
        if (pid > 0)
            ::kill(pid, forwarded);
    }
    errno = saved_errno;
}

sigset_t interrupt_set() {
    sigset_t set;
    ::sigemptyset(&set);
    for (const int s : kSignals)
        ::sigaddset(&set, s);
    return set;
}

}  // namespace

InterruptHandling::InterruptHandling() {
    static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free);
    recorded_signal = 0;
    signals_received = 0;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    action.sa_mask = interrupt_set();  // one handler at a time
    // No SA_RESTART: a blocking call returns EINTR, and its caller looks at interrupt_signal().
    for (std::size_t i = 0; i < std::size(kSignals); ++i)
        ::sigaction(kSignals[i], &action, &old_[i]);
}

InterruptHandling::~InterruptHandling() {
    for (std::size_t i = 0; i < std::size(kSignals); ++i)
        ::sigaction(kSignals[i], &old_[i], nullptr);
}

int interrupt_signal() {
    return recorded_signal.load();
}

void register_child(pid_t pid) {
    for (auto& child : children) {
        pid_t empty = 0;
        if (child.compare_exchange_strong(empty, pid))
            return;
    }
    // More children than slots: this one is still reaped by its owner, just not signalled.
}

void unregister_child(pid_t pid) {
    for (auto& child : children) {
        pid_t expected = pid;
        if (child.compare_exchange_strong(expected, 0))
            return;
    }
}

InterruptsBlocked::InterruptsBlocked() {
    const sigset_t set = interrupt_set();
    ::pthread_sigmask(SIG_BLOCK, &set, &old_mask_);
}

InterruptsBlocked::~InterruptsBlocked() {
    ::pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

void InterruptsBlocked::reset_in_child() const {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (const int s : kSignals)
        ::sigaction(s, &dfl, nullptr);
    ::sigaction(SIGQUIT, &dfl, nullptr);
    ::pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

}  // namespace perfgauge::harness
