// Stopping a group of benchmarks once the verdicts asked of it are decided: a contender's
// per-round time ratios against its baseline (the pairs perfgauge compare and the answer rest
// on) whose interval lies clear of the equivalence margin need no more samples, and neither
// does anything that only rides along with them (memcpy beside the decoders). A sequential
// rule: it looks at the pairs at a few planned counts only, each look at a confidence that
// leaves the rule's whole error rate (over every look) within `alpha`, by the union bound.
// Every function here is pure.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// The rule. Its looks fall at `first_look()` pairs and then each `growth` times as many
/// (rounded up), `looks` of them at most; each is taken at confidence 1 - alpha / looks, so
/// the chance that any look stops on an interval that misses the true median ratio is at most
/// `alpha` (Bonferroni; the sign-test interval's coverage is exact for independent pairs,
/// whatever their distribution).
struct StoppingRule {
    double margin = 0.01;  ///< compare's --min-change: ratios within ±margin are equivalent
    double alpha = 0.05;   ///< the rule's error rate over all its looks
    std::size_t looks = 8;
    double growth = 1.5;
    /// The confidence of one look.
    double look_confidence() const { return 1 - alpha / static_cast<double>(looks); }
    /// The fewest pairs whose widest sign-test interval, [min, max], reaches look_confidence().
    std::size_t first_look() const;
    /// The pair counts the rule looks at, in order.
    std::vector<std::size_t> look_points() const;
};

/// What one look says about a contender's pairs.
enum class PairedDecision {
    undecided,  ///< the interval straddles the margin
    beyond,     ///< wholly faster or wholly slower than the margin (compare: faster/slower)
    within,     ///< wholly within the margin (compare: equivalent)
};

/// The decision from `log_ratios` (log of contender / baseline time, one per round) at
/// `confidence`: the sign-test interval of their median against log(1 - margin) and
/// log(1 + margin), as perfgauge compare decides a paired time. Fewer than two pairs decide
/// nothing.
PairedDecision decide_pairs(std::span<const double> log_ratios, double margin, double confidence);

/// Whether the rule has stopped on `log_ratios` (in the order their rounds were taken): some
/// look point within their count at which the first that-many pairs decided.
bool decided_by_looks(std::span<const double> log_ratios, const StoppingRule& rule);

/// The log ratios of the samples of two benchmarks taken in the same round, in round order:
/// `rounds_*[k]` is the round of `ns_*[k]`. A round with a value that is not positive (a time
/// corrected below zero) has no ratio and is left out.
std::vector<double> paired_log_ratios(std::span<const std::size_t> rounds_baseline,
                                      std::span<const double> ns_baseline,
                                      std::span<const std::size_t> rounds_contender,
                                      std::span<const double> ns_contender);

/// Per benchmark of `results`, whether its sampling may stop for its verdicts: it belongs to a
/// group, and in every group it belongs to, each contender's clean samples paired by round with
/// the baseline's have stopped the rule (decided_by_looks).
std::vector<bool> settled_by_verdicts(const std::vector<VerdictGroup>& groups,
                                      const std::vector<BenchmarkResult>& results,
                                      const StoppingRule& rule);

}  // namespace perfgauge::harness
