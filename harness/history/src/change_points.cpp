#include "perfgauge/harness/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "perfgauge/harness/regression_gate.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

// The change between the segments [a, b) and [b, c): on the log scale when every value is
// positive (a ratio and an interval that stay above -100%), else on the values.
void size_between(std::span<const RunPoint> series, std::size_t a, std::size_t b, std::size_t c,
                  ChangePoint& point) {
    const bool log = std::all_of(series.begin() + static_cast<std::ptrdiff_t>(a),
                                 series.begin() + static_cast<std::ptrdiff_t>(c),
                                 [](const RunPoint& r) { return r.value > 0; });
    std::vector<double> before, after;
    for (std::size_t i = a; i < c; ++i)
        (i < b ? before : after).push_back(log ? std::log(series[i].value) : series[i].value);
    const auto level = [&](const std::vector<double>& v) {
        double mean = 0;
        for (const double x : v)
            mean += x / static_cast<double>(v.size());
        return mean;
    };
    const double lb = level(before), la = level(after);
    point.before = log ? std::exp(lb) : lb;
    point.after = log ? std::exp(la) : la;
    const auto relative = [&](double difference) {
        if (log)
            return std::expm1(difference);
        return lb == 0 ? (difference == 0 ? 0 : std::numeric_limits<double>::infinity())
                       : difference / std::abs(lb);
    };
    point.size = relative(la - lb);
    point.size_low = point.size_high = point.size;
    if (before.size() + after.size() < 3)
        return;
    double squares = 0;
    for (const double x : before)
        squares += (x - lb) * (x - lb);
    for (const double x : after)
        squares += (x - la) * (x - la);
    const double df = static_cast<double>(before.size() + after.size() - 2);
    const double se = std::sqrt(squares / df) * std::sqrt(1 / static_cast<double>(before.size()) +
                                                          1 / static_cast<double>(after.size()));
    const double half = student_t_quantile(0.975, df) * se;
    point.size_low = relative(la - lb - half);
    point.size_high = relative(la - lb + half);
}

}  // namespace

bool deterministic_series(std::span<const RunPoint> series) {
    // No run at all is no evidence of determinism (show labelled such a series so).
    return !series.empty() && std::all_of(series.begin(), series.end(),
                                          [](const RunPoint& r) { return r.spread == 0; });
}

std::vector<ChangePoint> detect_change_points(std::span<const RunPoint> series, Worse worse) {
    const auto steps = replay_steps(series, 0, GateOptions{});
    std::vector<ChangePoint> out;
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const std::size_t a = s == 0 ? 0 : steps[s - 1].index;
        const std::size_t c = s + 1 < steps.size() ? steps[s + 1].index : series.size();
        ChangePoint point;
        point.index = steps[s].index;
        size_between(series, a, point.index, c, point);
        point.p_value = steps[s].p_value;
        point.regression =
            worse == Worse::up ? point.after > point.before : point.after < point.before;
        out.push_back(point);
    }
    return out;
}

}  // namespace perfgauge::harness
