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
    for (const char* word : {"per_second", "per-second", "/s", "throughput", "bytes_per_second",
                             "items_per_second"})
        if (metric.find(word) != std::string::npos || unit.find(word) != std::string::npos)
            return true;
    return false;
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

std::string format_metric_value(double value, const MetricPolicy& policy) {
    const std::string per = policy.per.empty() ? "" : "/" + policy.per;
    if (!std::isfinite(value))
        return fmt::format("{}{}", value, per);
    if (policy.quantity == MetricPolicy::Quantity::time) {
        constexpr std::array<std::pair<double, const char*>, 4> kUnits{
            {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}}};
        for (const auto& [scale, name] : kUnits)
            if (std::abs(value) >= scale || scale == 1)
                return fmt::format("{:.4g} {}{}", value / scale, name, per);
    }
    constexpr std::array<std::pair<double, const char*>, 4> kPrefixes{
        {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
    for (const auto& [scale, name] : kPrefixes)
        if (std::abs(value) >= scale)
            return fmt::format("{:.4g}{}{}", value / scale, name, per);
    return fmt::format("{:.4g}{}", value, per);
}

}  // namespace perfgauge::harness
