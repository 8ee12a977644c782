// How precisely a set of samples knows its median time: the runner's stopping rule (sample
// until the precision target is reached) and the reports' "imprecise" flag both hold a run
// against it. Defined with the statistics it rests on (statistics.cpp).
#pragma once

#include <cstddef>
#include <vector>

namespace perfgauge::harness {

/// The fewest samples whose order statistics bound the median at 95% (median_precision).
inline constexpr std::size_t kFewestForPrecision = 6;

/// The half-width of the distribution-free 95% interval of the median time, as a share of the
/// median: what RunResult::precision_target is held against. That half-width for `ns_per_item`;
/// infinite with 1 to 5 samples (no interval of order statistics reaches 95%: the median is not
/// known to any precision), NaN without samples. JSON writes null, CSV an empty cell for both.
double median_precision(const std::vector<double>& ns_per_item);

}  // namespace perfgauge::harness
