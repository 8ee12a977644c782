// Facts about the machine that change what a measurement means, recorded with every result
// when it is measured (system_info.hpp collects them), so that nothing reads the machine while
// a result is rendered.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perfgauge::harness {

struct CpuInfo {
    std::string vendor;      ///< CPUID vendor string ("AuthenticAMD", "GenuineIntel")
    std::string model_name;  ///< /proc/cpuinfo "model name"
    unsigned family = 0;     ///< display family (base + extended)
    unsigned model = 0;      ///< display model (base + extended)
    unsigned stepping = 0;   ///< CPUID stepping (x86; 0 elsewhere)
    std::string microcode;   ///< /proc/cpuinfo "microcode" ("0x1000065"); empty: unknown
    bool bmi2 = false;
    bool avx2 = false;          ///< and the OS saves the YMM registers
    bool avx512_vbmi2 = false;  ///< AVX-512 F, BW, VBMI and VBMI2, and the OS saves ZMM state
    bool invariant_tsc = false;
    bool rdtscp = false;
    /// arm64: the generic timer's frequency (CNTFRQ_EL0) in Hz; its counter CNTVCT_EL0 is the
    /// region clock there. 0 elsewhere (x86: the TSC, invariant_tsc).
    std::uint64_t generic_timer_hz = 0;
    unsigned logical_cpus = 0;
    unsigned cores = 0;  ///< online physical cores (distinct thread sibling sets); 0: unknown
};

struct CacheLevel {
    int level = 0;
    std::string type;  ///< "Data", "Instruction", "Unified"
    std::uint64_t size_bytes = 0;
    unsigned line_size = 0;
    unsigned shared_by = 0;  ///< logical CPUs sharing this cache
    unsigned ways = 0;       ///< associativity (0: unknown)
};

/// What a thread that only read the clock for a while saw of the time it did not get: gaps in
/// which something else had the CPU (the host of a VM, interrupts, other tasks). Gaps are
/// invisible to the thread's own CPU time when the host takes the CPU from a VM.
struct CpuGaps {
    double window_ns = 0;          ///< how long it spun
    std::size_t count = 0;         ///< gaps of at least threshold_ns
    double threshold_ns = 0;       ///< the shortest gap counted
    double lost_share = 0;         ///< of the window, in gaps
    double typical_gap_ns = 0;     ///< median gap length
    double typical_period_ns = 0;  ///< median time from one gap's start to the next's; 0: < 2 gaps
};

/// The topic of doctor's check of CpuGaps, which starts the run's warning about them
/// ("interruptions: ...").
inline constexpr std::string_view kCpuGapsTopic = "interruptions";

/// The topic of doctor's check of the load average, which starts the run's warning about it
/// ("load: ...").
inline constexpr std::string_view kLoadTopic = "load";

struct SystemInfo {
    std::string host_name;
    CpuInfo cpu;
    std::vector<CacheLevel> caches;  ///< of CPU 0, in sysfs order
    std::string kernel;              ///< uname release
    std::optional<std::string> governor;
    std::optional<bool> boost;  ///< turbo/boost enabled
    std::optional<bool> smt_active;
    /// The hypervisor this runs under as CPUID names it ("KVMKVMKVM", "Microsoft Hv"), "none"
    /// on bare metal, empty when unknown (not x86 and no /sys/hypervisor/type).
    std::string hypervisor;
    /// The kernel's status of each CPU vulnerability it knows that affects this CPU
    /// (/sys/devices/system/cpu/vulnerabilities, "Not affected" ones left out), by name.
    std::vector<std::pair<std::string, std::string>> mitigations;
    std::string clocksource;
    std::optional<int> aslr;  ///< /proc/sys/kernel/randomize_va_space
    std::array<double, 3> load_average{};
    std::optional<int> perf_event_paranoid;  ///< /proc/sys/kernel/perf_event_paranoid
    bool hardware_pmu = false;               ///< the kernel exposes a hardware PMU
    std::optional<CpuGaps> cpu_gaps;         ///< unset: not measured
};

/// "32 KiB", "1 MiB", "32 MiB".
std::string format_bytes(std::uint64_t bytes);

}  // namespace perfgauge::harness
