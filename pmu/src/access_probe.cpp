#include "perfgauge/pmu/access_probe.hpp"

#include <linux/perf_event.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "perfgauge/pmu/perf_event.hpp"

namespace perfgauge::pmu {

namespace {

perf_event_attr attr_of(std::uint32_t type, std::uint64_t config, bool kernel) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config;
    attr.disabled = 1;
    attr.exclude_kernel = kernel ? 0 : 1;
    attr.exclude_hv = 1;
    return attr;
}

const char* errno_name(int error) {
    switch (error) {
        case EACCES:
            return "EACCES";
        case EPERM:
            return "EPERM";
        case ENOENT:
            return "ENOENT";
        case ENODEV:
            return "ENODEV";
        case EOPNOTSUPP:
            return "EOPNOTSUPP";
        case EINVAL:
            return "EINVAL";
        case ENOSYS:
            return "ENOSYS";
        default:
            return nullptr;
    }
}

}  // namespace

AccessProbes probe_access() {
    AccessProbes p;
    p.self_user = probe_open(attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false));
    p.self_kernel = probe_open(attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true));
    // pid -1 with a CPU: every task on that CPU, which perf_event_paranoid >= 1 keeps for
    // privileged users.
    p.cpu_wide =
        open_perf_event(attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false), -1, 0, -1)
            .error;
    p.hardware_user = probe_open(attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false));
    return p;
}

std::string describe_attempt(int error) {
    if (error == 0)
        return "opened";
    const char* name = errno_name(error);
    const std::string code = name ? name : std::strerror(error);
    if (error == EACCES || error == EPERM)
        return fmt::format("refused ({})", code);
    if (error == ENOENT || error == ENODEV || error == EOPNOTSUPP)
        return fmt::format("not supported ({})", code);
    return fmt::format("failed ({})", code);
}

}  // namespace perfgauge::pmu
