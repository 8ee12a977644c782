// Reading back a result that render_run wrote as JSON (perfgauge run -o R.json), for export and
// compare. Pure: text in, RunResult out.
#pragma once

#include <stdexcept>
#include <string>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// The text is not a perfgauge result (not JSON, or JSON of another kind); the message says
/// which and what was expected.
class ResultFileError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Rebuilds what the reporters and comparisons use: events and their kinds, every sample per
/// benchmark (time and counters, raw and corrected), params, running fractions, warnings and
/// the workload context. System information comes back only as far as the JSON carries it
/// (CPU, kernel, caches). `origin` names the source in error messages.
RunResult parse_run_json(const std::string& text, const std::string& origin);

}  // namespace perfgauge::harness
