// Robust statistics over samples, and comparison of two sample sets (pure functions).
//
// Timing data is right-skewed and rarely has a central tendency worth a mean: summaries lead
// with order statistics, spread is robust (IQR, MAD), and comparisons are non-parametric.
#pragma once

#include <cstddef>
#include <span>

namespace perfgauge::harness {

/// The q-quantile (0 <= q <= 1) with linear interpolation between order statistics (the
/// "type 7" definition used by numpy and R's default). Empty input gives NaN.
double quantile(std::span<const double> samples, double q);
double median(std::span<const double> samples);
/// Median absolute deviation from the median (unscaled).
double median_absolute_deviation(std::span<const double> samples);

struct Summary {
    std::size_t count = 0;
    double min = 0, p25 = 0, median = 0, p75 = 0, p90 = 0, p999 = 0, max = 0;
    double iqr = 0;  ///< p75 - p25
    double mad = 0;  ///< median absolute deviation
    double mean = 0;
    double stddev = 0;  ///< sample standard deviation (n - 1)
    double cv = 0;      ///< stddev / mean
    /// IQR / median: the robust relative spread that decides `unstable`.
    double relative_spread = 0;
    bool unstable = false;
};

/// Default threshold on IQR/median above which a result is flagged unstable.
inline constexpr double kUnstableRelativeSpread = 0.05;

/// Summarises `samples` (any order). Empty input gives count 0 and NaNs.
Summary summarize(std::span<const double> samples,
                  double unstable_threshold = kUnstableRelativeSpread);

struct MannWhitneyResult {
    double u = 0;        ///< U statistic of the first sample (scipy's convention)
    double p_value = 1;  ///< two-sided
    bool exact = false;  ///< exact distribution (small samples, no ties) vs normal approximation
};

/// Two-sided Mann-Whitney U test. Exact when there are no ties and n1*n2 <= 2500; otherwise
/// the normal approximation with tie correction and continuity correction (as scipy's
/// method="asymptotic"). Needs at least one sample on each side (p = 1 otherwise).
MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b);

/// Hodges-Lehmann estimate of the shift from `a` to `b`: the median of all b[j] - a[i].
double hodges_lehmann_shift(std::span<const double> a, std::span<const double> b);

}  // namespace perfgauge::harness
