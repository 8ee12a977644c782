// The data of perfgauge selftest's figures: how often a way of comparing called a difference
// (a Rate with its Wilson interval), the injected changes it found, the spread of medians of
// identical work, and the verdicts behind them. Plain data for the selftest library, which
// computes them (selftest_figures.hpp), and for the writers, which say them (selftest_report.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/compare.hpp"  // Verdict

namespace perfgauge::harness {

/// "+5%" for 5.
std::string change_label(double change_pct);

/// How many of `trials` comparisons said something, and the share.
struct Rate {
    std::size_t hits = 0, trials = 0;
    double share() const;  ///< NaN without trials
    /// The Wilson score interval of the share at 95%: what `trials` trials can tell apart
    /// ({NaN, NaN} without trials).
    double low() const;
    double high() const;
};

struct PowerPoint {
    double change_pct = 0;  ///< injected: contender does (1 + change_pct/100) x the work
    Rate detected;
};

/// How far medians of identical work moved apart: of each ratio r (one median over another),
/// |r - 1|, as a share; its median and 90th percentile over the ratios (NaN without any).
struct Spread {
    std::size_t count = 0;
    double median = 0, p90 = 0;
};

/// One way of comparing (in turn, or across separate runs): the verdict of every trial's A/A
/// comparison and of every injected change.
struct ComparisonTrials {
    std::vector<Verdict> aa;
    /// [level][trial], in the order of the plan's changes.
    std::vector<std::vector<Verdict>> changes;
    /// The methods compare used (method_name), as reported: what the figures are about.
    std::vector<std::string> methods;
};

/// Rates and resolution of one way of comparing.
struct ResolutionFigures {
    Rate false_positives;
    std::vector<PowerPoint> power;
    std::optional<double> smallest_change_pct;  ///< smallest_resolved_change at `power`
    /// Trials (A/A and every change) that ended "too few samples": a side kept fewer clean
    /// samples than compare needs, so the trial could neither find nor call anything. Where
    /// this is high, the machine is too busy for the rates above to be about precision.
    Rate too_few_samples;
};

/// Below this many trials, "found in 95% of its trials" means found in every one: one miss in
/// 19 is already 94.7%. A claim resting on fewer says how many trials it rests on.
inline constexpr std::size_t kTrialsForARate = 20;

}  // namespace perfgauge::harness
