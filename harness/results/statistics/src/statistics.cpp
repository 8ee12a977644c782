#include "perfgauge/harness/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include <boost/math/distributions/students_t.hpp>

#include "perfgauge/harness/precision.hpp"

namespace perfgauge::harness {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double sorted_quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty())
        return kNaN;
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

std::vector<double> sorted_copy(std::span<const double> samples) {
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

// Number of ways to reach each U for sample sizes (m, n): the exact null distribution.
std::vector<double> u_distribution(std::size_t m, std::size_t n) {
    // c[i][j] is the distribution for sizes (i, j), built up from (0, *) and (*, 0).
    std::vector<std::vector<std::vector<double>>> c(m + 1, std::vector<std::vector<double>>(n + 1));
    for (std::size_t i = 0; i <= m; ++i) {
        for (std::size_t j = 0; j <= n; ++j) {
            auto& cur = c[i][j];
            cur.assign(i * j + 1, 0.0);
            if (i == 0 || j == 0) {
                cur[0] = 1;
                continue;
            }
            // The largest of all values is either from the first sample (it beats all j of the
            // second: +j) or from the second (adds nothing).
            const auto& from_first = c[i - 1][j];
            const auto& from_second = c[i][j - 1];
            for (std::size_t u = 0; u < from_first.size(); ++u)
                cur[u + j] += from_first[u];
            for (std::size_t u = 0; u < from_second.size(); ++u)
                cur[u] += from_second[u];
        }
    }
    return c[m][n];
}

}  // namespace

double quantile(std::span<const double> samples, double q) {
    return sorted_quantile(sorted_copy(samples), q);
}

double median(std::span<const double> samples) {
    return quantile(samples, 0.5);
}

double median_absolute_deviation(std::span<const double> samples) {
    const double m = median(samples);
    std::vector<double> deviations;
    deviations.reserve(samples.size());
    for (double x : samples)
        deviations.push_back(std::fabs(x - m));
    return median(deviations);
}

Summary summarize(std::span<const double> samples, double unstable_threshold) {
    Summary s;
    s.count = samples.size();
    const auto sorted = sorted_copy(samples);
    s.min = sorted_quantile(sorted, 0);
    s.p25 = sorted_quantile(sorted, 0.25);
    s.median = sorted_quantile(sorted, 0.5);
    s.p75 = sorted_quantile(sorted, 0.75);
    s.p90 = sorted_quantile(sorted, 0.90);
    s.p999 = sorted_quantile(sorted, 0.999);
    s.max = sorted_quantile(sorted, 1);
    s.iqr = s.p75 - s.p25;
    s.mad = median_absolute_deviation(samples);
    if (samples.empty()) {
        s.mean = s.stddev = s.cv = s.relative_spread = kNaN;
        s.unstable = true;  // no sample (every one disturbed): stability cannot be claimed
        return s;
    }
    s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.count);
    double squares = 0;
    for (double x : sorted)
        squares += (x - s.mean) * (x - s.mean);
    s.stddev = s.count > 1 ? std::sqrt(squares / static_cast<double>(s.count - 1)) : 0.0;
    s.cv = s.mean != 0 ? s.stddev / std::fabs(s.mean) : kNaN;
    s.relative_spread = s.median != 0 ? s.iqr / std::fabs(s.median) : (s.iqr == 0 ? 0.0 : kNaN);
    s.unstable = !(s.relative_spread <= unstable_threshold);
    return s;
}

MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b) {
    MannWhitneyResult r;
    const std::size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
    if (n1 == 0 || n2 == 0)
        return r;

    // Mid-ranks of the pooled samples, and the tie term sum(t^3 - t).
    std::vector<std::pair<double, bool>> pooled;  // value, from the first sample
    pooled.reserve(n);
    for (double x : a)
        pooled.emplace_back(x, true);
    for (double x : b)
        pooled.emplace_back(x, false);
    std::sort(pooled.begin(), pooled.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    double rank_sum_first = 0, tie_term = 0;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && pooled[j].first == pooled[i].first)
            ++j;
        const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
        for (std::size_t k = i; k < j; ++k) {
            if (pooled[k].second)
                rank_sum_first += mid_rank;
        }
        const double t = static_cast<double>(j - i);
        tie_term += t * t * t - t;
        i = j;
    }
    const double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2);
    r.u = rank_sum_first - d1 * (d1 + 1) / 2.0;
    const double mean_u = d1 * d2 / 2.0;

    if (tie_term == 0 && n1 * n2 <= 2500) {
        r.exact = true;
        const auto dist = u_distribution(n1, n2);
        const double total = std::accumulate(dist.begin(), dist.end(), 0.0);
        // Two-sided: twice the tail beyond the observed distance from the mean.
        const double u_high = std::max(r.u, d1 * d2 - r.u);
        double tail = 0;
        for (std::size_t u = static_cast<std::size_t>(u_high); u < dist.size(); ++u)
            tail += dist[u];
        r.p_value = std::min(1.0, 2.0 * tail / total);
        return r;
    }
    const double dn = static_cast<double>(n);
    const double variance = d1 * d2 / 12.0 * ((dn + 1) - tie_term / (dn * (dn - 1)));
    if (variance <= 0)
        return r;  // every value equal: no evidence of any difference
    const double z = (std::fabs(r.u - mean_u) - 0.5) / std::sqrt(variance);
    r.p_value = std::min(1.0, std::erfc(std::max(z, 0.0) / std::sqrt(2.0)));
    return r;
}

double hodges_lehmann_shift(std::span<const double> a, std::span<const double> b) {
    std::vector<double> differences;
    differences.reserve(a.size() * b.size());
    for (double x : a) {
        for (double y : b)
            differences.push_back(y - x);
    }
    return median(differences);
}

double normal_quantile(double p) {
    // Bisection on the CDF 0.5 * erfc(-x / sqrt 2): 60 halvings of [-40, 40] are exact to
    // double precision, and this runs a handful of times per comparison.
    double lo = -40, hi = 40;
    for (int i = 0; i < 60; ++i) {
        const double mid = (lo + hi) / 2;
        (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

namespace {

// P(Binomial(n, 1/2) <= k).
double binomial_half_cdf(std::size_t n, std::size_t k) {
    double total = 0;
    const double dn = static_cast<double>(n);
    for (std::size_t i = 0; i <= k && i <= n; ++i) {
        const double di = static_cast<double>(i);
        total += std::exp(std::lgamma(dn + 1) - std::lgamma(di + 1) - std::lgamma(dn - di + 1) -
                          dn * std::log(2.0));
    }
    return std::min(1.0, total);
}

// The interval between the k-th smallest and the k-th largest of `sorted` (k >= 1, 1-based),
// with coverage 1 - 2 * tail.
Interval order_interval(const std::vector<double>& sorted, std::size_t k, double tail) {
    return {sorted[k - 1], sorted[sorted.size() - k], std::max(0.0, 1 - 2 * tail)};
}

}  // namespace

Interval median_interval(std::span<const double> samples, double confidence) {
    const auto sorted = sorted_copy(samples);
    const std::size_t n = sorted.size();
    if (n == 0)
        return {kNaN, kNaN, 0};
    const double allowed = (1 - confidence) / 2;
    // The largest k whose lower tail P(B <= k - 1) stays within `allowed`.
    std::size_t k = 1;
    while (k + 1 <= (n + 1) / 2 && binomial_half_cdf(n, k) <= allowed)
        ++k;
    return order_interval(sorted, k, binomial_half_cdf(n, k - 1));
}

double median_precision(const std::vector<double>& ns_per_item) {
    if (ns_per_item.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const Interval ci = median_interval(ns_per_item, 0.95);
    // Under 6 samples no pair of order statistics covers the median with 95%: [min, max] of
    // one sample (or of two that agree) would read as a perfect precision.
    if (ns_per_item.size() < kFewestForPrecision)
        return std::numeric_limits<double>::infinity();
    const double m = median(ns_per_item);
    return m != 0 ? (ci.high - ci.low) / 2 / std::fabs(m) : std::numeric_limits<double>::infinity();
}

Interval shift_interval(std::span<const double> a, std::span<const double> b, double confidence) {
    const std::size_t m = a.size(), n = b.size(), total = m * n;
    if (total == 0)
        return {kNaN, kNaN, 0};
    std::vector<double> differences;
    differences.reserve(total);
    for (double x : a) {
        for (double y : b)
            differences.push_back(y - x);
    }
    std::sort(differences.begin(), differences.end());
    const double allowed = (1 - confidence) / 2;
    if (total <= 400) {
        const auto dist = u_distribution(m, n);
        const double count = std::accumulate(dist.begin(), dist.end(), 0.0);
        // The k-th difference bounds the interval when P(U <= k - 1) <= allowed.
        std::size_t k = 1;
        double tail = dist[0] / count;
        while (k < (total + 1) / 2 && tail + dist[k] / count <= allowed) {
            tail += dist[k] / count;
            ++k;
        }
        return order_interval(differences, k, tail);
    }
    const double dm = static_cast<double>(m), dn = static_cast<double>(n);
    const double z = normal_quantile(1 - allowed);
    const double k_real = dm * dn / 2 - z * std::sqrt(dm * dn * (dm + dn + 1) / 12);
    const std::size_t k = std::clamp<std::size_t>(
        static_cast<std::size_t>(std::max(1.0, std::floor(k_real))), 1, (total + 1) / 2);
    return {differences[k - 1], differences[total - k], confidence};
}

double student_t_quantile(double p, double df) {
    return boost::math::quantile(boost::math::students_t_distribution<double>(df), p);
}

namespace {

// The medians of each block's samples, in block order.
std::vector<double> block_medians(std::span<const double> values,
                                  std::span<const std::size_t> block) {
    std::map<std::size_t, std::vector<double>> by_block;
    for (std::size_t i = 0; i < values.size() && i < block.size(); ++i)
        by_block[block[i]].push_back(values[i]);
    std::vector<double> medians;
    for (const auto& [k, v] : by_block)
        medians.push_back(median(v));
    return medians;
}

// Mean, variance of the mean and standard deviation of `x` (nearly independent values: block
// medians, paired runs' differences); nullopt with fewer than two or a value not finite.
std::optional<BlockMeans> mean_and_spread(std::span<const double> x) {
    if (x.size() < 2 || !std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); }))
        return std::nullopt;
    const double n = static_cast<double>(x.size());
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
    double squares = 0;
    for (double v : x)
        squares += (v - mean) * (v - mean);
    const double variance = squares / (n - 1);
    return BlockMeans{x.size(), mean, variance / n, std::sqrt(variance)};
}

}  // namespace

std::optional<BlockMeans> block_means(std::span<const double> values,
                                      std::span<const std::size_t> block) {
    return mean_and_spread(block_medians(values, block));
}

Interval block_shift_interval(const BlockMeans& a, const BlockMeans& b, double confidence) {
    const double shift = b.mean - a.mean;
    const double va = a.variance_of_mean, vb = b.variance_of_mean;
    const double se = std::sqrt(va + vb);
    if (!(se > 0))
        return {shift, shift, confidence};
    // Welch-Satterthwaite degrees of freedom; the smaller side's when they underflow.
    const double da = static_cast<double>(a.blocks - 1), db = static_cast<double>(b.blocks - 1);
    double df = (va + vb) * (va + vb) / (va * va / da + vb * vb / db);
    if (!std::isfinite(df) || df < 1)
        df = std::max(1.0, std::min(da, db));
    const double half = student_t_quantile(1 - (1 - confidence) / 2, df) * se;
    return {shift - half, shift + half, confidence};
}

Interval mean_interval(std::span<const double> values, double confidence) {
    const auto s = mean_and_spread(values);
    if (!s) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan, confidence};
    }
    const double se = std::sqrt(s->variance_of_mean);
    const double df = static_cast<double>(s->blocks - 1);
    const double half = se > 0 ? student_t_quantile(1 - (1 - confidence) / 2, df) * se : 0;
    return {s->mean - half, s->mean + half, confidence};
}

PairedValues run_median_pairs(std::span<const double> a, std::span<const std::size_t> a_run,
                              std::span<const double> b, std::span<const std::size_t> b_run) {
    const auto by_run = [](std::span<const double> values, std::span<const std::size_t> run) {
        std::map<std::size_t, std::vector<double>> out;
        for (std::size_t i = 0; i < values.size() && i < run.size(); ++i)
            out[run[i]].push_back(values[i]);
        return out;
    };
    const auto in_a = by_run(a, a_run);
    const auto in_b = by_run(b, b_run);
    PairedValues pairs;
    for (const auto& [run, values] : in_a) {
        if (const auto it = in_b.find(run); it != in_b.end()) {
            pairs.a.push_back(median(values));
            pairs.b.push_back(median(it->second));
        }
    }
    return pairs;
}

PairChanges pair_changes(const PairedValues& pairs, bool ratios) {
    PairChanges out;
    const auto positive = [](double v) { return v > 0 && std::isfinite(v); };
    out.logarithmic = ratios && !pairs.a.empty() &&
                      std::all_of(pairs.a.begin(), pairs.a.end(), positive) &&
                      std::all_of(pairs.b.begin(), pairs.b.end(), positive);
    for (std::size_t i = 0; i < pairs.a.size() && i < pairs.b.size(); ++i)
        out.values.push_back(out.logarithmic ? std::log(pairs.b[i] / pairs.a[i])
                                             : pairs.b[i] - pairs.a[i]);
    return out;
}

namespace {

// Mann-Kendall's S of a series: over every pair i < j, +1 when x[j] > x[i], -1 when below (a
// series here is at most kDriftBlocks block medians).
double kendall_s(const std::vector<double>& x) {
    double s = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        for (std::size_t j = i + 1; j < x.size(); ++j)
            s += (x[j] > x[i]) - (x[j] < x[i]);
    }
    return s;
}

// The medians of up to kDriftBlocks blocks of consecutive samples (3 or more each), in order.
constexpr std::size_t kDriftBlocks = 10;
std::vector<double> block_medians(const std::vector<double>& x) {
    const std::size_t n = x.size();
    const std::size_t count = std::clamp<std::size_t>(n / 3, 1, kDriftBlocks);
    std::vector<double> out;
    for (std::size_t k = 0; k < count; ++k) {
        const std::vector<double> block(
            x.begin() + static_cast<std::ptrdiff_t>(k * n / count),
            x.begin() + static_cast<std::ptrdiff_t>((k + 1) * n / count));
        out.push_back(median(block));
    }
    return out;
}

}  // namespace

std::optional<Drift> drift_over_time(std::span<const std::vector<double>> series) {
    double s = 0, s_max = 0, variance = 0, untied_variance = 0;
    std::vector<double> first, last;
    for (const auto& samples : series) {
        if (samples.size() < 3)
            continue;
        if (!std::all_of(samples.begin(), samples.end(), [](double v) { return std::isfinite(v); }))
            return std::nullopt;
        const std::size_t third = samples.size() / 3;
        first.insert(first.end(), samples.begin(),
                     samples.begin() + static_cast<std::ptrdiff_t>(third));
        last.insert(last.end(), samples.end() - static_cast<std::ptrdiff_t>(third), samples.end());
        // Neighbouring samples share the machine's state: a busy second makes a run of slow ones,
        // which a test over single samples would take for a trend. The test runs over the
        // medians of blocks of consecutive samples instead.
        const std::vector<double> x = block_medians(samples);
        const std::size_t n = x.size();
        s += kendall_s(x);
        s_max += static_cast<double>(n * (n - 1) / 2);
        // Var S = [n(n-1)(2n+5) - sum over groups of t tied values of t(t-1)(2t+5)] / 18.
        const auto term = [](double t) { return t * (t - 1) * (2 * t + 5); };
        std::vector<double> sorted = x;
        std::sort(sorted.begin(), sorted.end());
        double ties = 0;
        for (std::size_t i = 0, j = 0; i < n; i = j) {
            while (j < n && sorted[j] == sorted[i])
                ++j;
            ties += term(static_cast<double>(j - i));
        }
        variance += (term(static_cast<double>(n)) - ties) / 18;
        untied_variance += term(static_cast<double>(n)) / 18;
    }
    if (first.empty())
        return std::nullopt;
    Drift d;
    const double from = median(first);
    d.change = from != 0 ? median(last) / from - 1 : 0;
    d.direction = (s > 0) - (s < 0);
    const auto p_of = [](double abs_s, double var) {
        const double z = (abs_s - 1) / std::sqrt(var);  // continuity-corrected
        return std::min(1.0, std::erfc(std::max(z, 0.0) / std::sqrt(2.0)));
    };
    if (variance > 0)
        d.p_value = p_of(std::fabs(s), variance);
    if (untied_variance > 0)
        d.best_p_value = p_of(s_max, untied_variance);
    return d;
}

}  // namespace perfgauge::harness
