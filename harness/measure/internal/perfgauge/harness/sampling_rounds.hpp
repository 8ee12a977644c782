// What the runner's interleaved rounds decide and add up, as plain data (Runner::run's steps):
// whether a benchmark gets another sample, the room its samples are reserved, the share of its
// time the subtracted pause/resume pairs took, and the warnings those shares and the disturbed
// samples call for. Every function here is pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/sample_health.hpp"

namespace perfgauge::harness {

/// When a benchmark's sampling stops, as the run's options set it.
struct SamplingPlan {
    std::size_t repetitions = 0;    ///< clean samples wanted
    std::size_t retake_rounds = 0;  ///< rounds in which a benchmark short of them gets one
    std::size_t room = 0;           ///< the most samples, clean and disturbed, it may take
    double precision = 0;           ///< the target of median_precision (0: a fixed count)
    double budget_ns = 0;           ///< the wall time its sampled batches may take in all
};

/// Whether a benchmark gets a sample in `round`: within its room, short of clean samples (in the
/// retake rounds), or short of the precision target (within its time budget; a benchmark still
/// short of clean samples is short of it too) while the verdicts it takes part in are not yet
/// decided (`settled`: settled_by_verdicts; one short of clean samples is not settled by them).
/// `clean_ns_per_item`: its clean samples;
/// `disturbed`: how many were set aside; `spent_ns`: the wall time its samples took.
bool wants_sample(const SamplingPlan& plan, std::size_t round,
                  const std::vector<double>& clean_ns_per_item, std::size_t disturbed,
                  double spent_ns, bool settled = false);

/// Reserves `room` samples of every series of `r` (no allocation while measuring), with
/// `events` counter series, each event's running fraction 1 until a sample lowers it, and the
/// snapshot pairs' times only for a benchmark whose pauses are `timed_apart`.
void reserve_samples(BenchmarkResult& r, std::size_t room, std::size_t events, bool timed_apart);

/// What one benchmark's samples added up to over the rounds.
struct SamplingTally {
    bool timed_apart = false;              ///< its pausing batches timed apart from the counted
    std::uint64_t counted_iterations = 0;  ///< of its counted batch (0: not yet sized)
    double spent_ns = 0;                   ///< wall time of its sampled batches, all of them
    double pause_share = 0;            ///< the most of a sample's time its subtracted pairs took
    double spread_share = 0;           ///< ... and how far that may be off (a pair's spread)
    DisturbanceCounts disturbances{};  ///< its samples, by why they were set aside (or none)
};

/// Adds a sample of `timed_ns` with `pauses` pairs, `pair_ns` subtracted for each and
/// `spread_ns` their spread, to the shares in `tally` (a sample of no time adds nothing).
void note_pause_shares(SamplingTally& tally, double timed_ns, double pauses, double pair_ns,
                       double spread_ns);

/// Above this share of the measured time, the subtracted pause cost dominates the result.
inline constexpr double kPauseCorrectionWarnShare = 0.5;

/// The warnings for benchmark `name` whose pairs took the shares in `tally`: the subtracted
/// cost dominating its time, or else its spread (`pause_spread_ns` per pair) beyond
/// `spread_bound`; then the pairs' cost drifting with the machine (pause_drift_warning), when
/// the run measured a `drift`.
std::vector<std::string> pause_correction_warnings(const std::string& name,
                                                   const SamplingTally& tally,
                                                   double pause_spread_ns, double spread_bound,
                                                   std::optional<double> drift);

/// The warning for the samples around which the hypervisor stole time, if there was any.
std::optional<std::string> steal_warning(const std::vector<BenchmarkResult>& benchmarks);

}  // namespace perfgauge::harness
