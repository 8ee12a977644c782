#include "perfgauge/harness/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

double relative(double value, double reference) {
    if (reference == 0)
        return value == 0 ? 0 : std::numeric_limits<double>::infinity();
    return value / reference - 1;
}

// One field of every run: their values or their spreads.
std::vector<double> field_of(std::span<const RunPoint> runs, double RunPoint::*field) {
    std::vector<double> v;
    v.reserve(runs.size());
    for (const auto& r : runs)
        v.push_back(r.*field);
    return v;
}

// The statistic for every split at once: within-side sums move by one row per step, so the
// whole scan costs the n^2 distances once.
std::optional<BestSplit> scan_splits(std::span<const double> v, std::size_t min_segment) {
    const std::size_t n = v.size();
    const std::size_t lowest = std::max<std::size_t>(min_segment, 2);
    if (n < 2 * lowest)
        return std::nullopt;
    std::vector<double> left(n, 0), row(n, 0);  // sum |v_t - v_i| over i < t; over all i
    double total = 0;
    for (std::size_t t = 0; t < n; ++t) {
        for (std::size_t i = 0; i < t; ++i) {
            const double d = std::abs(v[t] - v[i]);
            left[t] += d;
            row[t] += d;
            row[i] += d;
        }
        total += left[t];
    }
    double within_left = 0, within_right = total;
    BestSplit best{0, -std::numeric_limits<double>::infinity()};
    for (std::size_t split = 0; split + lowest <= n; ++split) {
        if (split >= lowest) {
            const double m = static_cast<double>(split), k = static_cast<double>(n - split);
            const double between = total - within_left - within_right;
            const double q = m * k / (m + k) *
                             (2 * between / (m * k) - within_left / (m * (m - 1) / 2) -
                              within_right / (k * (k - 1) / 2));
            if (q > best.statistic)
                best = {split, q};
        }
        within_left += left[split];
        within_right -= row[split] - left[split];
    }
    return best;
}

struct Segment {
    std::size_t first = 0, end = 0;
    bool final = false;  // no significant, resolvable split within
};

// A deterministic value is a count divided by the items it covers, stored as a double: two runs
// of the same count can differ in the last bits (a different number of iterations, or the
// baseline's mean summed in floating point: five 31.6806240063593 average to 3.6e-15 less).
// Differences below this fraction are rounding, not a change; a change of one instruction in
// a billion per item is far below anything a build changes.
constexpr double kExactRounding = 1e-9;

double rounding_allowance(double value) { return kExactRounding * std::abs(value); }

std::vector<ChangePoint> exact_change_points(std::span<const RunPoint> series) {
    std::vector<std::size_t> at;
    for (std::size_t i = 1; i < series.size(); ++i)
        if (std::abs(series[i].value - series[i - 1].value) >
            rounding_allowance(series[i - 1].value))
            at.push_back(i);
    std::vector<ChangePoint> out;
    for (const auto i : at) {
        ChangePoint c;
        c.index = i;
        c.before = series[i - 1].value;
        c.after = series[i].value;
        c.size = c.size_low = c.size_high = relative(c.after, c.before);
        c.regression = c.after > c.before;
        out.push_back(c);
    }
    return out;
}

}  // namespace

bool deterministic_series(std::span<const RunPoint> series) {
    // No run at all is no evidence of determinism (show labelled such a series so).
    return !series.empty() && std::all_of(series.begin(), series.end(),
                                          [](const RunPoint& r) { return r.spread == 0; });
}

double energy_statistic(std::span<const double> values, std::size_t split) {
    const std::size_t n = values.size();
    if (split < 2 || n - split < 2 || split > n)
        return 0;
    double between = 0, within_left = 0, within_right = 0;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            const double d = std::abs(values[i] - values[j]);
            if (j < split)
                within_left += d;
            else if (i >= split)
                within_right += d;
            else
                between += d;
        }
    }
    const double m = static_cast<double>(split), k = static_cast<double>(n - split);
    return m * k / (m + k) *
           (2 * between / (m * k) - within_left / (m * (m - 1) / 2) -
            within_right / (k * (k - 1) / 2));
}

std::optional<BestSplit> best_split(std::span<const double> values, std::size_t min_segment) {
    return scan_splits(values, min_segment);
}

std::vector<ChangePoint> detect_change_points(std::span<const RunPoint> series,
                                              const ChangePointOptions& options) {
    if (deterministic_series(series))
        return exact_change_points(series);
    const std::vector<double> values = field_of(series, &RunPoint::value);
    const std::vector<double> spreads = field_of(series, &RunPoint::spread);
    std::mt19937_64 rng(options.seed);
    std::vector<Segment> segments{{0, values.size(), false}};
    std::vector<std::pair<std::size_t, double>> found;  // index, p
    for (;;) {
        // The strongest split of any segment still open is the next candidate.
        std::size_t chosen = segments.size();
        BestSplit candidate;
        for (std::size_t s = 0; s < segments.size(); ++s) {
            if (segments[s].final)
                continue;
            const auto seg =
                std::span(values).subspan(segments[s].first, segments[s].end - segments[s].first);
            const auto split = scan_splits(seg, options.min_segment);
            if (!split) {
                segments[s].final = true;
                continue;
            }
            if (chosen == segments.size() || split->statistic > candidate.statistic) {
                chosen = s;
                candidate = *split;
            }
        }
        if (chosen == segments.size())
            break;
        Segment& seg = segments[chosen];
        std::vector<double> shuffled(values.begin() + static_cast<std::ptrdiff_t>(seg.first),
                                     values.begin() + static_cast<std::ptrdiff_t>(seg.end));
        std::size_t at_least = 0;
        for (std::size_t p = 0; p < options.permutations; ++p) {
            std::shuffle(shuffled.begin(), shuffled.end(), rng);
            const auto s = scan_splits(shuffled, options.min_segment);
            if (s && s->statistic >= candidate.statistic)
                ++at_least;
        }
        const double p_value =
            static_cast<double>(at_least + 1) / static_cast<double>(options.permutations + 1);
        if (p_value > options.alpha)
            break;  // the strongest split left is not significant: neither is any other
        const std::size_t split = seg.first + candidate.split;
        const auto before = std::span(values).subspan(seg.first, split - seg.first);
        const auto after = std::span(values).subspan(split, seg.end - split);
        const double typical_spread =
            median(std::span(spreads).subspan(seg.first, seg.end - seg.first));
        if (std::abs(median(after) - median(before)) <= typical_spread) {
            seg.final = true;  // significant, but within what the runs themselves resolve
            continue;
        }
        found.emplace_back(split, p_value);
        const Segment right{split, seg.end, false};
        seg.end = split;
        segments.push_back(right);
    }
    std::sort(found.begin(), found.end());
    std::vector<ChangePoint> out;
    for (std::size_t c = 0; c < found.size(); ++c) {
        const std::size_t first = c == 0 ? 0 : found[c - 1].first;
        const std::size_t at = found[c].first;
        const std::size_t end = c + 1 < found.size() ? found[c + 1].first : values.size();
        const auto before = std::span(values).subspan(first, at - first);
        const auto after = std::span(values).subspan(at, end - at);
        ChangePoint point;
        point.index = at;
        point.before = median(before);
        point.after = median(after);
        point.size = relative(point.after, point.before);
        const Interval shift = shift_interval(before, after);
        point.size_low = relative(point.before + shift.low, point.before);
        point.size_high = relative(point.before + shift.high, point.before);
        point.p_value = found[c].second;
        point.regression = point.after > point.before;
        out.push_back(point);
    }
    return out;
}

LatestVerdict judge_latest(std::span<const RunPoint> series, const ChangePointOptions& options) {
    LatestVerdict verdict;
    if (series.size() < 2)
        return verdict;
    const auto history = series.first(series.size() - 1);
    const RunPoint& latest = series.back();
    const bool exact = deterministic_series(series);
    const auto changes = detect_change_points(history, options);
    verdict.baseline_first = changes.empty() ? 0 : changes.back().index;
    const auto baseline = history.subspan(verdict.baseline_first);
    verdict.baseline_runs = baseline.size();
    if (baseline.size() < (exact ? 1U : 2U))
        return verdict;
    const std::vector<double> values = field_of(baseline, &RunPoint::value);
    const std::vector<double> spreads = field_of(baseline, &RunPoint::spread);
    const double k = static_cast<double>(values.size());
    double mean = 0;
    for (const double v : values)
        mean += v / k;
    verdict.baseline = mean;
    double allowance = rounding_allowance(mean);
    if (!exact) {
        // A prediction interval for one more run of the baseline's level (Student's t, 99%
        // two-sided): a few baseline runs estimate their noise poorly, and t widens for it.
        double squares = 0;
        for (const double v : values)
            squares += (v - mean) * (v - mean);
        const double sd = std::sqrt(squares / (k - 1));
        const double noise = std::max({sd, median(spreads), latest.spread});
        allowance = student_t_quantile(0.995, k - 1) * noise * std::sqrt(1 + 1 / k);
    }
    verdict.size = relative(latest.value, verdict.baseline);
    verdict.allowance = verdict.baseline == 0 ? 0 : allowance / std::abs(verdict.baseline);
    const double shift = latest.value - verdict.baseline;
    verdict.kind = shift > allowance    ? LatestVerdict::Kind::regression
                   : shift < -allowance ? LatestVerdict::Kind::improvement
                                        : LatestVerdict::Kind::unchanged;
    return verdict;
}

}  // namespace perfgauge::harness
