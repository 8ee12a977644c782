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
#include "perfgauge/harness/history_records.hpp"

namespace perfgauge::harness {

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

/// The segmentation of a series from `first` on: its confirmed change points, in order.
std::vector<GateStep> replay_steps(std::span<const RunPoint> series, std::size_t first,
                                   const GateOptions& options);

/// The series judged from `baseline_first` (the accepted baseline or --since) on.
GateVerdict judge_series(std::span<const RunPoint> series, std::size_t baseline_first,
                         const GateOptions& options);

}  // namespace perfgauge::harness
