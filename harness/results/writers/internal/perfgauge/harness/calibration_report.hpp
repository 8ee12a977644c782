// perfgauge calibrate's report: the clocks, the counter snapshots and seed 000's correction
// check (calibration_result.hpp), as a table with the verdict or as JSON
// (docs/schema/calibrate.schema.json). Pure: the cli measures, calls this, and writes.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/calibration_result.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

/// The calibration and both sweeps (`checks`: without counters, then with), in `format`: table
/// (the tables, notes and the one-line verdict) or json; std::invalid_argument for another.
std::string render_calibration(const Calibration& calibration,
                               const std::vector<CorrectionCheck>& checks, OutputFormat format);

}  // namespace perfgauge::harness
