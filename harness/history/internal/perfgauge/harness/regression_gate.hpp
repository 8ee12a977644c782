// The regression gate over one series of runs (one benchmark's metric on one machine class, in
// the order the runs were added): pure functions over plain data.
//
// A series is read the way a CI job meets it, one run at a time. At every run the tail of the
// current segment is tested against the runs before it (a split-point t test: the difference
// of the two sides' means over the noise of the runs *before* the split, never of the suspect
// runs after it), and a split that passes with at least `min_after` runs after it becomes a
// change point for good: later runs never undo it, only a change back does. This replay makes
// the alarm persist while the regression stands, and makes `show`, `plot` and `check` draw the
// same change points. Positive series are judged on the log scale (relative changes, and
// intervals that never fall below -100%); a deterministic series (every run's spread 0, e.g.
// simulated counts) changes exactly where its value does.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "perfgauge/harness/change_points.hpp"

namespace perfgauge::harness {

/// The per-check level of a series judged alone (GateOptions::alpha), and the share of A/A
/// series of 20 runs, checked after every run, that ever alarm at that level (measured on
/// 3,000 seeded synthetic series: test/harness/history/regression_gate_test.cpp).
inline constexpr double kDefaultGateAlpha = 0.002;
inline constexpr double kGateLifetimeFalseAlarms = 0.016;

struct GateOptions {
    /// Significance of each split's two-sided t test at each run: the per-check level. The
    /// default holds a series of 20 runs, checked after every one, to about 1% false alarms
    /// (seeded synthetic series, test/harness/history/regression_gate_test.cpp).
    double alpha = kDefaultGateAlpha;
    std::size_t min_baseline = 5;  ///< runs before a split, at least
    std::size_t min_after = 3;     ///< runs after a split that confirm it (1 for exact series)
    std::size_t max_after = 6;     ///< the longest tail a run's check tests
    double min_change = 0;         ///< relative: a smaller standing change is no regression
    Worse worse = Worse::up;
};

/// The per-check level that holds one series' false alarms to `lifetime` over 20 runs checked
/// after every add: kDefaultGateAlpha scaled down (at these levels the lifetime rate is close
/// to proportional to the per-check one), never up.
double gate_alpha_for(double lifetime);

/// Each series' lifetime false-alarm rate when `series` of them share `expected_false_alarms`
/// (Bonferroni: they are judged independently, so the bound is close), at most the default's.
double gate_false_alarms_per_series(double expected_false_alarms, std::size_t series);
/// The whole check's expected false alarms at that rate: `series` times it.
double gate_false_alarms_across(double expected_false_alarms, std::size_t series);
/// The per-check level of each of `series` sharing `expected_false_alarms`.
double gate_alpha_across(double expected_false_alarms, std::size_t series);

/// One confirmed change point of the replay.
struct GateStep {
    std::size_t index = 0;      ///< first run after the change
    std::size_t confirmed = 0;  ///< the run at which the replay confirmed it
    double statistic = 0;       ///< |t| when confirmed
    double p_value = 0;         ///< of that t (0: exact)
};

/// The segmentation of a series from `first` on: its confirmed change points, in order.
std::vector<GateStep> replay_steps(std::span<const RunPoint> series, std::size_t first,
                                   const GateOptions& options);

struct GateVerdict {
    enum class Kind {
        too_short,     ///< fewer runs since the baseline than a judgment needs
        unchanged,     ///< the current level is the baseline's
        regression,    ///< a change point stands after the baseline, worse by min_change or more
        improvement,   ///< the same, better
        pending,       ///< the newest run alone is beyond the band: not yet a change point
        inconclusive,  ///< unchanged as far as the series tells, but the newest run's own
                       ///< interval is wider than what the series resolves
    };
    Kind kind = Kind::too_short;
    std::size_t baseline_first = 0, baseline_runs = 0;  ///< the baseline segment
    std::size_t current_first = 0;     ///< first run of the current level (the regression's start)
    double baseline = 0, current = 0;  ///< the two levels (means; geometric when positive)
    double size = 0, size_low = 0, size_high = 0;  ///< current / baseline - 1, 95% interval
    double newest_size = 0;       ///< the newest run against the current level's runs before it
    double band = 0;              ///< relative: the newest run beyond this is pending
    double detectable = 0;        ///< relative shift found within 3 runs with 90% probability
    double newest_spread = 0;     ///< relative half-width of the newest run's own interval
    bool exact = false;           ///< deterministic series
    std::vector<GateStep> steps;  ///< confirmed change points since the baseline
};

/// The series judged from `baseline_first` (the accepted baseline or --since) on.
GateVerdict judge_series(std::span<const RunPoint> series, std::size_t baseline_first,
                         const GateOptions& options);

}  // namespace perfgauge::harness
