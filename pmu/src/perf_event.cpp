#include "perfgauge/pmu/perf_event.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace perfgauge::pmu {

void FileDescriptor::reset(int fd) {
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = fd;
}

OpenResult open_perf_event(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd,
                           unsigned long flags) {
    perf_event_attr copy = attr;
    copy.size = sizeof copy;
    const long fd =
        ::syscall(SYS_perf_event_open, &copy, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
    OpenResult result;
    if (fd < 0) {
        result.error = errno;
    } else {
        result.fd.reset(static_cast<int>(fd));
    }
    return result;
}

int probe_open(const perf_event_attr& attr) {
    perf_event_attr copy = attr;
    copy.disabled = 1;
    return open_perf_event(copy, 0, -1, -1).error;
}

}  // namespace perfgauge::pmu
