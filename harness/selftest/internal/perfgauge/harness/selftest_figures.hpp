// The arithmetic of perfgauge selftest, over results already measured: which comparisons called
// a difference, how often, the smallest injected change found with the power asked for, the
// spread of medians of identical work, and the one-line verdict. Pure: the trials are
// RunResults, real (selftest.hpp) or synthetic (the tests), compared with the library's own
// compare_within (in turn: paired rounds) and compare_results (across separate runs).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/trial_rates.hpp"  // Rate, Spread, ResolutionFigures...: the data

namespace perfgauge::harness {

/// The param of a selftest benchmark that says which work it does: kBaseWork, kSameWork (the
/// identical work again, for A/A) or change_label(p) (p% more dependent operations).
inline constexpr const char* kWorkParam = "work";
inline constexpr const char* kBaseWork = "base";
inline constexpr const char* kSameWork = "same";

/// Identical work called faster or slower: a false positive.
bool called_different(Verdict v);

/// The share of A/A verdicts that called a difference.
Rate false_positive_rate(std::span<const Verdict> aa_verdicts);
/// The share of verdicts that found the injected change: the contender did more work, so only
/// "slower" (Verdict::higher) counts; "faster" is a wrong answer, not a detection.
Rate detection_rate(std::span<const Verdict> verdicts);

/// The smallest injected change detected in at least `power` of its trials, where every larger
/// change tried was too (a noisy miss at 20% makes a hit at 10% luck, not resolution); nullopt:
/// none, or no trials. `points` in any order.
std::optional<double> smallest_resolved_change(std::span<const PowerPoint> points,
                                               double power = 0.95);

Spread relative_spread(std::span<const double> ratios);

/// One trial across processes: `comparison` holds a benchmark per work, named names[0] for the
/// A/A and names[1 + level] for each change; each one's time verdict is appended to `trials`
/// and its method noted. A work the comparison does not hold adds nothing (it was not
/// compared: its rounds never ran).
void add_trial(ComparisonTrials& trials, const Comparison& comparison,
               std::span<const std::string> names);

/// What the trials' result files tell, before any rate is taken.
struct TrialEvidence {
    /// across: with the between-run floor of the other trials' runs (compare --floor);
    /// across_without_floor: the same trials as a bare `compare A.json B.json` compares them.
    ComparisonTrials in_turn, across, across_without_floor;
    /// The floor each trial across runs was compared with (0: too few other trials for one).
    std::vector<double> across_floors;
    /// base/same medians within one run, and base/base medians of two separate runs.
    std::vector<double> within_run_ratios, between_run_ratios;
    std::size_t samples = 0, disturbed = 0;  ///< clean and disturbed samples of every run
};

/// The fewest other trials whose base medians make a between-run floor for a trial across runs:
/// fewer leave it compared without one.
inline constexpr std::size_t kMinFloorTrials = 5;

/// The between-run floor for trial `left_out` across runs: the median of |r - 1| over the other
/// trials' ratios of base medians (`ratios`, one per trial, NaN where a side kept no sample) -
/// never the trial's own, which would know its own noise. 0 with fewer than kMinFloorTrials.
double floor_without(std::span<const double> ratios, std::size_t left_out);

/// Compares the trials' runs as users get them compared: within each run, base against same
/// and against each change (compare_within, paired by round: `run --against`'s and side by
/// side's kind of pairing); across runs 2t and 2t+1, run 2t's base against run 2t+1's same and
/// each change (compare_results: independent samples, batch means, machine drift: what
/// `compare A.json B.json` does; and again with the floor_without of the trial: what `compare
/// --floor` does). A benchmark with too few clean samples still makes a trial,
/// as its user would get it: "too few samples", which finds nothing and calls nothing.
/// `changes`: the injected change of each level, in percent.
TrialEvidence compare_trials(std::span<const RunResult> runs, std::span<const double> changes,
                             const CompareOptions& options = {});

/// Rates and resolution of one way of comparing (ResolutionFigures, trial_rates.hpp).
ResolutionFigures resolution(const ComparisonTrials& trials, std::span<const double> changes,
                             double power = 0.95);

/// One way of measuring in the verdict: the smallest change it resolved (nullopt: none of those
/// tried) and how it measures ("measured in turn"); `measured` false when it made no trial at
/// all, and then `way` names it ("in turn").
struct VerdictPart {
    std::optional<double> pct;
    std::string how;
    bool measured = true;
    std::string way;
    std::size_t trials = 0;  ///< its trials; below kTrialsForARate the claim says how many
};

/// "this machine resolves 3% changes measured in turn, 15% changes across separate runs"; a way
/// that resolved none of the tried changes: "no change up to 50% ..." (`largest_pct`); ways that
/// made no trial are never said to resolve anything: "; not measured: stat side by side", or
/// "nothing was measured: in turn, across separate runs" when none did. When more than
/// kBusyShare of the trials kept too few clean samples (`too_few_share`), it says so: the
/// machine was too busy for the figures to be about precision.
inline constexpr double kBusyShare = 0.1;
std::string verdict_line(std::span<const VerdictPart> parts, double largest_pct,
                         double too_few_share = 0);

}  // namespace perfgauge::harness
