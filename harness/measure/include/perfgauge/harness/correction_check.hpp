// Does the product's overhead correction hold? Seed 000's experiment (Ou 2020, Go issue 41641)
// run through the Runner itself, so that it checks the correction `perfgauge run` applies and
// not a copy of it: k dependent atomic adds per iteration, once in a loop that never pauses (the
// reference: what an iteration really costs) and once with a pause()/resume() pair in every
// iteration, raw and corrected by the Runner's calibrated batch and pause costs. The corrected
// time must match the reference: |error| <= 1 ns at k = 1 and <= 2% from k = 100 on, or within
// the spread the run reports for the subtracted pair where that is wider.
// With counters read by a system call the Runner times a pausing benchmark apart from its
// counts (runner.hpp): the sweep then checks that time, and says what the snapshots would have
// added to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/calibration_result.hpp"  // CorrectionRow, CorrectionCheck: the model

namespace perfgauge::harness {

/// The median over the rounds both sides have a clean sample in of `paused - reference`
/// (values[i] was taken in rounds[i]); NaN when they share no round (pure).
double paired_difference_ns(const std::vector<std::size_t>& reference_rounds,
                            const std::vector<double>& reference,
                            const std::vector<std::size_t>& paused_rounds,
                            const std::vector<double>& paused, std::size_t* pairs = nullptr);

struct CorrectionCheckOptions {
    std::vector<std::uint64_t> ks = {1, 10, 100, 1000, 10000, 100000};
    std::size_t repetitions = 21;  ///< clean samples per benchmark at least, paired by round
    /// Then more rounds until each median is known within this share (the runner's precision-
    /// driven sampling), or `max_time_s` of sampling per benchmark: a 2% target needs medians
    /// known well within it, and one iteration of k = 100000 is a whole batch.
    double precision = 0.005;
    double max_time_s = 0.1;
    /// Per batch. Shorter than perfgauge run's 2 ms: a batch that pauses every iteration lasts
    /// up to 20x this in wall time (with counters, a read() at each pause and resume: 3.5 us an
    /// iteration here), and a batch of 4 ms on a busy machine was switched out nearly every time
    /// (disturbed, re-taken). 50 us is still 1000x the batch's own measurement (28 ns here).
    double min_sample_time_s = 0.00005;
    /// Per batch from `long_from_k` on, where an iteration alone lasts the batch (50 us and
    /// more). The host of the development VM takes the CPU for ~35 us every 1 ms, unseen by the
    /// thread's CPU time: a 0.6 ms batch of k = 100000 held one such gap or none (a 6% step), so
    /// the median of either side was one mode or the other and the row's error came out +-6%
    /// in 5 of 20 checks (10 runs). Batches of 5 ms hold about five, one more or less moving
    /// them 0.7%: within +-0.6% in 20 of 20.
    double long_sample_time_s = 0.005;
    std::uint64_t long_from_k = 10000;
    double warmup_time_s = 0.02;
    /// Called as each row (an index into `ks`) starts: calibrate's progress line.
    std::function<void(std::size_t)> on_row;
};

/// Runs the sweep with a Runner counting `events` ("": none) on the calling thread.
CorrectionCheck check_correction(const std::string& events, const CorrectionCheckOptions& options);

}  // namespace perfgauge::harness
