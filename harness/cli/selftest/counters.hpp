// selftest's counter checks, said: one line per check (pass, fail or unavailable, and why) and
// the JSON's `checks` list (docs/schema/selftest-counters.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfgauge/harness/counter_judging.hpp"

namespace perfgauge::cli {

/// "pass        instructions: 3 n + 10369 exactly for ...", one line per check.
std::string render_counter_checks(const std::vector<harness::CounterCheck>& checks);

/// [{"name", "verdict", "measured", "expected", "unit", "detail"}, ...]
nlohmann::json counter_checks_json(const std::vector<harness::CounterCheck>& checks);

/// selftest --counters: runs the checks, prints them, writes `json_path` when not empty
/// ({"schema_version", "checks"}). Exit 0 whatever the checks find.
int counter_selftest(const std::string& json_path);

/// The counter section of the default selftest: the checks when a hardware event opens here,
/// else one line saying why they were not run. Adds "counter_checks" to `report` either way.
std::string counter_section(nlohmann::json& report);

}  // namespace perfgauge::cli
