// Robust summary statistics over samples (pure functions).
#pragma once

#include <span>

namespace perfgauge::harness {

/// The q-quantile (0 <= q <= 1) with linear interpolation between order statistics (the
/// "type 7" definition used by numpy and R's default). Empty input gives NaN.
double quantile(std::span<const double> samples, double q);
double median(std::span<const double> samples);
/// Median absolute deviation from the median (unscaled).
double median_absolute_deviation(std::span<const double> samples);

}  // namespace perfgauge::harness
