// Robust statistics over samples, and comparison of two sample sets (pure functions).
//
// Timing data is right-skewed and rarely has a central tendency worth a mean: summaries lead
// with order statistics, spread is robust (IQR, MAD), and comparisons of samples are
// non-parametric; only blocks' medians and the differences of paired runs' medians, nearly
// normal, get Student's t (batch means, paired runs).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

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
    /// Above the threshold, or not known (no sample, a zero median with a spread).
    bool unstable = false;
};

/// Default threshold on IQR/median above which a result is flagged unstable.
inline constexpr double kUnstableRelativeSpread = 0.05;

/// Summarises `samples` (any order). Empty input gives count 0, NaNs and `unstable`.
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

/// A confidence interval from order statistics. Their coverage comes in discrete steps, so the
/// achieved level is reported; with too few samples for the level asked, it is lower.
struct Interval {
    double low = 0, high = 0;
    double confidence = 0;  ///< achieved coverage (0 when there are no samples)
};

/// Distribution-free interval for the median: the order statistics whose Binomial(n, 1/2)
/// tails leave at most (1 - confidence) / 2 on each side; [min, max] when n is too small.
Interval median_interval(std::span<const double> samples, double confidence = 0.95);

/// Distribution-free interval for the shift b - a (Hodges-Lehmann / Moses): order statistics of
/// the n*m pairwise differences at the Mann-Whitney critical values (exact null distribution
/// for n*m <= 400, the normal approximation above).
Interval shift_interval(std::span<const double> a, std::span<const double> b,
                        double confidence = 0.95);

/// The standard normal quantile (inverse CDF) of p, 0 < p < 1.
double normal_quantile(double p);

/// Student's t quantile (inverse CDF) of p, 0 < p < 1, with `df` > 0 degrees of freedom.
double student_t_quantile(double p, double df);

/// Batch means of a series measured over time. A run's samples are not independent draws:
/// neighbours share the machine's state (a phase of the host, a process's code placement), so
/// intervals that treat them as independent are too narrow for the next run. The samples are
/// cut into blocks of consecutive samples (`block[i]` names the block of `values[i]`); the
/// blocks' medians are nearly independent. Empty with fewer than two blocks, or when a value is
/// not finite.
struct BlockMeans {
    std::size_t blocks = 0;
    double mean = 0;              ///< of the block medians
    double variance_of_mean = 0;  ///< their sample variance / blocks
    double spread = 0;            ///< their standard deviation: how far one part strays
};
std::optional<BlockMeans> block_means(std::span<const double> values,
                                      std::span<const std::size_t> block);

/// Welch's t interval for the shift b - a between the means of two sides' block medians.
Interval block_shift_interval(const BlockMeans& a, const BlockMeans& b, double confidence = 0.95);

/// Student's t interval for the mean of `values`: mean +- t(n-1) * sd / sqrt(n). Meant for a few
/// nearly independent differences (one per pair of runs); [mean, mean] when they are all equal,
/// NaN at both ends with fewer than two values or a value that is not finite.
Interval mean_interval(std::span<const double> values, double confidence = 0.95);

/// Values paired index by index: a[i] with b[i] (the samples of one interleaved round, the
/// medians of two runs taken in turn).
struct PairedValues {
    std::vector<double> a, b;
};

/// Runs taken in turn, paired: for every run index present on both sides (`a_run[i]` names the
/// run of `a[i]`), the medians of a's and of b's samples of that run, in run order.
PairedValues run_median_pairs(std::span<const double> a, std::span<const std::size_t> a_run,
                              std::span<const double> b, std::span<const std::size_t> b_run);

/// What each pair says about the change, so that what moves both values of a pair cancels.
/// `ratios` (times: the host's speed scales a round's or a run's times, so a pair taken 1.8x slow
/// shows the same ratio, not a difference 1.8x larger) and every value positive: the logarithm
/// of b / a; otherwise (counts, whose change is a number of events, and can be 0) the difference
/// b - a. `logarithmic` says which.
struct PairChanges {
    std::vector<double> values;
    bool logarithmic = false;
};
PairChanges pair_changes(const PairedValues& pairs, bool ratios);

/// A steady move of a benchmark's samples over time: a branch predictor that learns data the
/// benchmark repeats, memory settling, a host changing speed. A median of such samples depends on
/// when and for how long they were taken, and its interval (which assumes one distribution)
/// says nothing about that.
struct Drift {
    /// The median of the last third of each series' samples against that of the first third
    /// (pooled over the series), minus 1: -0.4 is 40% lower by the end.
    double change = 0;
    /// Two-sided Mann-Kendall trend test over the medians of up to 10 blocks of consecutive
    /// samples of each series (3 or more samples a block; neighbouring samples share the
    /// machine's state, so single samples would read a busy second as a trend): each series' S
    /// (sum over its later-earlier pairs of the sign of the difference) and tie-corrected
    /// variance summed over the series, normal approximation with continuity correction.
    double p_value = 1;
    /// The sign of S: +1 rising, -1 falling, 0 neither.
    int direction = 0;
    /// The p-value these series would have if every block were beyond the one before: with few
    /// samples (under 6 a process is one block) no trend can reach a strict level, and a
    /// p-value of 1 then says "not testable", not "steady".
    double best_p_value = 1;
};

/// The drift of `series`, each the samples of one measuring process in the order they were
/// taken (processes start afresh, so a trend is sought within each, never across). Series of
/// fewer than 3 samples take no part; nullopt when none has 3, or when a value is not finite.
std::optional<Drift> drift_over_time(std::span<const std::vector<double>> series);

}  // namespace perfgauge::harness
