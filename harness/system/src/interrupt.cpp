#include "perfgauge/harness/interrupt.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

// Whether `signal` is ignored now. perfgauge itself never ignores a signal, so an ignored one
// was ignored when it started (nohup's SIGHUP, a script's background job's SIGINT), and stays so
// for perfgauge and for everything it starts, as perf stat and shells keep it.
bool ignored(int signal) {
    struct sigaction current {};
    return ::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
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
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
        if (ignored(kSignals[i]))
            ::sigaction(kSignals[i], nullptr, &old_[i]);  // kept ignored; restored as it was
        else
            ::sigaction(kSignals[i], &action, &old_[i]);
    }
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

namespace {

std::atomic<bool> adopting{false};

// This process's children, from /proc/PID/stat: "pid (comm) state ppid ..." (comm may hold
// spaces and parentheses, so the fields are read after its last ')').
std::vector<pid_t> own_children() {
    std::vector<pid_t> out;
    const pid_t self = ::getpid();
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(entry.path() / "stat");
        std::string text;
        if (!std::getline(in, text))
            continue;
        const auto paren = text.rfind(')');
        if (paren == std::string::npos)
            continue;
        std::istringstream fields(text.substr(paren + 1));
        std::string state;
        long ppid = 0;
        if (fields >> state >> ppid && ppid == self)
            out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

// Reaps every child that has ended; true when none is left.
bool reap_ended() {
    for (;;) {
        const pid_t pid = ::waitpid(-1, nullptr, WNOHANG);
        if (pid > 0)
            continue;
        return pid < 0 && errno == ECHILD;
    }
}

bool registered(pid_t pid) {
    return std::any_of(std::begin(children), std::end(children),
                       [pid](const std::atomic<pid_t>& child) { return child.load() == pid; });
}

}  // namespace

bool adopt_orphans() {
    adopting = ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
    return adopting;
}

void reap_ended_orphans() {
    if (!adopting)
        return;
    // Peeks at one ended child at a time (WNOWAIT leaves it to be reaped): cheap enough for
    // every run, where scanning /proc was not. A registered child stops the peeking: its owner
    // reaps it, and the orphans behind it wait for the next call.
    for (;;) {
        siginfo_t info{};
        if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
            return;
        if (registered(info.si_pid))
            return;
        ::waitpid(info.si_pid, nullptr, WNOHANG);
    }
}

void end_remaining_children(int signal, int grace_ms) {
    for (const pid_t pid : own_children())
        ::kill(pid, signal);
    for (int waited = 0; waited < grace_ms; waited += 10) {
        if (reap_ended())
            return;
        ::usleep(10000);
    }
    for (const pid_t pid : own_children())
        ::kill(pid, SIGKILL);
    for (int i = 0; i < 100 && !reap_ended(); ++i)
        ::usleep(10000);
}

bool die_with_parent(pid_t parent) {
    // Checked after setting it: a parent that died before missed sending it.
    return ::prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && ::getppid() == parent;
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
    for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
        if (!ignored(s))  // an inherited SIG_IGN is the child's too (exec keeps it)
            ::sigaction(s, &dfl, nullptr);
    }
    ::pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

}  // namespace perfgauge::harness
