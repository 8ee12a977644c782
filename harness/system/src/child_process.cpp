#include "perfgauge/harness/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "perfgauge/harness/interrupt.hpp"

namespace perfgauge::harness {

namespace {

void make_pipe(pmu::FileDescriptor& read_end, pmu::FileDescriptor& write_end) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::system_error(errno, std::generic_category(), "pipe2");
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
}

// perfgauge's environment with `extra` ("NAME=VALUE") replacing or adding entries.
std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
    std::vector<std::string> out;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry(*e);
        const auto replaced = std::any_of(extra.begin(), extra.end(), [&](const std::string& x) {
            const auto eq = x.find('=');
            return entry.compare(0, eq + 1, x, 0, eq + 1) == 0;
        });
        if (!replaced)
            out.push_back(entry);
    }
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
}

// A pidfd of `pid`, readable once it has ended; empty on kernels before 5.3 (ENOSYS).
pmu::FileDescriptor open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    const long fd = ::syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0)
        return pmu::FileDescriptor(static_cast<int>(fd));
#else
    (void)pid;
#endif
    return {};
}

}  // namespace

std::optional<std::string> executable_path(const std::string& command) {
    if (command.empty())
        return std::nullopt;
    if (command.find('/') != std::string::npos)
        return command;
    const char* path = std::getenv("PATH");
    const std::string dirs = path != nullptr ? path : "/bin:/usr/bin";
    for (std::size_t start = 0; start <= dirs.size();) {
        const auto colon = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = dirs.substr(start, colon - start);
        start = colon + 1;
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + command;  // "": cwd
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return std::nullopt;
}

PendingChild::PendingChild(const std::vector<std::string>& argv, const ChildSetup& setup) {
    if (argv.empty())
        throw std::invalid_argument("no command to run");
    pmu::FileDescriptor go_read, error_write;
    make_pipe(go_read, go_write_);
    make_pipe(error_read_, error_write);
    // Build argv before fork: no allocation in the child.
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const bool own_environment = !setup.environment.empty();
    const auto environment =
        own_environment ? environment_with(setup.environment) : std::vector<std::string>{};
    std::vector<char*> envp;
    for (const auto& e : environment)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);

    // An interrupt arriving meanwhile is delivered once the child is registered, so it is
    // passed on to the child too.
    const InterruptsBlocked blocked;
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0)
        throw std::system_error(errno, std::generic_category(), "fork");
    if (pid_ == 0) {
        // perfgauge's handlers are not the command's: an interrupt before exec ends the child.
        blocked.reset_in_child();
        // A perfgauge killed outright takes the command along: it would live on unmeasured,
        // holding the terminal or a lock.
        if (!die_with_parent(parent))
            ::_exit(127);
        go_write_.reset();  // else the child itself would keep the pipe open and never see EOF
        char byte;
        // Blocks until the parent closes its end (start() or destruction).
        while (::read(go_read.get(), &byte, 1) < 0 && errno == EINTR) {
        }
        // The one descriptor meant for the command loses its close-on-exec flag here only, so
        // no other child of perfgauge ever holds it.
        if (setup.inherited_fd >= 0)
            ::fcntl(setup.inherited_fd, F_SETFD, 0);
        if (setup.stdout_to_stderr)
            ::dup2(STDERR_FILENO, STDOUT_FILENO);
        if (setup.stdout_fd >= 0)
            ::dup2(setup.stdout_fd, STDOUT_FILENO);
        if (setup.stderr_fd >= 0)
            ::dup2(setup.stderr_fd, STDERR_FILENO);
        if (own_environment)
            ::execvpe(args[0], args.data(), envp.data());
        else
            ::execvp(args[0], args.data());
        const int error = errno;
        [[maybe_unused]] ssize_t ignored = ::write(error_write.get(), &error, sizeof error);
        ::_exit(127);
    }
    register_child(pid_);
}

PendingChild::~PendingChild() {
    if (pid_ > 0 && !reaped_) {
        ::kill(pid_, SIGKILL);
        int status;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        unregister_child(pid_);
    }
}

void PendingChild::start() {
    // Interrupted before it began: the command is not started at all (it dies before exec).
    // A signal after this check finds the child registered, so it is passed on.
    if (go_write_ && interrupt_signal() != 0)
        ::kill(pid_, SIGKILL);
    go_write_.reset();
}

void PendingChild::read_exec_outcome() {
    if (exec_outcome_known_)
        return;
    int error = 0;
    ssize_t n;
    // The error pipe closes on a successful exec (O_CLOEXEC), so read() returns 0 then.
    while ((n = ::read(error_read_.get(), &error, sizeof error)) < 0 && errno == EINTR) {
    }
    if (n == sizeof error)
        exec_error_ = error;
    exec_outcome_known_ = true;
}

ExitStatus PendingChild::wait() {
    start();
    int status = 0;
    // An interrupt meanwhile reaches the child through the handler (or, from a terminal,
    // directly); perfgauge waits for it to end and its caller sees interrupt_signal().
    rusage usage{};
    while (::wait4(pid_, &status, 0, &usage) < 0) {
        if (errno != EINTR)
            throw std::system_error(errno, std::generic_category(), "wait4");
    }
    record_usage(usage);
    reaped_ = true;
    unregister_child(pid_);
    reap_ended_orphans();
    return status_from(status);
}

ExitStatus PendingChild::wait(const WaitHooks& hooks) {
    start();
    const auto pidfd = open_pidfd(pid_);
    int served = hooks.on_readable ? hooks.served_fd : -1;
    std::optional<std::chrono::steady_clock::time_point> due;
    bool delay_pending = hooks.after_exec.has_value() && hooks.on_after_exec;
    int status = 0;
    for (;;) {
        rusage usage{};
        const pid_t done = ::wait4(pid_, &status, WNOHANG, &usage);
        if (done == pid_) {
            record_usage(usage);
            break;
        }
        if (done < 0 && errno != EINTR)
            throw std::system_error(errno, std::generic_category(), "wait4");
        int timeout = pidfd ? -1 : 10;  // without a pidfd, look at the child every 10 ms
        if (due) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(
                                  *due - std::chrono::steady_clock::now())
                                  .count();
            timeout =
                static_cast<int>(std::clamp<long long>(left, 0, timeout < 0 ? 1LL << 30 : timeout));
        }
        pollfd fds[3] = {{pidfd ? pidfd.get() : -1, POLLIN, 0},
                         {served, POLLIN, 0},
                         {exec_outcome_known_ ? -1 : error_read_.get(), POLLIN, 0}};
        if (::poll(fds, 3, timeout) < 0) {
            if (errno != EINTR)
                throw std::system_error(errno, std::generic_category(), "poll");
            continue;  // an interrupt: passed on to the child by the handler; keep waiting
        }
        if (fds[2].revents != 0) {
            read_exec_outcome();
            if (!exec_error_ && delay_pending)
                due = std::chrono::steady_clock::now() + *hooks.after_exec;
        }
        if (fds[1].revents != 0 && !hooks.on_readable())
            served = -1;
        if (due && std::chrono::steady_clock::now() >= *due) {
            due.reset();
            delay_pending = false;
            hooks.on_after_exec();
        }
    }
    reaped_ = true;
    unregister_child(pid_);
    reap_ended_orphans();
    return status_from(status);
}

void PendingChild::record_usage(const rusage& usage) {
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    usage_ = CpuTimes{seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

ExitStatus PendingChild::status_from(int status) {
    ExitStatus result;
    // Once the child has ended, the pipe has either its errno or end of file: never blocks.
    read_exec_outcome();
    if (exec_error_) {
        result.exec_failed = true;
        result.exec_error = *exec_error_;
        return result;
    }
    if (WIFSIGNALED(status)) {
        result.signaled = true;
        result.code = WTERMSIG(status);
        result.core_dumped = WCOREDUMP(status);
    } else {
        result.code = WEXITSTATUS(status);
    }
    return result;
}

}  // namespace perfgauge::harness
