// Finding the last-level cache's size by measuring it, for machines whose sysfs reports no
// cache sizes or an implausible one (a hypervisor's CPUID said 508 MiB of L3 on one guest): a
// pointer-chasing latency staircase over growing buffers. The decision from the staircase is
// pure arithmetic (last_level_from_staircase); measuring it and caching the answer per machine
// are apart.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace perfgauge::harness {

/// The mean latency of one dependent load when chasing pointers at random over `bytes`.
struct LatencyStep {
    std::uint64_t bytes = 0;
    double ns_per_load = 0;
};

/// A last-level cache larger than this per instance is not believed (no CPU has one; a
/// hypervisor's CPUID may say so): it is measured instead.
inline constexpr std::uint64_t kLargestPlausibleLastLevel = std::uint64_t{256} << 20;

/// An upper bound of the last-level cache size a staircase shows, steps in growing size: the
/// largest buffer whose latency is still below 90% of the memory latency (the latency at the
/// largest buffer). Upper, because cold data must outgrow the cache: beside other work (here,
/// four builds on two CPUs) the shared cache holds less than its size and the staircase rises
/// early, which a midpoint would have read as a cache of 2 MiB where sysfs says 32. Nullopt when
/// the staircase does not show memory: fewer than four steps, sizes not growing, its last two steps
/// not within 25% of each other (no plateau reached), or memory not at least twice as slow as the
/// smallest buffer.
std::optional<std::uint64_t> last_level_from_staircase(std::span<const LatencyStep> steps);

/// Measures the staircase: buffers from `smallest` doubling to `largest` bytes, each a random
/// cyclic chain of cache lines, `loads` dependent loads timed after one warm pass.
std::vector<LatencyStep> measure_latency_staircase(std::uint64_t smallest, std::uint64_t largest,
                                                   std::uint64_t loads);

/// How the last-level cache size was found.
struct LastLevelCache {
    std::uint64_t bytes = 0;  ///< 0: not found
    std::string how;          ///< "sysfs", "measured (...)", "cached measurement (...)", ...
};

/// The last-level cache for labelling cold data: sysfs's size when it reports a plausible one;
/// otherwise the staircase, measured once per machine and kept under
/// $XDG_CACHE_HOME/perfgauge (else ~/.cache/perfgauge), keyed by the CPU model and the sizes
/// sysfs and CPUID report; a staircase that showed no step is kept too (as 0), so that every
/// measuring process of a run, and later runs, prepare cold data alike (delete the file to
/// measure again). `reported` is sysfs's size (0: none), `cpu_model` names the machine.
/// Without `may_measure` (under valgrind, where timing means nothing) only the kept answer is
/// read: none kept gives 0.
LastLevelCache find_last_level_cache(std::uint64_t reported, const std::string& cpu_model,
                                     bool may_measure = true);

}  // namespace perfgauge::harness
