// Reading results back, for export and compare: perfgauge run's JSON, and - converted into the
// same model at the edge, so that comparing and exporting have one path - perfgauge stat's JSON
// and Google Benchmark's. Pure: text in, RunResult out.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

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

/// `perfgauge stat --format json` as a RunResult of kind stat: one benchmark named after the
/// command (its arguments joined by spaces), one sample per run: time is the run's elapsed
/// (wall-clock) time, each event its count in that run (items_per_iteration 1: the item is a
/// run). Refused (ResultFileError naming `origin`): negative or non-finite times or counts, a
/// running fraction outside [0, 1], an event with another number of samples than runs.
RunResult parse_stat_json(const std::string& text, const std::string& origin);

/// Google Benchmark's JSON (--benchmark_out_format=json) as a RunResult of kind
/// google_benchmark: one benchmark per run_name, one sample per "iteration" entry (repetition):
/// time is real_time per iteration in ns, user counters are events of source `reported`, as
/// written. Aggregates (mean, median, stddev, cv) are ignored: perfgauge computes its own from
/// the samples. items_per_second and bytes_per_second restate the time and are left out.
/// Entries with an error are left out, with a warning. Google Benchmark writes NaN, -NaN,
/// Infinity and -Infinity as bare words (the cv of an all-zero counter is NaN), which JSON does
/// not allow: they are read, and refused only where a sample would use them.
RunResult parse_gbench_json(const std::string& text, const std::string& origin);

/// Whichever of the three kinds `text` holds (RunResult::kind says which); a ResultFileError
/// that names the kinds it reads when it is none of them.
RunResult parse_result_json(const std::string& text, const std::string& origin);

/// Google Benchmark's bare NaN, -NaN, Infinity and -Infinity (outside strings) replaced by the
/// JSON strings "NaN", "-NaN", "Infinity", "-Infinity", so that a standard parser reads the
/// rest; everything else is unchanged. Pure.
std::string quote_non_finite_tokens(std::string_view text);

}  // namespace perfgauge::harness
