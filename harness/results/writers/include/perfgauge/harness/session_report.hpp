// A Session's report (perfgauge/harness/session.hpp): what its regions measured, as a model
// measure fills with numbers and names, rendered here as a table, CSV, Markdown or JSON, so
// that measure writes no text of its own.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

/// One region name with at least one finished entry: its totals and kept entries.
struct SessionRegionReport {
    std::string name;
    std::size_t depth = 0;  ///< nesting depth of its first entry (0: outermost)
    std::size_t count = 0;  ///< entries
    double time_ns = 0;     ///< raw total
    double corrected_time_ns = 0;
    std::vector<double> corrected_counters;  ///< totals, one per SessionReport::counted_events
    std::vector<double> entry_ns;            ///< corrected time of the entries kept
};

struct SessionReport {
    std::string clock;
    double overhead_ns = 0;  ///< of one empty region, subtracted
    double nested_overhead_ns = 0;
    std::size_t bookkeeping_count = 0;
    double bookkeeping_ns = 0;
    std::size_t regions_ended_elsewhere = 0;
    /// Whether the code that made the session was compiled with optimization: false puts
    /// "built without optimization" first among the notes.
    bool caller_optimized = true;
    std::vector<std::string> counted_events;   ///< the columns, in the session's order
    std::vector<SessionRegionReport> regions;  ///< in order of first entry
    /// (inner, outer): a region still open when the one around it closed, and closed with it.
    std::vector<std::pair<std::string, std::string>> closed_with_parent;
    std::vector<std::string> still_open;   ///< regions open now (their open entries left out)
    std::vector<std::string> not_counted;  ///< events the kernel refused, and why
};

/// `report` per entry: the mean raw and corrected time, the median corrected time and its
/// spread (IQR / median), and each counted event's corrected mean; refused events listed once
/// below. A corrected total or median below zero is shown as 0 and said; regions still open
/// are said. Table, CSV, Markdown or JSON; std::invalid_argument for bmf and answer.
std::string render_session_report(const SessionReport& report, OutputFormat format);

/// What a corrected value means: a count, or a time in nanoseconds (written with its unit).
enum class CorrectedUnit { count, nanoseconds };

/// What the report shows for a corrected value (a region's total of time or of a counter over
/// its entries, or its median entry): below zero it is the calibration's noise, not a negative
/// cost, so 0, with a note naming `what` and the value appended to `notes` (pure). A time is
/// written with its unit ("-43.520 us"), a count as a plain number with an SI prefix.
double shown_corrected(double value, const std::string& what, std::vector<std::string>& notes,
                       CorrectedUnit unit = CorrectedUnit::count);

}  // namespace perfgauge::harness
