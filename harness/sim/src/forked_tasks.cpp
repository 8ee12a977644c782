#include "perfgauge/harness/forked_tasks.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/pmu/callgrind_output.hpp"
#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::harness {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
    std::size_t task = 0;
    pmu::FileDescriptor result;  // the child writes its value here, then exits
    Clock::time_point start;
};

// The children still running: killed and reaped when the run ends early (an error, an
// exception from the caller's task description), so none outlives it.
class Children {
  public:
    Children() = default;
    Children(const Children&) = delete;
    Children& operator=(const Children&) = delete;
    ~Children() {
        for (const auto& [pid, r] : running)
            ::kill(pid, SIGKILL);
        for (const auto& [pid, r] : running) {
            while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
            unregister_child(pid);
        }
    }
    std::map<pid_t, Running> running;
};

[[noreturn]] void run_child(std::size_t i, int result_fd, pid_t parent,
                            const std::function<std::uint64_t(std::size_t)>& task) {
    // A simulation never runs on unattended.
    if (!die_with_parent(parent))
        ::_exit(125);
    std::uint64_t value = 0;
    try {
        value = task(i);
    } catch (...) {
        ::_exit(1);
    }
    // _exit: neither the parent's atexit handlers nor its stdio buffers run twice.
    const bool written = ::write(result_fd, &value, sizeof value) == sizeof value;
    ::_exit(written ? 0 : 1);
}

void start(std::size_t i, Children& children,
           const std::function<std::uint64_t(std::size_t)>& task) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw pmu::SimulationError(fmt::format("pipe: {}", std::strerror(errno)));
    pmu::FileDescriptor read_end(fds[0]), write_end(fds[1]);
    const pid_t parent = ::getpid();
    const InterruptsBlocked blocked;  // no interrupt between fork() and register_child()
    const pid_t pid = ::fork();
    if (pid < 0)
        throw pmu::SimulationError(fmt::format("fork: {}", std::strerror(errno)));
    if (pid == 0) {
        blocked.reset_in_child();
        run_child(i, write_end.get(), parent, task);
    }
    register_child(pid);
    children.running.emplace(pid, Running{i, std::move(read_end), Clock::now()});
}

}  // namespace

std::vector<ForkedOutcome> run_forked(const std::vector<std::size_t>& order, unsigned jobs,
                                      const std::function<std::uint64_t(std::size_t)>& task,
                                      const std::function<std::string(std::size_t)>& describe) {
    std::size_t size = 0;
    for (const std::size_t i : order)
        size = std::max(size, i + 1);
    std::vector<ForkedOutcome> out(size);
    Children children;
    std::size_t next = 0;
    while (next < order.size() || !children.running.empty()) {
        while (next < order.size() && children.running.size() < std::max(1U, jobs) &&
               interrupt_signal() == 0) {
            start(order[next++], children, task);
        }
        if (children.running.empty())
            break;  // interrupted before the rest started
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            throw pmu::SimulationError(fmt::format("waitpid: {}", std::strerror(errno)));
        }
        const auto it = children.running.find(pid);
        if (it == children.running.end())
            continue;  // not one of these tasks
        unregister_child(pid);
        Running r = std::move(it->second);
        children.running.erase(it);
        ForkedOutcome& o = out[r.task];
        o.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
        const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                        ::read(r.result.get(), &o.value, sizeof o.value) == sizeof o.value;
        if (!ok && interrupt_signal() == 0) {
            throw pmu::SimulationError(fmt::format(
                "the simulation of {} failed ({})", describe(r.task),
                WIFSIGNALED(status) ? fmt::format("killed by signal {}", WTERMSIG(status))
                                    : fmt::format("exit status {}", WEXITSTATUS(status))));
        }
    }
    return out;
}

}  // namespace perfgauge::harness
