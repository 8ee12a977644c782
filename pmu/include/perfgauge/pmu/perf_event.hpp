// The perf_event_open syscall, wrapped: an owned descriptor or the errno that explains why not.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::pmu {

struct OpenResult {
    FileDescriptor fd;
    int error = 0;  ///< errno when !fd

    bool ok() const { return fd.valid(); }
};

/// perf_event_open(2) with PERF_FLAG_FD_CLOEXEC added, so counters never leak into exec'd children.
OpenResult open_perf_event(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd,
                           unsigned long flags = 0);

/// Opens the event disabled on the calling thread and closes it again: 0 when the kernel
/// accepts it here, else the errno.
int probe_open(const perf_event_attr& attr);

}  // namespace perfgauge::pmu
