// Inside the results library: the pieces of a stat report that the side-by-side report shows
// per command, so both render one command alike.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfgauge/harness/command_text.hpp"
#include "perfgauge/harness/stat_result.hpp"

namespace perfgauge::harness::detail {

/// Counts as integers when they are (unscaled counts), else with 2 decimals.
std::string number_text(double v);
/// Console value and unit: time events in msec like perf stat.
std::pair<std::string, std::string> display_value(const StatEventResult& e);
/// "+-1.2%": the median absolute deviation as a share of the median ("" for one run).
std::string spread_text(const StatEventResult& e);
/// "+-1.2%" of a list of values ("" for fewer than two).
std::string spread_text(const std::vector<double>& values);
/// The rows of `stat --format csv` (kStatCsvHeader's columns), without the header.
std::vector<std::vector<std::string>> stat_csv_rows(const StatResult& r);
/// "\n  EVENTS: STATUS: REASON\n    fix: FIX\n", once per distinct reason over `results`.
std::string refusals_text(const std::vector<const StatResult*>& results);
/// One command's result as `stat --format json` writes it.
nlohmann::json stat_json(const StatResult& r);

}  // namespace perfgauge::harness::detail
