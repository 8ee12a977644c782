// Rendering a StatResult: console table, CSV, JSON, Markdown (pure functions).
#pragma once

#include <string>

#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/stat_result.hpp"

namespace perfgauge::harness {

/// CSV columns, in this order (stable; new columns are only ever appended):
///   event,value,unit,running_fraction,status,kind,runs,min,max,mad,reason,source
/// value is the median over the runs (empty when not counted); running_fraction is the lowest
/// over the runs; mad is the median absolute deviation; source is hw, sw or sim.
/// After one row per event, in the same columns: a row `elapsed` (kind and unit "elapsed" and
/// "s", status "measured", empty source: the wall clock, not a counter) when runs completed,
/// then one row per derived ratio (IPC, miss rates, CPUs utilized; kind and status "derived",
/// source that of its inputs, e.g. "hw" or "hw+sim").
inline constexpr const char* kStatCsvHeader =
    "event,value,unit,running_fraction,status,kind,runs,min,max,mad,reason,source";

std::string render_stat(const StatResult& result, OutputFormat format);

}  // namespace perfgauge::harness
