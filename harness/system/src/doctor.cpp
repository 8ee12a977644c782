#include "perfgauge/harness/doctor.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>

#include "perfgauge/pmu/open_error.hpp"

namespace perfgauge::harness {

namespace {

using pmu::EventKind;

perf_event_attr user_only_attr() {
    perf_event_attr attr{};
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return attr;
}

DoctorCheck hardware_pmu_check(const pmu::PmuEnvironment& env, const DoctorProbes& probes) {
    if (!env.has_hardware_pmu()) {
        std::string why;
        if (env.hypervisor) {
            why = fmt::format(
                "this is a virtual machine (hypervisor: {}) that does not pass the "
                "PMU through",
                *env.hypervisor);
        } else if (env.container) {
            why = fmt::format(
                "no core PMU is registered with the kernel; this looks like a "
                "container ({}), check the host",
                *env.container);
        } else {
            why =
                "the kernel registered no core PMU (unsupported CPU, or the PMU driver is "
                "disabled)";
        }
        if (env.kernel_pmu_message)
            why += fmt::format("; the kernel says: \"{}\"", *env.kernel_pmu_message);
        const auto diagnosis =
            pmu::diagnose_open_error(ENOENT, EventKind::hardware, user_only_attr(), env);
        return {CheckLevel::fail, "hardware PMU",
                "this machine exposes no hardware PMU (/sys/bus/event_source/devices/cpu is "
                "missing), so cycles, instructions and branch-misses cannot be counted: " +
                    why,
                diagnosis.fix, diagnosis.hint};
    }
    const std::string pmus = fmt::format("{}", fmt::join(env.core_pmus, ", "));
    if (probes.hardware_error != 0) {
        const auto d = pmu::diagnose_open_error(probes.hardware_error, EventKind::hardware,
                                                user_only_attr(), env);
        return {CheckLevel::fail, "hardware PMU",
                fmt::format("core PMU present ({}) but 'cycles' cannot be opened: {}: {}", pmus,
                            d.status, d.reason),
                d.fix, d.hint};
    }
    std::string finding = fmt::format("exposed ({}); 'cycles' opens", pmus);
    if (env.core_pmus.size() > 1)
        finding += "; hybrid CPU: counts differ between core types";
    return {CheckLevel::ok, "hardware PMU", finding, ""};
}

DoctorCheck software_check(const pmu::PmuEnvironment& env, const DoctorProbes& probes) {
    if (probes.software_error == 0) {
        return {
            CheckLevel::ok, "software events",
            "'task-clock' opens (task-clock, page-faults, context-switches, cpu-migrations work)",
            ""};
    }
    const auto d =
        pmu::diagnose_open_error(probes.software_error, EventKind::software, user_only_attr(), env);
    return {CheckLevel::fail, "software events",
            fmt::format("'task-clock' cannot be opened: {}: {}", d.status, d.reason), d.fix,
            d.hint};
}

DoctorCheck rdpmc_check(const pmu::PmuEnvironment& env) {
    if (!env.has_hardware_pmu() || !env.rdpmc) {
        return {CheckLevel::info, "rdpmc",
                "unavailable (no hardware PMU): counter snapshots use read(), about 1-2 us each",
                ""};
    }
    if (*env.rdpmc == 0) {
        return {CheckLevel::warn, "rdpmc",
                "disabled: every counter snapshot costs a read() syscall instead of ~200 cycles",
                fmt::format("echo 1 | sudo tee {}", env.rdpmc_control)};
    }
    return {CheckLevel::ok, "rdpmc",
            *env.rdpmc == 1 ? "enabled for tasks that have a counter mapped (1)"
                            : "enabled for every task (2)",
            ""};
}

void add_cpu_checks(const SystemInfo& system, std::vector<DoctorCheck>& out) {
    const CpuInfo& cpu = system.cpu;
    out.push_back({CheckLevel::info, "CPU",
                   fmt::format("{} ({}, family {:#x}, model {:#x}), {} logical CPUs",
                               cpu.model_name, cpu.vendor, cpu.family, cpu.model, cpu.logical_cpus),
                   ""});
    if (cpu.generic_timer_hz > 0) {
        // arm64: no TSC; perfgauge's region clock is the generic timer.
        out.push_back({CheckLevel::ok, "clock",
                       fmt::format("the generic timer (CNTVCT_EL0) at {:g} MHz (CNTFRQ_EL0): a "
                                   "constant rate by definition, read from user space",
                                   static_cast<double>(cpu.generic_timer_hz) / 1e6),
                       ""});
    } else if (!cpu.invariant_tsc) {
        out.push_back({CheckLevel::warn, "TSC",
                       "not invariant: rdtsc ticks change with frequency; perfgauge falls back to "
                       "steady_clock",
                       ""});
    } else {
        out.push_back(
            {CheckLevel::ok, "TSC", "invariant (constant rate, runs in idle states)", ""});
    }
}

}  // namespace

DoctorCheck cpu_gaps_check(const CpuGaps& gaps) {
    const std::string seen = fmt::format(
        "{} gap(s) of {:.0f} us or more in {:.0f} ms of reading the clock, {:.1f}% of "
        "the time",
        gaps.count, gaps.threshold_ns / 1e3, gaps.window_ns / 1e6, 100 * gaps.lost_share);
    if (gaps.lost_share < kCpuGapsWarnShare)
        return {CheckLevel::ok, std::string(kCpuGapsTopic), seen, ""};
    constexpr double kSampleNs = 2e6;  // --min-time's default
    std::string finding = seen + fmt::format(", typically {:.0f} us", gaps.typical_gap_ns / 1e3);
    if (gaps.typical_period_ns > 0)
        finding += fmt::format(" every {:.2f} ms", gaps.typical_period_ns / 1e6);
    finding += fmt::format(
        ": something else had the CPU (on a VM, the host), and a thread's CPU time includes "
        "such gaps when the host takes them, so a sample that holds one is not set aside as "
        "disturbed; a 2 ms sample (--min-time's default) holds {}, one more or less moving it by "
        "{:.1f}%",
        gaps.typical_period_ns > 0 ? fmt::format("about {:.1f}", kSampleNs / gaps.typical_period_ns)
                                   : std::string("some"),
        100 * gaps.typical_gap_ns / kSampleNs);
    return {CheckLevel::warn, std::string(kCpuGapsTopic), finding,
            "on a VM, dedicated host cores for its vCPUs; on a host, a CPU kept free of other "
            "work (isolcpus, nohz_full) and --pin to it"};
}

namespace {

void add_noise_checks(const SystemInfo& system, std::vector<DoctorCheck>& out) {
    // arch_sys_counter: arm64's generic timer, read from user space like the TSC.
    if (system.clocksource == "tsc" || system.clocksource == "arch_sys_counter") {
        out.push_back({CheckLevel::ok, "clocksource",
                       fmt::format("{}: clock_gettime stays in user space", system.clocksource),
                       ""});
    } else {
        out.push_back(
            {CheckLevel::warn, "clocksource",
             fmt::format("{}: clock reads may be slow or enter the kernel", system.clocksource),
             "echo tsc | sudo tee "
             "/sys/devices/system/clocksource/clocksource0/current_clocksource"});
    }
    if (!system.governor) {
        out.push_back({CheckLevel::info, "CPU frequency",
                       "no cpufreq governor is exposed (typical in VMs: the host decides)", ""});
    } else if (*system.governor != "performance") {
        out.push_back(
            {CheckLevel::warn, "CPU frequency",
             fmt::format("governor is '{}': the clock speed varies with load", *system.governor),
             "sudo scripts/tune-system.sh -- CMD (performance governor for one command, restored "
             "after)"});
    } else {
        out.push_back({CheckLevel::ok, "CPU frequency", "governor is 'performance'", ""});
    }
    if (system.boost.value_or(false)) {
        out.push_back({CheckLevel::warn, "boost",
                       "turbo/boost is on: frequency depends on temperature and other cores", ""});
    }
    if (system.smt_active.value_or(false)) {
        out.push_back({CheckLevel::warn, "SMT",
                       "active: a sibling hyper-thread shares the core's caches and ports", ""});
    }
    if (system.aslr.value_or(0) != 0) {
        out.push_back({CheckLevel::info, "ASLR",
                       fmt::format("randomize_va_space={}: addresses (and alignment effects) vary "
                                   "between runs",
                                   *system.aslr),
                       ""});
    }
    if (system.cpu_gaps)
        out.push_back(cpu_gaps_check(*system.cpu_gaps));
    const double per_cpu =
        system.cpu.logical_cpus ? system.load_average[0] / system.cpu.logical_cpus : 0;
    if (per_cpu > 0.5) {
        out.push_back({CheckLevel::warn, std::string(kLoadTopic),
                       fmt::format("1-minute load average {:.2f} on {} CPUs: other work competes "
                                   "for the CPU",
                                   system.load_average[0], system.cpu.logical_cpus),
                       ""});
    }
}

}  // namespace

std::string check_label(CheckLevel level) {
    switch (level) {
        case CheckLevel::ok:
            return "[ OK ]";
        case CheckLevel::info:
            return "[INFO]";
        case CheckLevel::warn:
            return "[WARN]";
        case CheckLevel::fail:
            return "[FAIL]";
    }
    return "[????]";
}

std::string finding_headline(const std::string& finding, std::size_t width) {
    if (finding.size() <= width)
        return finding;
    std::size_t clause = finding.size();
    for (const char* boundary : {": ", "; ", " ("})
        clause = std::min(clause, finding.find(boundary));
    if (clause > 0 && clause <= width)
        return finding.substr(0, clause);
    // Still too long: whole words only, and "..." to say the rest is in the full report.
    constexpr std::string_view kMore = "...";
    if (width < kMore.size())
        return std::string(kMore.substr(0, width));
    const auto room = width - kMore.size();
    auto cut = finding.rfind(' ', room);
    if (cut == std::string::npos || cut == 0)
        cut = room;
    auto head = finding.substr(0, cut);
    while (!head.empty() && (head.back() == ',' || head.back() == ' '))
        head.pop_back();
    return head + std::string(kMore);
}

std::vector<DoctorCheck> build_doctor_report(const pmu::PmuEnvironment& env,
                                             const SystemInfo& system, const DoctorProbes& probes) {
    std::vector<DoctorCheck> out;
    out.push_back(hardware_pmu_check(env, probes));
    out.push_back(software_check(env, probes));
    out.push_back(paranoid_check(env.paranoid, env.privileged, probes.access));
    out.push_back(rdpmc_check(env));
    if (env.has_hardware_pmu() && env.nmi_watchdog.value_or(0) != 0) {
        out.push_back({CheckLevel::warn, "NMI watchdog",
                       "enabled: it permanently holds one hardware counter",
                       "sudo sysctl -w kernel.nmi_watchdog=0"});
    }
    if (probes.tracefs_mounted) {
        out.push_back({CheckLevel::ok, "tracefs",
                       env.privileged
                           ? "mounted: tracepoints (syscalls:sys_enter_write, ...) can be counted"
                           : "mounted; counting tracepoints needs root or CAP_PERFMON",
                       ""});
    } else {
        out.push_back({CheckLevel::info, "tracefs",
                       "not mounted: tracepoint events are unavailable",
                       "sudo mount -t tracefs nodev /sys/kernel/tracing"});
    }
    if (env.container) {
        out.push_back(
            {CheckLevel::info, "container",
             fmt::format("running in a container ({}): the host's settings apply", *env.container),
             ""});
    }
    add_cpu_checks(system, out);
    if (probes.libpfm)
        out.push_back(libpfm_check(*probes.libpfm, system.cpu));
    if (probes.simulation)
        out.push_back(simulation_check(*probes.simulation));
    std::vector<std::string> caches;
    for (const auto& c : system.caches) {
        caches.push_back(fmt::format("L{}{} {}", c.level,
                                     c.type == "Data"          ? "d"
                                     : c.type == "Instruction" ? "i"
                                                               : "",
                                     format_bytes(c.size_bytes)));
    }
    out.push_back(
        {CheckLevel::info, "caches",
         caches.empty() ? "not reported by sysfs" : fmt::format("{}", fmt::join(caches, ", ")),
         ""});
    add_noise_checks(system, out);
    return out;
}

}  // namespace perfgauge::harness
