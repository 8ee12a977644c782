// The report's segments (history report's query fills ReportSeries::segments with them): pure
// arithmetic over a series' points and its change points.
#pragma once

#include <span>
#include <vector>

#include "perfgauge/harness/history_records.hpp"
#include "perfgauge/harness/report_model.hpp"

namespace perfgauge::harness {

/// The segments that `changes` (by index, in order) cut a series of `count` runs into, each
/// at the level of its runs: the geometric mean of their medians when all are positive (as the
/// gate judges), else the arithmetic mean. Empty for an empty series.
std::vector<ReportSegment> segment_levels(std::span<const RunPoint> series,
                                          std::span<const ChangePoint> changes);

}  // namespace perfgauge::harness
