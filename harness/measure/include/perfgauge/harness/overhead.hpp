// The one overhead calibrator: what measuring nothing costs (time and every counter), what a
// pause/resume pair inside a measurement costs, and the correction every sample gets. Used by
// the runner (empty batches), Session (empty regions) and the simulated backend (an empty
// batch under callgrind), so the three correct the same way.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace perfgauge::harness {

struct Overhead {
    double ns = 0;
    std::vector<double> counts;  ///< per event, in the counter set's order
};

/// Calls `measure_nothing` `samples` times; each call fills the time and the per-event counts
/// (sized `events`) of one empty measurement. Medians, not means: a calibration sample that was
/// preempted must not inflate every later correction.
Overhead calibrate_overhead(
    std::size_t samples, std::size_t events,
    const std::function<void(double& ns, std::vector<double>& counts)>& measure_nothing);

/// The cost of one pause/resume pair, from a measurement holding `pauses` of them and an empty
/// one (pure).
Overhead per_pause(const Overhead& with_pauses, const Overhead& empty, double pauses);

/// `raw` minus the fixed cost once and the pause cost `pauses` times (pure).
inline double corrected(double raw, double fixed, double per_pause, double pauses) {
    return raw - fixed - pauses * per_pause;
}

}  // namespace perfgauge::harness
