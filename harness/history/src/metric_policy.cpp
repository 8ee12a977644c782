#include "perfgauge/harness/metric_policy.hpp"

#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace perfgauge::harness {
namespace {

// Software events whose counts are nanoseconds, as perf counts them.
bool counts_nanoseconds(const std::string& metric) {
    return metric == "task-clock" || metric == "cpu-clock" || metric == "duration_time" ||
           metric == "cpu-time" || metric == "time";
}

bool is_rate(const std::string& metric, const std::string& unit) {
    for (const char* word :
         {"per_second", "per-second", "/s", "throughput", "bytes_per_second", "items_per_second"})
        if (metric.find(word) != std::string::npos || unit.find(word) != std::string::npos)
            return true;
    return false;
}

// The SI prefix (or time unit) a value is shown with: the largest not above its magnitude.
struct Prefix {
    double scale;
    const char* symbol;  ///< "ms", "k", "" ...
    const char* word;    ///< for an axis: "ms", "thousands", "count" ...
};

Prefix prefix_for(double value, MetricPolicy::Quantity quantity) {
    constexpr std::array<Prefix, 4> kTimes{
        {{1e9, "s", "s"}, {1e6, "ms", "ms"}, {1e3, "us", "us"}, {1, "ns", "ns"}}};
    constexpr std::array<Prefix, 5> kCounts{{{1e12, "T", "trillions"},
                                             {1e9, "G", "billions"},
                                             {1e6, "M", "millions"},
                                             {1e3, "k", "thousands"},
                                             {1, "", "count"}}};
    const auto pick = [&](const auto& table) {
        for (const auto& p : table)
            if (std::abs(value) >= p.scale)
                return p;
        return table.back();
    };
    return quantity == MetricPolicy::Quantity::time ? pick(kTimes) : pick(kCounts);
}

}  // namespace

MetricPolicy metric_policy(const std::string& metric, const std::string& unit, bool exact) {
    MetricPolicy p;
    const auto slash = unit.rfind('/');
    p.per = slash == std::string::npos ? "" : unit.substr(slash + 1);
    if (is_rate(metric, unit)) {
        p.quantity = MetricPolicy::Quantity::rate;
        p.worse = Worse::down;
        p.min_change = 0.02;
    } else if (counts_nanoseconds(metric) || unit.starts_with("ns/")) {
        p.quantity = MetricPolicy::Quantity::time;
        p.min_change = 0.02;
    } else {
        p.min_change = exact ? 0.005 : 0.01;
    }
    return p;
}

std::string metric_unit(const std::string& metric, const std::string& unit) {
    if (counts_nanoseconds(metric) && unit.starts_with("count/"))
        return "ns" + unit.substr(unit.find('/'));
    return unit;
}

std::string format_metric_value(double value, const MetricPolicy& policy) {
    const std::string per = policy.per.empty() ? "" : "/" + policy.per;
    if (!std::isfinite(value))
        return fmt::format("{}{}", value, per);
    const Prefix p = prefix_for(value, policy.quantity);
    const char* space = policy.quantity == MetricPolicy::Quantity::time ? " " : "";
    return fmt::format("{:.4g}{}{}{}", value / p.scale, space, p.symbol, per);
}

AxisScale axis_scale(double typical, const MetricPolicy& policy) {
    const Prefix p = prefix_for(std::isfinite(typical) ? typical : 0, policy.quantity);
    const std::string per = policy.quantity == MetricPolicy::Quantity::rate ? "second" : policy.per;
    return {1 / p.scale, per.empty() ? std::string(p.word) : fmt::format("{} per {}", p.word, per)};
}

}  // namespace perfgauge::harness
