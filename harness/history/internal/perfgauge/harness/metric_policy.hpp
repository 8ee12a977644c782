// What a stored metric is, for judging and printing it: which way is worse, the smallest change
// worth a regression, and its unit in words. Pure: from the metric's name, stored unit and
// whether its series is deterministic.
#pragma once

#include <string>

#include "perfgauge/harness/change_points.hpp"

namespace perfgauge::harness {

struct MetricPolicy {
    enum class Quantity { time, count, rate };
    Quantity quantity = Quantity::count;
    Worse worse = Worse::up;
    /// The default --min-change: a time 2% (below it a shared machine's noise decides more
    /// than the code, and few changes are worth blocking a merge for), a count 1%, an exact
    /// (deterministic) count 0.5%: counted to the last event, a half-percent more instructions
    /// is real, while 10 more branch-misses of 517,860 are not worth a failed build.
    double min_change = 0.01;
    std::string per;  ///< what the value is per: "item", "run", "iteration", ...
};

/// `unit` as history stores it ("ns/item", "count/run", "bytes_per_second/run", ...).
MetricPolicy metric_policy(const std::string& metric, const std::string& unit, bool exact);

/// A value in its unit with an SI prefix: 6.91757e+07 ns/run of task-clock -> "69.2 ms/run",
/// 517860 branch-misses/item -> "517.9k/item".
std::string format_metric_value(double value, const MetricPolicy& policy);

}  // namespace perfgauge::harness
