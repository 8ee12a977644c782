// What this machine and process allow perf_event_open to do, and why.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace perfgauge::pmu {

struct PmuEnvironment {
    /// Core PMUs in /sys/bus/event_source/devices: "cpu", or "cpu_core"/"cpu_atom" on hybrid
    /// Intel; on arm64 the PMUs that list "cpus" (armv8_pmuv3_0, armv8_cortex_a72, ...).
    std::vector<std::string> core_pmus;
    std::optional<int> paranoid;            ///< /proc/sys/kernel/perf_event_paranoid
    bool privileged = false;                ///< root, CAP_PERFMON or CAP_SYS_ADMIN in effect
    std::optional<std::string> hypervisor;  ///< CPUID hypervisor vendor ("KVMKVMKVM", ...)
    std::optional<std::string> container;   ///< what gave a container away ("/.dockerenv", ...)
    std::optional<std::string> kernel_pmu_message;  ///< the kernel's "Performance Events:" line
    /// Whether user space may read counters: the value of rdpmc_control.
    std::optional<int> rdpmc;
    /// The file that switches user-space counter reads: /sys/bus/event_source/devices/<core
    /// pmu>/rdpmc on x86, /proc/sys/kernel/perf_user_access on arm64; empty without a PMU.
    std::string rdpmc_control;
    std::optional<int> nmi_watchdog;  ///< /proc/sys/kernel/nmi_watchdog (it holds a counter)

    bool has_hardware_pmu() const { return !core_pmus.empty(); }
};

/// Reads sysfs, procfs, CPUID and (where readable) the kernel log.
PmuEnvironment detect_pmu_environment();

/// Whether this process may count kernel space: privileged, or perf_event_paranoid <= 1.
/// Cheap (two small procfs reads), unlike detect_pmu_environment().
bool kernel_counting_allowed();

/// The file that switches user-space counter reads on this architecture (see rdpmc_control).
std::string user_read_control_path(const std::vector<std::string>& core_pmus);

/// What a perf_event_paranoid level allows an unprivileged user, in one sentence.
std::string describe_paranoid(int level);

/// Extracts the kernel's PMU line ("Performance Events: ...") from kernel log text, if present.
std::optional<std::string> find_pmu_message(const std::string& kernel_log);

}  // namespace perfgauge::pmu
