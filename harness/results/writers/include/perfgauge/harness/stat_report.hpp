// Rendering a StatResult: console table, CSV, JSON, Markdown (pure functions).
#pragma once

#include <string>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/stat_result.hpp"

namespace perfgauge::harness {

/// CSV columns, in this order (stable; new columns are only ever appended):
///   event,value,unit,running_fraction,status,kind,runs,min,max,mad,reason,source
/// value is the median over the runs (empty when not counted); running_fraction is the lowest
/// over the runs; mad is the median absolute deviation; source is hw, sw or sim.
/// After one row per event, in the same columns: a row `elapsed` (kind and unit "elapsed" and
/// "s", status "measured", empty source: the wall clock, not a counter) when runs completed,
/// rows `user` and `sys` (kind "cpu-time", unit "s": the CPU time in user and kernel mode),
/// then one row per derived ratio (IPC, miss rates, CPUs utilized; kind and status "derived",
/// source that of its inputs, e.g. "hw" or "hw+sim").
inline constexpr const char* kStatCsvHeader =
    "event,value,unit,running_fraction,status,kind,runs,min,max,mad,reason,source";

std::string render_stat(const StatResult& result, OutputFormat format);

/// Side by side: each command's medians and spreads in one table, then every command against
/// the first (`comparison`, from compare_side_by_side). JSON: {"side_by_side": true, "labels",
/// "commands": [each command as render_stat's JSON], "comparison": as perfgauge compare writes
/// it, rounds, warmup, prepare, exit_status, failed, notes, interrupted}. CSV: the stat CSV's
/// rows of every command, with a leading `command` column and, for every command after the
/// first, its comparison with the first in trailing columns
/// (ratio,change_pct,ci_low_pct,ci_high_pct,verdict,method).
std::string render_side_by_side(const SideBySideResult& result, const Comparison& comparison,
                                OutputFormat format);

}  // namespace perfgauge::harness
