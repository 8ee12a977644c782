// When a benchmark's times drifted enough over a run to say so: the "drifting" flag the reports
// put on an entry, from drift_over_time (statistics.hpp) over the entry's time series. In the
// model, beside time_series_by_process (result.hpp), not in the statistics: it judges a
// BenchmarkResult, and the statistics know no model type (architecture_includes).
#pragma once

#include <optional>

#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

/// A drift worth a flag: beyond chance at kDriftP (a suite has dozens of entries, so a strict
/// level), by kDriftChange or more from the first third of the samples to the last, and that
/// change pointing the way the trend test found.
inline constexpr double kDriftP = 0.001;
inline constexpr double kDriftChange = 0.05;
bool drift_flagged(const Drift& drift);

/// A benchmark's times drifted over the run (drift_over_time within each measuring process,
/// drift_flagged). Nullopt otherwise.
std::optional<Drift> flagged_drift(const BenchmarkResult& b);

}  // namespace perfgauge::harness
