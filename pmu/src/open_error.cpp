#include "perfgauge/pmu/open_error.hpp"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace perfgauge::pmu {

namespace {

OpenDiagnosis not_supported(EventKind kind, const PmuEnvironment& env, int error) {
    if (needs_hardware_pmu(kind) && !env.has_hardware_pmu()) {
        std::string why = "this machine exposes no hardware PMU";
        if (env.hypervisor) {
            why += fmt::format(" (virtual machine, hypervisor {}", *env.hypervisor);
            why += env.kernel_pmu_message
                       ? fmt::format("; kernel: \"{}\")", *env.kernel_pmu_message)
                       : ")";
        }
        return {"not supported", why,
                "use a machine (or VM) with a hardware PMU; to expose the PMU to a VM, enable it "
                "on the host (QEMU/KVM: -cpu host,pmu=on; libvirt: <pmu state='on'/>; cloud: an "
                "instance type with PMU access)",
                ToolHint::simulate};
    }
    if (error == EOPNOTSUPP) {
        return {"not supported",
                "the PMU cannot count this event with the requested options (e.g. privilege "
                "filtering or sampling)",
                "drop modifiers, or inspect the encoding", ToolHint::show_encoding};
    }
    return {"not supported", "this CPU or kernel does not implement this event",
            "count an event this machine can open", ToolHint::list_events};
}

OpenDiagnosis permission_denied(EventKind kind, const perf_event_attr& attr,
                                const PmuEnvironment& env) {
    const int level = env.paranoid.value_or(2);
    if (env.privileged) {
        std::string reason = "perf_event_open was refused although this process is privileged";
        if (env.container)
            reason += fmt::format("; this looks like a container ({})", *env.container);
        return {"permission denied", reason + ": a seccomp profile or security module blocks it",
                "run the container with --cap-add PERFMON (or --privileged) and a seccomp profile "
                "that allows perf_event_open"};
    }
    if (kind == EventKind::tracepoint) {
        return {
            "permission denied",
            fmt::format("tracepoints need root or CAP_PERFMON (perf_event_paranoid is {})", level),
            "run as root, or grant this program CAP_PERFMON", ToolHint::grant_perfmon};
    }
    if (level >= 3) {
        return {"permission denied",
                fmt::format("perf_event_paranoid is {}: {}", level, describe_paranoid(level)),
                "sudo sysctl -w kernel.perf_event_paranoid=2 (user-space counting), or grant "
                "this program CAP_PERFMON",
                ToolHint::grant_perfmon};
    }
    if (attr.exclude_kernel == 0 && level >= 2) {
        return {"permission denied",
                fmt::format("counting kernel space needs perf_event_paranoid <= 1, and it is {}",
                            level),
                "count user space only (drop ':k'; the default is user space), or "
                "sudo sysctl -w kernel.perf_event_paranoid=1"};
    }
    return {"permission denied",
            fmt::format("perf_event_paranoid is {}: {}", level, describe_paranoid(level)),
            "sudo sysctl -w kernel.perf_event_paranoid=1, or grant this program CAP_PERFMON",
            ToolHint::grant_perfmon};
}

}  // namespace

OpenDiagnosis diagnose_open_error(int error, EventKind kind, const perf_event_attr& attr,
                                  const PmuEnvironment& env) {
    switch (error) {
        case ENOENT:
        case EOPNOTSUPP:
        case ENODEV:
            return not_supported(kind, env, error);
        case EACCES:
        case EPERM:
            return permission_denied(kind, attr, env);
        case EINVAL:
            return {"invalid", "the kernel rejected this combination of event attributes",
                    "check the modifiers and libpfm4 attributes against the encoding",
                    ToolHint::show_encoding};
        case EMFILE:
        case ENFILE:
            return {"too many open files",
                    "the file-descriptor limit is reached (each counter is one descriptor)",
                    "raise it (ulimit -n 65536) or count fewer events at once"};
        case ENOSPC:
        case EBUSY:
            return {"no counter available",
                    "every hardware counter this event can use is taken (by another group, "
                    "another profiler, or the NMI watchdog)",
                    "split the {...} group, stop other profilers, or free the watchdog's "
                    "counter: sudo sysctl -w kernel.nmi_watchdog=0"};
        case E2BIG:
            return {"invalid", "the kernel does not understand this perf_event_attr size",
                    "this program was built against newer kernel headers than the running kernel"};
        case ESRCH:
            return {"no such process", "the process to attach to no longer exists", ""};
        default:
            return {"error", fmt::format("perf_event_open failed: {}", std::strerror(error)), ""};
    }
}

std::string dump_attr(const perf_event_attr& attr) {
    return fmt::format(
        "type {}, size {}, config {:#x}, config1 {:#x}, config2 {:#x}, sample_period {}, "
        "read_format {:#x}, disabled {}, inherit {}, pinned {}, exclusive {}, exclude_user {}, "
        "exclude_kernel {}, exclude_hv {}, exclude_idle {}, enable_on_exec {}, precise_ip {}",
        attr.type, attr.size, static_cast<unsigned long long>(attr.config),
        static_cast<unsigned long long>(attr.config1),
        static_cast<unsigned long long>(attr.config2),
        static_cast<unsigned long long>(attr.sample_period),
        static_cast<unsigned long long>(attr.read_format), +attr.disabled, +attr.inherit,
        +attr.pinned, +attr.exclusive, +attr.exclude_user, +attr.exclude_kernel, +attr.exclude_hv,
        +attr.exclude_idle, +attr.enable_on_exec, +attr.precise_ip);
}

}  // namespace perfgauge::pmu
