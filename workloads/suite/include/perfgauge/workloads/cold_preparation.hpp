// How "cold" data is made cold. Normally by rotation: windows covering 2x the last-level cache,
// each evicted by the others before its turn comes again. That needs the last-level size; when
// neither sysfs nor perfgauge's own latency staircase gives a believable one, the data is
// flushed from every cache level before each iteration instead (clflushopt or clflush on x86,
// dc civac on arm64, a sweep over an eviction buffer as the last resort), with the timer
// paused. The benchmark's name stays ".../cold/..." either way (a measuring child, the
// simulation and compare match benchmarks by name); the method is recorded in the result's
// workload_context as cold_method and said once under the table and the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfgauge::workloads {

enum class ColdMethod { rotation, clflushopt, clflush, dc_civac, eviction_buffer };

/// "rotation", "clflushopt", "clflush", "dc civac", "eviction buffer" (cold_method in results).
std::string_view cold_method_name(ColdMethod method);

/// The cache-line flushes this CPU and build can run in user space.
struct FlushInstructions {
    bool clflushopt = false;  ///< x86 CPUID.(EAX=7):EBX bit 23
    bool clflush = false;     ///< x86 CPUID.1:EDX bit 19 (every x86-64 CPU)
    bool dc_civac = false;    ///< arm64 (Linux lets user space clean and invalidate by VA)
};

/// What this machine offers (CPUID on x86, the architecture on arm64; none elsewhere).
FlushInstructions flush_instructions_here();

/// What cold means in a run, and why.
struct ColdPreparation {
    ColdMethod method = ColdMethod::rotation;
    /// With eviction_buffer: the bytes swept before each iteration.
    std::uint64_t eviction_bytes = 0;
    /// Why not rotation ("" for rotation): the last-level size was not usable, and how.
    std::string why;
};

/// The last-level cache as the run found it, and what it is held against.
struct LastLevelEvidence {
    std::uint64_t bytes = 0;  ///< 0: not found (sysfs none, staircase without a step)
    bool given = false;       ///< --l3: the user's size stands, whatever it is
    std::uint64_t l2 = 0;     ///< the machine's L2 (sysfs, CPUID); 0: unknown
    /// Any last level larger than this is no CPU's (a hypervisor's CPUID figure).
    std::uint64_t largest_plausible = 0;
};

/// Rotation when the last level is given, or found and believable: above the L2 (a last level
/// no larger than the L2 below it contradicts the machine) and at most `largest_plausible`.
/// Otherwise the best flush the machine offers: clflushopt, clflush, dc civac, and an eviction
/// buffer (2x the largest plausible last level) where none runs. Pure: tested without a CPU.
ColdPreparation choose_cold_preparation(const LastLevelEvidence& last_level,
                                        const FlushInstructions& flush);

/// Evicts [p, p + bytes) from every cache level by `method` (not rotation, which places data
/// instead), then fences, so that the eviction is complete on return. `eviction` is the buffer
/// eviction_buffer sweeps (read and written line by line); unused by the other methods.
void evict(ColdMethod method, const std::uint8_t* p, std::size_t bytes,
           std::vector<std::uint8_t>* eviction);

}  // namespace perfgauge::workloads
