// Reading result files named on the command line (compare, export).
#pragma once

#include <string>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::cli {

/// The file's text; UsageError when it cannot be read.
std::string read_input_file(const std::string& path);
/// A perfgauge run or stat result, or a Google Benchmark result (RunResult::kind says which);
/// UsageError when it is none of them (says why).
harness::RunResult read_any_result_file(const std::string& path);

}  // namespace perfgauge::cli
