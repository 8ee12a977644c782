#include "perfgauge/harness/metric_policy.hpp"

#include <utility>

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

}  // namespace perfgauge::harness
