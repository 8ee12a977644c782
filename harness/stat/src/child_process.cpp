#include "perfgauge/harness/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

namespace perfgauge::harness {

namespace {

void make_pipe(pmu::FileDescriptor& read_end, pmu::FileDescriptor& write_end) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::system_error(errno, std::generic_category(), "pipe2");
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
}

// Ignores SIGINT/SIGQUIT for its lifetime, restoring the previous handlers.
class IgnoreInterrupts {
  public:
    IgnoreInterrupts() {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        ::sigaction(SIGINT, &ignore, &old_int_);
        ::sigaction(SIGQUIT, &ignore, &old_quit_);
    }
    ~IgnoreInterrupts() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGQUIT, &old_quit_, nullptr);
    }

  private:
    struct sigaction old_int_ {};
    struct sigaction old_quit_ {};
};

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

    pid_ = ::fork();
    if (pid_ < 0)
        throw std::system_error(errno, std::generic_category(), "fork");
    if (pid_ == 0) {
        go_write_.reset();  // else the child itself would keep the pipe open and never see EOF
        char byte;
        // Blocks until the parent closes its end (start() or destruction).
        while (::read(go_read.get(), &byte, 1) < 0 && errno == EINTR) {
        }
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(SIGINT, &dfl, nullptr);
        ::sigaction(SIGQUIT, &dfl, nullptr);
        ::execvp(args[0], args.data());
        const int error = errno;
        [[maybe_unused]] ssize_t ignored = ::write(error_write.get(), &error, sizeof error);
        ::_exit(127);
    }
}

PendingChild::~PendingChild() {
    if (pid_ > 0 && !reaped_) {
        ::kill(pid_, SIGKILL);
        int status;
        ::waitpid(pid_, &status, 0);
    }
}

void PendingChild::start() {
    go_write_.reset();
}

ExitStatus PendingChild::wait() {
    IgnoreInterrupts ignore;
    start();
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0) {
        if (errno != EINTR)
            throw std::system_error(errno, std::generic_category(), "waitpid");
    }
    reaped_ = true;
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
