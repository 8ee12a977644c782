// What a stored metric is, for judging and printing it: which way is worse, the smallest change
// worth a regression, and its unit in words. Pure: from the metric's name, stored unit and
// whether its series is deterministic.
#pragma once

#include <string>

#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/history_records.hpp"
#include "perfgauge/harness/history_text.hpp"  // format_metric_value, axis_scale: the writers'

namespace perfgauge::harness {

/// `unit` as history stores it ("ns/item", "count/run", "bytes_per_second/run", ...).
MetricPolicy metric_policy(const std::string& metric, const std::string& unit, bool exact);

/// The unit a stored metric's values are in, as `export` states it: `unit` as stored, except
/// that the software events perf counts in nanoseconds (task-clock, cpu-clock, duration_time)
/// are "ns/PER" where stores written before perfgauge knew it hold "count/PER". `add` stores
/// what this returns, so old and new stores read alike.
std::string metric_unit(const std::string& metric, const std::string& unit);

}  // namespace perfgauge::harness
