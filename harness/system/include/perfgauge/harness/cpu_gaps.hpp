// Gaps in a thread's time: spin on the clock for a while and note every jump between two
// consecutive reads. On the development VM the host takes the CPU for ~35 us every 1 ms; the
// guest's CPU time counts those gaps as the thread's own, so no sample holding one is ever set
// aside as disturbed, and a sample of a few milliseconds holds a varying number of them.
#pragma once

#include <chrono>
#include <span>

#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::harness {

/// One jump between consecutive clock reads.
struct Gap {
    double start_ns = 0;   ///< from the start of the window
    double length_ns = 0;  ///< from the read before it to the read after it
};

/// Counts, lost share, median length and median period of `gaps` seen in `window_ns` of
/// spinning (pure). Gaps shorter than `threshold_ns` are not counted.
CpuGaps summarize_gaps(std::span<const Gap> gaps, double window_ns, double threshold_ns);

/// Spins on steady_clock for `window` on the calling thread (it uses a whole CPU meanwhile),
/// noting gaps of at least `threshold`.
CpuGaps measure_cpu_gaps(std::chrono::nanoseconds window = std::chrono::milliseconds(50),
                         std::chrono::nanoseconds threshold = std::chrono::microseconds(5));

/// Records `gaps` in `result` (system.cpu_gaps) with doctor's warning about them where it warns:
/// for a result whose measuring processes did not spin themselves (a parent's).
void record_cpu_gaps(RunResult& result, const CpuGaps& gaps);

}  // namespace perfgauge::harness
