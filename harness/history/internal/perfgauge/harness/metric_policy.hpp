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

/// The unit a stored metric's values are in, as `export` states it: `unit` as stored, except
/// that the software events perf counts in nanoseconds (task-clock, cpu-clock, duration_time)
/// are "ns/PER" where stores written before perfgauge knew it hold "count/PER". `add` stores
/// what this returns, so old and new stores read alike.
std::string metric_unit(const std::string& metric, const std::string& unit);

/// A value in its unit with an SI prefix: 6.91757e+07 ns/run of task-clock -> "69.18 ms/run",
/// 517860 branch-misses/item -> "517.9k/item".
std::string format_metric_value(double value, const MetricPolicy& policy);

/// How a plot's axis reads a series in plain numbers: values times `scale`, in `label`
/// ("ms per run", "thousands per item", "millions per second").
struct AxisScale {
    double scale = 1;
    std::string label;
};

/// The axis for values of about `typical` (e.g. the largest median's magnitude): the prefix
/// format_metric_value would give `typical`, so the axis's numbers fall in [1, 1000).
AxisScale axis_scale(double typical, const MetricPolicy& policy);

}  // namespace perfgauge::harness
