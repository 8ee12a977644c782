// The one overhead calibrator: what measuring nothing costs (time and every counter), what a
// pause/resume pair inside a measurement costs, and the correction every sample gets. Used by
// the runner (empty batches), Session (empty regions) and the simulated backend (an empty
// batch under callgrind), so the three correct the same way.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfgauge/harness/calibration_result.hpp"  // kProbeDriftNoise

namespace perfgauge::harness {

struct Overhead {
    double ns = 0;
    std::vector<double> counts;  ///< per event, in the counter set's order
};

/// The mean of `samples` in a form that survives both a quantised clock and preemption: the
/// median of the means of consecutive groups (about 32 samples each, at least 5 groups while
/// there are that many samples; fewer samples are their own groups, i.e. the plain median).
/// A median of readings that each come in whole clock steps (10 ns on a VM) is itself a whole
/// step, off by up to half of one; a group's mean is not quantised (a fixed interval read at
/// random phases averages to its true length), and the median over groups ignores the few a
/// preempted sample inflated. Empty input gives 0.
double quantum_robust_mean(std::span<const double> samples);

/// Calls `measure_nothing` `samples` times; each call fills the time and the per-event counts
/// (sized `events`) of one empty measurement, then estimates each with quantum_robust_mean():
/// neither a whole clock step (a median) nor inflated by a preempted sample (a mean).
Overhead calibrate_overhead(
    std::size_t samples, std::size_t events,
    const std::function<void(double& ns, std::vector<double>& counts)>& measure_nothing);

/// The cost of one pause/resume pair, from a measurement holding `pauses` more of them than
/// `base` (an empty one, or one with a few pairs, so that entering and leaving the loop of
/// pairs cancels out) (pure).
Overhead per_pause(const Overhead& with_pauses, const Overhead& base, double pauses);

/// One pair's cost measured between several kinds of work (one Overhead each): per figure, the
/// median over the kinds, which one odd kind moves little (pure). Empty input gives an empty
/// Overhead.
Overhead median_over_kinds(std::span<const Overhead> by_kind);
/// How far the furthest kind's time is from `middle_ns`: what a corrected time may be off per
/// pair, depending on which work is around it (pure; 0 for no kinds).
double furthest_kind_ns(std::span<const Overhead> by_kind, double middle_ns);
/// How far a pair beside work that is none of these kinds may be from `middle_ns` (a
/// benchmark's own loop is one more kind of work): the half-width of the 95% prediction
/// interval of one more kind, from the kinds' mean and standard deviation (Student's t with
/// n - 1 degrees of freedom: t * sd * sqrt(1 + 1/n)), plus how far `middle_ns` is from their
/// mean; never less than furthest_kind_ns(). Fewer than two kinds give furthest_kind_ns()
/// (no dispersion to predict from) (pure).
double unseen_kind_ns(std::span<const Overhead> by_kind, double middle_ns);
/// The coverage of unseen_kind_ns(): as the medians' intervals elsewhere.
inline constexpr double kUnseenKindCoverage = 0.95;

/// The pair's cost is calibrated once, before any sample: a machine running slower or faster
/// later (a host's other guests, its frequency) may make the pairs cost more or less than what
/// is subtracted. `drift` is how much slower perfgauge's machine probe ran over a run's samples
/// than during the calibration (0.3: 30% slower), `pause_share` the share of a benchmark's
/// measured time its subtracted pairs took. When the pairs moving with the probe would move its
/// corrected time by more than `bound` (a share of the corrected time), a warning naming `name`
/// and which way; none otherwise, nor for drifts within the probe's own noise (pure).
std::optional<std::string> pause_drift_warning(const std::string& name, double drift,
                                               double pause_share, double bound);
/// Beyond the probe's own noise: kProbeDriftNoise (calibration_result.hpp).

/// `raw` minus the fixed cost once and the pause cost `pauses` times (pure).
inline double corrected(double raw, double fixed, double per_pause, double pauses) {
    return raw - fixed - pauses * per_pause;
}

}  // namespace perfgauge::harness
