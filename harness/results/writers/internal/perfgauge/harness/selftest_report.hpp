// perfgauge selftest's reports (selftest_summary.hpp, counter_check.hpp): the table and notes
// on stdout, the JSON of --json (docs/schema/selftest.schema.json), and selftest --counters'
// lines and JSON (docs/schema/selftest-counters.schema.json). Pure: the cli measures, fills
// the data, calls these and writes.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/counter_check.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/selftest_summary.hpp"

namespace perfgauge::harness {

/// table: the figures of every way side by side, the notes, the correction check, what was
/// not covered or measured, the verdict, then the counter checks (or why they were not run);
/// json: the same figures with "counter_checks". std::invalid_argument for another format.
std::string render_selftest(const SelftestSummary& summary, OutputFormat format);

/// selftest --counters. table: a heading, then "pass        instructions: ...", one line per
/// check; json: {"schema_version", "checks": [{"name", "verdict", "measured", "expected",
/// "unit", "detail"}, ...]}. std::invalid_argument for another format.
std::string render_counter_checks(const std::vector<CounterCheck>& checks, OutputFormat format);

}  // namespace perfgauge::harness
