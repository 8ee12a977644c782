// Level shifts in a series of runs (one benchmark, one metric, one machine class, in the order
// the runs were added): pure functions over plain data. The change points are those of the
// regression gate's replay (regression_gate.hpp): the series read run by run as a CI job reads
// it, each confirmed shift kept for good, so that `show`, `plot` and `check` mark the same
// runs. Deterministic series (simulated counts, every spread 0) change exactly where their
// value does.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "perfgauge/harness/history_records.hpp"

namespace perfgauge::harness {

/// Whether every run of `series` is deterministic (spread 0): exact detection applies.
bool deterministic_series(std::span<const RunPoint> series);

/// The change points of `series`, by index, as the gate's replay from its first run confirms
/// them, with the size of each between the segments on either side.
std::vector<ChangePoint> detect_change_points(std::span<const RunPoint> series,
                                              Worse worse = Worse::up);

}  // namespace perfgauge::harness
