// Rendering a StatResult: console table, CSV, JSON, Markdown (pure functions).
#pragma once

#include <cstddef>
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

/// answer: the table (one command's answer); bmf: std::invalid_argument.
std::string render_stat(const StatResult& result, OutputFormat format);

/// Side by side: each command's medians and spreads in one table, then every command against
/// the first (`comparison`, from compare_side_by_side). JSON: {"side_by_side": true, "labels",
/// "commands": [each command as render_stat's JSON], "comparison": as perfgauge compare writes
/// it, rounds, warmup, prepare, exit_status, failed, notes, interrupted}. CSV: the stat CSV's
/// rows of every command, with a leading `command` column and, for every command after the
/// first, its comparison with the first in trailing columns
/// (ratio,change_pct,ci_low_pct,ci_high_pct,verdict,method). answer: render_side_by_side_answer;
/// bmf: std::invalid_argument.
std::string render_side_by_side(const SideBySideResult& result, const Comparison& comparison,
                                OutputFormat format);

/// The name of command `i` (from 0) in side-by-side reports and progress lines: A, B, ... Z,
/// then 27, 28, ..., short enough for a table's column.
std::string side_by_side_letter(std::size_t i);

/// The answer's bounds for two commands (three or more take a line per command more).
inline constexpr std::size_t kSideBySideAnswerWidth = 80;
inline constexpr std::size_t kSideBySideAnswerLines = 12;

/// Side by side, the answer first (stat's default report): the time verdict of B against A in
/// one sentence, then one row per metric that matters (time, CPU time, the counters that
/// differ) with its change, interval and verdict, and what was left out (--format table has
/// it): at most kSideBySideAnswerLines lines of kSideBySideAnswerWidth columns. Three or more
/// commands: a row per command against A (its time), a line per other metric that differs.
/// One command: the table.
std::string render_side_by_side_answer(const SideBySideResult& result,
                                       const Comparison& comparison);

/// The widest line of `text`, in columns (UTF-8 code points).
std::size_t widest_line(const std::string& text);

}  // namespace perfgauge::harness
