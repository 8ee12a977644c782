// Bencher Metric Format (BMF), the JSON that continuous-benchmarking dashboards (Bencher) take:
//   {"<benchmark>": {"<measure>": {"value": v, "lower_value": lo, "upper_value": hi}}}
// Pure: a RunResult of any kind in, text out.
#pragma once

#include <string>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// The BMF name of a counter: its event name, with " [sim]" for simulated counts, which are a
/// different measurement from the hardware's and must not land in the same series.
std::string bmf_measure_name(const EventColumn& event);

/// One BMF benchmark per benchmark with samples: measure "latency" (Bencher's built-in measure,
/// in ns) is the median time per item (per run for stat results, per iteration for Google
/// Benchmark's), and each counted event its median per item; lower_value and upper_value are the
/// distribution-free interval of that median (median_interval at `confidence`; [min, max] when
/// there are too few samples for it). Samples left out of the statistics (disturbed) are left
/// out here too; events not counted, and benchmarks without samples, are omitted.
std::string render_bmf(const RunResult& result, double confidence = 0.95);

}  // namespace perfgauge::harness
