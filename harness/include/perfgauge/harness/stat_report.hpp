// Rendering a StatResult: console table, CSV, JSON, Markdown (pure functions).
#pragma once

#include <string>

#include "perfgauge/harness/stat.hpp"

namespace perfgauge::harness {

enum class OutputFormat { table, csv, json, markdown };

/// "table", "csv", "json", "md"/"markdown"; throws std::invalid_argument naming the choices.
OutputFormat parse_output_format(const std::string& text);

/// CSV columns, in this order (stable; new columns are only ever appended):
///   event,value,unit,running_fraction,status,kind,runs,min,max,mad,reason,source
/// value is the median over the runs (empty when not counted); running_fraction is the lowest
/// over the runs; mad is the median absolute deviation; source is hw, sw or sim.
inline constexpr const char* kStatCsvHeader =
    "event,value,unit,running_fraction,status,kind,runs,min,max,mad,reason,source";

std::string render_stat(const StatResult& result, OutputFormat format);

}  // namespace perfgauge::harness
