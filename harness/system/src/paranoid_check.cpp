// The perf_event_paranoid line of `doctor`, judged by what the kernel opened for this process.
#include <fmt/format.h>

#include <cerrno>

#include "perfgauge/harness/doctor.hpp"

namespace perfgauge::harness {

namespace {

constexpr const char* kTopic = "perf_event_paranoid";

bool refused(int error) {
    return error == EACCES || error == EPERM;
}

// "tried task-clock on this process, user space: opened; ...": what was done and what the
// kernel answered, so the finding can be checked against the machine.
std::string tried_text(const pmu::AccessProbes& t) {
    return fmt::format(
        "tried as this process: task-clock on itself, user space: {}; task-clock, kernel "
        "included: {}; cpu-clock for every task on CPU 0: {}; cycles, user space: {}",
        pmu::describe_attempt(t.self_user), pmu::describe_attempt(t.self_kernel),
        pmu::describe_attempt(t.cpu_wide), pmu::describe_attempt(t.hardware_user));
}

std::string extras_text(const pmu::AccessProbes& t) {
    std::string out;
    if (refused(t.self_kernel) || refused(t.cpu_wide)) {
        out = fmt::format("; {} need root or CAP_PERFMON here",
                          refused(t.self_kernel) && refused(t.cpu_wide)
                              ? "kernel space (:k) and CPU-wide counting"
                          : refused(t.self_kernel) ? "kernel space (:k)"
                                                   : "CPU-wide counting");
    }
    return out;
}

}  // namespace

DoctorCheck paranoid_check(std::optional<int> level, bool privileged,
                           const pmu::AccessProbes& tried) {
    if (!level) {
        return {CheckLevel::fail, kTopic,
                "/proc/sys/kernel/perf_event_paranoid is missing: the kernel has no perf events "
                "support",
                "use a kernel built with CONFIG_PERF_EVENTS"};
    }
    const int l = *level;
    const std::string tried_part = tried_text(tried);
    if (tried.self_user == 0) {
        std::string finding;
        if (privileged) {
            finding = fmt::format(
                "{}, but this process is privileged (root or CAP_PERFMON), so the level does "
                "not limit it; {}",
                l, tried_part);
        } else if (l >= 3) {
            finding = fmt::format(
                "{}, yet this kernel treats it like 2: {}. Upstream kernels do this; only kernels "
                "patched like Debian's and Ubuntu's refuse unprivileged counting at 3 and above. "
                "perfgauge counts user space by default, which works{}",
                l, tried_part, extras_text(tried));
        } else {
            finding = fmt::format("{}: {}; {}{}", l, pmu::describe_paranoid(l), tried_part,
                                  extras_text(tried));
        }
        return {CheckLevel::ok, kTopic, finding, ""};
    }
    if (!refused(tried.self_user)) {
        return {CheckLevel::fail, kTopic,
                fmt::format("{}: perf_event_open does not work here at all; {}", l, tried_part),
                "use a kernel built with CONFIG_PERF_EVENTS and a seccomp profile that allows "
                "perf_event_open"};
    }
    if (privileged || l <= 2) {
        return {CheckLevel::fail, kTopic,
                fmt::format("{} allows {} to count its own process, yet the kernel refused: {}; "
                            "a seccomp profile or security module (container runtime, SELinux, "
                            "AppArmor) blocks perf_event_open",
                            l, privileged ? "this privileged process" : "a user", tried_part),
                "allow perf_event_open in the container's seccomp profile (docker: "
                "--security-opt seccomp=..., or --cap-add PERFMON)"};
    }
    return {CheckLevel::fail, kTopic,
            fmt::format("{}: this kernel refuses perf_event_open to unprivileged users (a "
                        "Debian/Ubuntu/Android patch disables it at 3 and above): {}",
                        l, tried_part),
            "sudo sysctl -w kernel.perf_event_paranoid=2 (user-space counting), or grant this "
            "program CAP_PERFMON",
            pmu::ToolHint::grant_perfmon};
}

}  // namespace perfgauge::harness
