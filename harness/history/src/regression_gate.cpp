#include "perfgauge/harness/regression_gate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/students_t.hpp>

namespace perfgauge::harness {
namespace {

// The same rounding change_points.cpp forgives a deterministic series: a per-item count stored
// as a double can differ between runs in its last bits.
constexpr double kGateRounding = 1e-9;

// A run's spread is the half-width of its median's 95% interval: about 1.96 standard errors.
constexpr double kSpreadToStandardError = 1 / 1.96;

// The level of the check at the run that makes a window `runs` long: the full level for the
// first 20 runs (where it is calibrated), then falling as (20 / runs)^2, so that the chances a
// long series accumulates sum to a bounded lifetime false-alarm rate (about twice the 20-run
// one however long the series grows) instead of growing with every run.
constexpr std::size_t kFullLevelRuns = 20;

// The window's length is rounded up to a step of 5%, so that a long series' replay computes a
// new critical value a few hundred times, not at every run (and the level only ever falls).
double alpha_at(const GateOptions& o, std::size_t runs) {
    if (runs <= kFullLevelRuns)
        return o.alpha;
    const double steps =
        std::ceil(std::log(static_cast<double>(runs) / kFullLevelRuns) / std::log(1.05));
    const double r = std::pow(1.05, -steps);
    return o.alpha * r * r;
}

// z of 90% power for the detectable shift.
constexpr double kPowerZ = 1.2815515655446004;

// Computed in double, not promoted to long double: the promotion instantiates Boost.Math's
// start-up initializers for long double, which overflow under valgrind (whose long double is
// a double) and abort every perfgauge process that callgrind runs, a simulation child too.
using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
using StudentT = boost::math::students_t_distribution<double, DoublePolicy>;

double t_quantile(double p, double df) {
    return boost::math::quantile(StudentT(df), p);
}

double t_two_sided_p(double t, double df) {
    if (!std::isfinite(t))
        return 0;
    return 2 * boost::math::cdf(boost::math::complement(StudentT(df), t));
}

// The window judged, on the scale its statistics are made on: log values when every value is
// positive (relative changes, intervals that stay above -100%), the values themselves else.
struct Scaled {
    bool log = false;
    std::vector<double> y;       ///< values
    std::vector<double> own_se;  ///< each run's own standard error, same scale
    double to_relative(double difference, double base) const {
        if (log)
            return std::expm1(difference);
        return base == 0 ? (difference == 0 ? 0 : std::numeric_limits<double>::infinity())
                         : difference / std::abs(base);
    }
};

Scaled scaled(std::span<const RunPoint> window) {
    Scaled s;
    s.log = !window.empty() && std::all_of(window.begin(), window.end(), [](const RunPoint& r) {
        return r.value > 0 && std::isfinite(r.value);
    });
    for (const auto& r : window) {
        s.y.push_back(s.log ? std::log(r.value) : r.value);
        // A run whose spread is unknown (NaN: one sample) floors nothing.
        const double se = std::isfinite(r.spread) ? r.spread * kSpreadToStandardError : 0;
        s.own_se.push_back(s.log ? se / r.value : se);
    }
    return s;
}

// Sums over the window, so that any segment's mean and squares cost O(1).
struct PrefixSums {
    std::vector<double> sum, squares, own_se;
    double reference = 0;  // subtracted first: the squares of log values near 20 lose digits

    explicit PrefixSums(const Scaled& s)
        : sum(s.y.size() + 1), squares(s.y.size() + 1), own_se(s.y.size() + 1) {
        reference = s.y.empty() ? 0 : s.y.front();
        for (std::size_t i = 0; i < s.y.size(); ++i) {
            const double v = s.y[i] - reference;
            sum[i + 1] = sum[i] + v;
            squares[i + 1] = squares[i] + v * v;
            own_se[i + 1] = own_se[i] + s.own_se[i];
        }
    }
    double mean(std::size_t a, std::size_t b) const {
        return (sum[b] - sum[a]) / static_cast<double>(b - a) + reference;
    }
    // Sum of squared deviations from the segment's own mean.
    double deviations(std::size_t a, std::size_t b) const {
        const double n = static_cast<double>(b - a), s = sum[b] - sum[a];
        return std::max(0.0, squares[b] - squares[a] - s * s / n);
    }
    double mean_own_se(std::size_t a, std::size_t b) const {
        return (own_se[b] - own_se[a]) / static_cast<double>(b - a);
    }
};

// The between-run noise: the pooled standard deviation of the segments already closed and of
// the runs [a, b), at least those runs' own standard error (a run's median cannot vary less
// between runs than within one) and the rounding of the level.
struct Noise {
    double sd = 0, df = 0;
};

struct Pool {
    double deviations = 0, df = 0;
};

Noise noise_of(const PrefixSums& p, const Pool& closed, std::size_t a, std::size_t b) {
    const double df = closed.df + static_cast<double>(b - a) - 1;
    const double pooled = std::sqrt((closed.deviations + p.deviations(a, b)) / df);
    const double floor = std::max(p.mean_own_se(a, b), kGateRounding * std::abs(p.mean(a, b)));
    return {std::max(pooled, floor), df};
}

std::vector<GateStep> exact_steps(std::span<const RunPoint> window, std::size_t first) {
    std::vector<GateStep> out;
    for (std::size_t i = 1; i < window.size(); ++i) {
        const double before = window[i - 1].value;
        if (std::abs(window[i].value - before) > kGateRounding * std::abs(before))
            out.push_back({first + i, first + i, std::numeric_limits<double>::infinity(), 0});
    }
    return out;
}

// The most significant split of [current, end) with enough runs on both sides, as the ratio
// of its |t| to its critical value (above 1: significant), and the split.
struct Split {
    std::size_t at = 0;
    double ratio = 0, t = 0, df = 0;
};

// The median of the runs [a, b): a step must move most of the runs after it, so that one
// disturbed run among them (a 3x outlier) does not make a change point by itself.
double median_of(const Scaled& s, std::size_t a, std::size_t b) {
    std::vector<double> v(s.y.begin() + static_cast<std::ptrdiff_t>(a),
                          s.y.begin() + static_cast<std::ptrdiff_t>(b));
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Split strongest_split(const Scaled& s, const PrefixSums& p, const Pool& closed, std::size_t current,
                      std::size_t end, const GateOptions& o, std::vector<double>& critical) {
    const double alpha = alpha_at(o, end);
    Split best;
    const std::size_t lowest =
        std::max(current + o.min_baseline, end > o.max_after ? end - o.max_after : 0);
    for (std::size_t k = lowest; k + o.min_after <= end; ++k) {
        const Noise noise = noise_of(p, closed, current, k);
        const double nb = static_cast<double>(k - current), m = static_cast<double>(end - k);
        const double scale = noise.sd * std::sqrt(1 / m + 1 / nb);
        const double before = p.mean(current, k);
        const double t = (p.mean(k, end) - before) / scale;
        const double t_median = (median_of(s, k, end) - before) / scale;
        // Both must agree: the weaker of the two is the split's statistic.
        const double weaker = t * t_median <= 0 ? 0 : std::min(std::abs(t), std::abs(t_median));
        const auto df = static_cast<std::size_t>(noise.df);
        if (critical.size() <= df)
            critical.resize(df + 1, 0);
        if (critical[df] == 0)
            critical[df] = t_quantile(1 - alpha / 2, noise.df);
        const double ratio = weaker / critical[df];
        if (ratio > best.ratio)
            best = {k, ratio, weaker, noise.df};
    }
    return best;
}

// Where the confirmed shift starts: the split, from the one the test passed at to the newest
// run, that leaves the least squared deviation on its two sides. The test needs `min_after`
// runs after a split, so for a large shift it passes first at a split a run or two early,
// with earlier runs among the "after" ones; the change point must name the run that brought it.
std::size_t least_squares_split(const PrefixSums& p, std::size_t current, std::size_t found,
                                std::size_t end) {
    std::size_t best = found;
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t k = found; k < end; ++k) {
        const double squares = p.deviations(current, k) + p.deviations(k, end);
        if (squares < least) {
            least = squares;
            best = k;
        }
    }
    return best;
}

}  // namespace

double gate_alpha_for(double lifetime) {
    return std::min(kDefaultGateAlpha, kDefaultGateAlpha * lifetime / kGateLifetimeFalseAlarms);
}

double gate_false_alarms_per_series(double expected_false_alarms, std::size_t series) {
    return std::min(kGateLifetimeFalseAlarms,
                    expected_false_alarms / static_cast<double>(std::max<std::size_t>(1, series)));
}

double gate_false_alarms_across(double expected_false_alarms, std::size_t series) {
    return gate_false_alarms_per_series(expected_false_alarms, series) *
           static_cast<double>(series);
}

double gate_alpha_across(double expected_false_alarms, std::size_t series) {
    return gate_alpha_for(gate_false_alarms_per_series(expected_false_alarms, series));
}

std::vector<GateStep> replay_steps(std::span<const RunPoint> series, std::size_t first,
                                   const GateOptions& options) {
    if (first >= series.size())
        return {};
    const auto window = series.subspan(first);
    if (deterministic_series(window))
        return exact_steps(window, first);
    const Scaled s = scaled(window);
    const PrefixSums p(s);
    std::vector<double> critical;
    double alpha = options.alpha;
    std::vector<GateStep> steps;
    Pool closed;
    std::size_t current = 0;  // first run of the current segment, in the window
    for (std::size_t end = 1; end <= window.size(); ++end) {
        if (const double level = alpha_at(options, end); level != alpha) {
            critical.clear();  // the level fell: every critical value with it
            alpha = level;
        }
        Split split = strongest_split(s, p, closed, current, end, options, critical);
        if (split.ratio <= 1)
            continue;
        split.at = least_squares_split(p, current, split.at, end);
        steps.push_back(
            {first + split.at, first + end - 1, split.t, t_two_sided_p(split.t, split.df)});
        closed.deviations += p.deviations(current, split.at);
        closed.df += static_cast<double>(split.at - current) - 1;
        current = split.at;
    }
    return steps;
}

namespace {

using Kind = GateVerdict::Kind;

bool is_worse(double difference, Worse worse) {
    return worse == Worse::up ? difference > 0 : difference < 0;
}

// The standing change: the current level against the baseline's, with its 95% interval. A
// single change point stands as confirmed; after several, the levels are tested again at the
// gate's level, so that a change back ends a regression by itself.
void judge_levels(const Scaled& s, const PrefixSums& p, const Pool& closed, std::size_t base_end,
                  std::size_t current, std::size_t steps, const GateOptions& o, GateVerdict& v) {
    const std::size_t n = s.y.size();
    const double base = p.mean(0, base_end), now = p.mean(current, n);
    v.baseline = s.log ? std::exp(base) : base;
    v.current = s.log ? std::exp(now) : now;
    const double difference = now - base;
    v.size = s.to_relative(difference, base);
    v.kind = Kind::unchanged;
    if (steps == 0)
        return;
    const double pooled_df = closed.df + static_cast<double>(n - current) - 1;
    const double sd =
        std::sqrt((closed.deviations + p.deviations(current, n)) / std::max(pooled_df, 1.0));
    const double se =
        sd * std::sqrt(1 / static_cast<double>(base_end) + 1 / static_cast<double>(n - current));
    const double half = t_quantile(0.975, std::max(pooled_df, 1.0)) * se;
    v.size_low = s.to_relative(difference - half, base);
    v.size_high = s.to_relative(difference + half, base);
    const bool standing =
        steps == 1 ||
        std::abs(difference) > t_quantile(1 - alpha_at(o, n) / 2, std::max(pooled_df, 1.0)) * se;
    if (standing && std::abs(v.size) >= o.min_change && std::abs(v.size) > 0)
        v.kind = is_worse(difference, o.worse) ? Kind::regression : Kind::improvement;
    else
        v.kind = Kind::unchanged;
}

// The newest run against the current level's runs before it: the band it must leave to be
// pending, the shift the series resolves, and whether the run's own interval is too wide to
// say "unchanged".
void judge_newest(const Scaled& s, const PrefixSums& p, const Pool& closed, std::size_t current,
                  const GateOptions& o, GateVerdict& v) {
    const std::size_t n = s.y.size();
    if (n - 1 - current < 2) {
        v.newest_size = 0;
        return;
    }
    const Noise noise = noise_of(p, closed, current, n - 1);
    const double k = static_cast<double>(n - 1 - current);
    const double critical = t_quantile(1 - alpha_at(o, n) / 2, noise.df);
    const double level = p.mean(current, n - 1);
    const double difference = s.y.back() - level;
    const double band = critical * noise.sd * std::sqrt(1 + 1 / k);
    v.newest_size = s.to_relative(difference, level);
    v.band = std::abs(s.to_relative(is_worse(1, o.worse) ? band : -band, level));
    v.detectable = std::abs(
        s.to_relative((critical + kPowerZ) * noise.sd * std::sqrt(1.0 / 3 + 1 / k), level));
    v.newest_spread =
        s.log ? s.own_se.back() / kSpreadToStandardError
              : std::abs(s.to_relative(s.own_se.back() / kSpreadToStandardError, level));
    if (v.kind != Kind::unchanged)
        return;
    if (std::abs(difference) > band && is_worse(difference, o.worse) &&
        std::abs(v.newest_size) >= o.min_change)
        v.kind = Kind::pending;
    else if (v.newest_spread > std::max(v.band, o.min_change))
        v.kind = Kind::inconclusive;
}

GateVerdict judge_exact(std::span<const RunPoint> window, std::size_t first, const GateOptions& o) {
    GateVerdict v;
    v.exact = true;
    v.baseline_first = first;
    if (window.size() < 2) {
        v.baseline_runs = window.size();
        return v;
    }
    v.steps = exact_steps(window, first);
    const std::size_t base_end = v.steps.empty() ? window.size() : v.steps.front().index - first;
    v.baseline_runs = base_end;
    v.current_first = v.steps.empty() ? first : v.steps.back().index;
    v.baseline = window.front().value;
    v.current = window.back().value;
    const double difference = v.current - v.baseline;
    v.size = v.size_low = v.size_high =
        v.baseline == 0 ? (difference == 0 ? 0 : std::numeric_limits<double>::infinity())
                        : difference / std::abs(v.baseline);
    const bool changed = std::abs(difference) > kGateRounding * std::abs(v.baseline);
    v.kind = changed && std::abs(v.size) >= o.min_change
                 ? (is_worse(difference, o.worse) ? Kind::regression : Kind::improvement)
                 : Kind::unchanged;
    return v;
}

}  // namespace

GateVerdict judge_series(std::span<const RunPoint> series, std::size_t baseline_first,
                         const GateOptions& options) {
    const std::size_t first = std::min(baseline_first, series.size());
    const auto window = series.subspan(first);
    if (deterministic_series(window))
        return judge_exact(window, first, options);
    GateVerdict v;
    v.baseline_first = first;
    v.baseline_runs = window.size();
    if (window.size() < options.min_baseline + 1)
        return v;
    const Scaled s = scaled(window);
    const PrefixSums p(s);
    v.steps = replay_steps(series, first, options);
    Pool closed;
    std::size_t current = 0;
    for (const auto& step : v.steps) {
        const std::size_t at = step.index - first;
        closed.deviations += p.deviations(current, at);
        closed.df += static_cast<double>(at - current) - 1;
        current = at;
    }
    const std::size_t base_end = v.steps.empty() ? window.size() : v.steps.front().index - first;
    v.baseline_runs = base_end;
    v.current_first = first + current;
    judge_levels(s, p, closed, base_end, current, v.steps.size(), options, v);
    judge_newest(s, p, closed, current, options, v);
    return v;
}

}  // namespace perfgauge::harness
