#include "perfgauge/harness/git_head.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "perfgauge/harness/child_process.hpp"

namespace perfgauge::harness {
namespace {

pmu::FileDescriptor open_null() {
    return pmu::FileDescriptor(::open("/dev/null", O_WRONLY | O_CLOEXEC));
}

// Appends what `fd` has to `out`; false at end of file (or an error: nothing more comes).
bool read_some(int fd, std::string& out) {
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) < 0 && errno == EINTR) {
    }
    if (n <= 0)
        return false;
    out.append(buffer, static_cast<std::size_t>(n));
    return true;
}

std::string head_output(const std::string& directory) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return {};
    const pmu::FileDescriptor read_end(fds[0]);
    pmu::FileDescriptor write_end(fds[1]);
    const auto null = open_null();
    ChildSetup setup;
    setup.stdout_fd = write_end.get();
    setup.stderr_fd = null.get();
    PendingChild child({"git", "-C", directory, "rev-parse", "--verify", "-q", "HEAD"}, setup);
    write_end.reset();  // the child's copy is the only writer left: its end is end of file
    std::string out;
    bool open = true;
    WaitHooks hooks;
    hooks.served_fd = read_end.get();
    hooks.on_readable = [&] { return open = read_some(read_end.get(), out); };
    child.wait(hooks);
    while (open)
        open = read_some(read_end.get(), out);
    return out;
}

}  // namespace

std::string git_head(const std::string& directory) {
    std::string out;
    try {
        out = head_output(directory);
    } catch (const std::system_error&) {
        return {};  // no process could be started (fork, pipe): no commit known, as without git
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
        out.pop_back();
    return out;
}

}  // namespace perfgauge::harness
