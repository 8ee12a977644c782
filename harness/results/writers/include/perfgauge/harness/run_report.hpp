// Rendering a RunResult: console table, CSV, Markdown, and JSON that is a superset of Google
// Benchmark's format (so its compare.py reads it). Pure functions over the result model.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/drift_flag.hpp"  // flagged_drift, which reports flag entries by
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/precision.hpp"  // median_precision, which reports flag against
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

/// CSV columns, in this order (stable; new columns are only ever appended), then one
/// `<event>_per_item` column (median) per event in the result's event order, then one
/// `<event>_source` column per event (hw, sw or sim; empty when not counted):
inline constexpr const char* kRunCsvFixedColumns =
    "name,samples,iterations_per_sample,items_per_iteration,ns_per_item_median,ns_per_item_p25,"
    "ns_per_item_p75,ns_per_item_min,ns_per_item_max,ns_per_item_raw_median,relative_iqr,unstable,"
    "items_per_second,bytes_per_second,disturbed_samples,precision,drift,drift_p";

/// JSON layout: {"context": {...Google Benchmark context..., "perfgauge": {...}},
///               "benchmarks": [one "iteration" entry per sample, then a "median" aggregate]}.
/// Times are per iteration in ns (real_time = cpu_time: perfgauge measures wall time with the
/// calibrated clock); counters are per item under their event names; perfgauge detail is in
/// keys starting with "perfgauge_". bmf: render_bmf's. answer: std::invalid_argument (the
/// decoders' answer is render_answer's, over build_answer).
std::string render_run(const RunResult& result, OutputFormat format);

}  // namespace perfgauge::harness
