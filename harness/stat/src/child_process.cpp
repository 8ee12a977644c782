#include "perfgauge/harness/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
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

}  // namespace

PendingChild::PendingChild(const std::vector<std::string>& argv) {
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

    // An interrupt arriving meanwhile is delivered once the child is registered, so it is
    // passed on to the child too.
    const InterruptsBlocked blocked;
    pid_ = ::fork();
    if (pid_ < 0)
        throw std::system_error(errno, std::generic_category(), "fork");
    if (pid_ == 0) {
        // perfgauge's handlers are not the command's: an interrupt before exec ends the child.
        blocked.reset_in_child();
        go_write_.reset();  // else the child itself would keep the pipe open and never see EOF
        char byte;
        // Blocks until the parent closes its end (start() or destruction).
        while (::read(go_read.get(), &byte, 1) < 0 && errno == EINTR) {
        }
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

ExitStatus PendingChild::wait() {
    start();
    int status = 0;
    // An interrupt meanwhile reaches the child through the handler (or, from a terminal,
    // directly); perfgauge waits for it to end and its caller sees interrupt_signal().
    while (::waitpid(pid_, &status, 0) < 0) {
        if (errno != EINTR)
            throw std::system_error(errno, std::generic_category(), "waitpid");
    }
    reaped_ = true;
    unregister_child(pid_);
    ExitStatus result;
    int error = 0;
    // The error pipe closes on a successful exec (O_CLOEXEC), so read() returns 0 then.
    if (::read(error_read_.get(), &error, sizeof error) == sizeof error) {
        result.exec_failed = true;
        result.exec_error = error;
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
