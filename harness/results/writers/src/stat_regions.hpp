// The per-region part of a `perfgauge stat` report: simulated counts of the command's Session
// regions (StatResult::regions), as JSON and as a table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "perfgauge/harness/stat_result.hpp"

namespace perfgauge::harness {

/// [{name, count, source: "sim", counters: {event: total}}], in order of first entry.
nlohmann::json regions_json(const StatResult& r);

/// A table (REGION, COUNT, one column per event, totals) headed as simulated; "" without
/// regions. Markdown when `markdown`.
std::string regions_text(const StatResult& r, bool markdown);

}  // namespace perfgauge::harness
