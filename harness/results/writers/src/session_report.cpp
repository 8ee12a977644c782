#include "perfgauge/harness/session_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

namespace {

// A region whose corrected time is below this share of its raw time is said to rest on what
// was subtracted.
constexpr double kMostlySubtracted = 0.5;

// The rows (and their JSON) of every region, with the notes their values call for.
struct RegionRows {
    TextTable table;
    nlohmann::json json = nlohmann::json::array();
    std::vector<std::string> notes;
    std::vector<std::string> mostly_subtracted;  // "name (80%)"
};

TextTable empty_table(const SessionReport& report, bool depth_column) {
    std::vector<std::string> headers = {"REGION",    "COUNT",  "TIME/ENTRY",
                                        "CORRECTED", "MEDIAN", "SPREAD"};
    if (depth_column)
        headers.insert(headers.begin() + 1, "DEPTH");
    for (const auto& event : report.counted_events)
        headers.push_back(event + "/ENTRY");
    std::vector<TextTable::Align> align(headers.size(), TextTable::Align::right);
    align.front() = TextTable::Align::left;
    return TextTable(headers, align);
}

void add_region(const SessionReport& report, const SessionRegionReport& r, bool depth_column,
                RegionRows& rows) {
    const double n = static_cast<double>(r.count);
    const Summary s = summarize(r.entry_ns);
    const double corrected_ns = shown_corrected(r.corrected_time_ns, r.name + " total time",
                                                rows.notes, CorrectedUnit::nanoseconds);
    const double median_ns =
        shown_corrected(s.median, r.name + " median entry", rows.notes, CorrectedUnit::nanoseconds);
    // IQR / median means nothing around a median shown as 0: "-", null in the JSON.
    const bool spread_shown = median_ns > 0;
    std::vector<std::string> row = {
        depth_column ? r.name : std::string(2 * r.depth, ' ') + r.name,
        std::to_string(r.count),
        format_duration_ns(r.time_ns / n),
        format_duration_ns(corrected_ns / n),
        format_duration_ns(median_ns),
        spread_shown ? fmt::format("{:.1f}%", 100 * s.relative_spread) : "-"};
    if (depth_column)
        row.insert(row.begin() + 1, std::to_string(r.depth));
    nlohmann::json region = {{"name", r.name},
                             {"depth", r.depth},
                             {"count", r.count},
                             {"time_ns_per_entry", r.time_ns / n},
                             {"corrected_ns_per_entry", corrected_ns / n},
                             {"median_corrected_ns", median_ns},
                             {"relative_iqr", spread_shown ? nlohmann::json(s.relative_spread)
                                                           : nlohmann::json(nullptr)},
                             {"entries_in_median", r.entry_ns.size()},
                             {"counters", nlohmann::json::object()}};
    for (std::size_t i = 0; i < report.counted_events.size(); ++i) {
        const auto& event = report.counted_events[i];
        const double c =
            shown_corrected(r.corrected_counters[i], r.name + " total " + event, rows.notes);
        row.push_back(format_si(c / n));
        region["counters"][event] = c / n;
    }
    // (Below zero it has its own note.)
    if (r.time_ns > 0 && r.corrected_time_ns >= 0 &&
        r.corrected_time_ns < kMostlySubtracted * r.time_ns) {
        rows.mostly_subtracted.push_back(
            fmt::format("{} ({:.0f}%)", r.name, 100 * (1 - r.corrected_time_ns / r.time_ns)));
    }
    if (r.entry_ns.size() < r.count) {
        rows.notes.push_back(fmt::format("{}: median and spread over its first {} of {} entries",
                                         r.name, r.entry_ns.size(), r.count));
    }
    rows.table.add_row(std::move(row));
    rows.json.push_back(std::move(region));
}

// What the table cannot show, after the regions' own notes: unoptimized code first (it puts
// every number above in doubt), then the clock and the overhead.
void add_session_notes(const SessionReport& report, RegionRows& rows) {
    auto& notes = rows.notes;
    notes.insert(notes.begin(),
                 fmt::format("clock {}; overhead of one region {} subtracted (CORRECTED, MEDIAN "
                             "and counters); SPREAD = IQR / median of the corrected entries",
                             report.clock, format_duration_ns(report.overhead_ns)));
    if (!report.caller_optimized) {
        // As Google Benchmark warns of a DEBUG build: at -O0 a loop may run tens of times
        // slower than the code that ships (docs/library.md's sum: 16.3 ms instead of 274 us).
        notes.insert(notes.begin(),
                     "built without optimization: the code that made this Session was compiled "
                     "without -O (__OPTIMIZE__ undefined), so these times are not those of the "
                     "code you ship; compile it with -O2 (CMake: -DCMAKE_BUILD_TYPE=Release)");
    }
    if (!rows.mostly_subtracted.empty()) {
        // What remains is a small difference of two large numbers, each calibrated to a few
        // percent (with software counters, whose reads are system calls, a child's cost moved
        // by 7-15% between processes here).
        notes.push_back(fmt::format(
            "mostly measurement subtracted (its own, and the regions' inside it), as a share of "
            "raw time: {}; a corrected time there is uncertain by several percent of the raw",
            fmt::join(rows.mostly_subtracted, ", ")));
    }
    for (const auto& [inner, outer] : report.closed_with_parent) {
        notes.push_back(fmt::format(
            "'{}' was still open when '{}' around it closed: it closed with it, its time "
            "ending there (regions closed out of order)",
            inner, outer));
    }
    if (!report.still_open.empty()) {
        std::vector<std::string> quoted;
        for (const auto& name : report.still_open)
            quoted.push_back("'" + name + "'");
        notes.push_back(
            fmt::format("still open when this report was made (their open entries "
                        "are not included): {}",
                        fmt::join(quoted, ", ")));
    }
    if (const std::size_t elsewhere = report.regions_ended_elsewhere; elsewhere > 0) {
        notes.push_back(fmt::format(
            "{} region{} ended on another thread than the session's, each dropped uncounted if "
            "still open then (a Region must end on the thread that opened it; each thread that "
            "measures makes its own Session)",
            elsewhere, elsewhere == 1 ? "" : "s"));
    }
    if (report.bookkeeping_count > 0) {
        notes.push_back(fmt::format(
            "perfgauge's own bookkeeping inside regions (new names, entry buffers growing): {} "
            "time{}, {} in all, taken out of the regions around it",
            report.bookkeeping_count, report.bookkeeping_count == 1 ? "" : "s",
            format_duration_ns(report.bookkeeping_ns)));
    }
    for (const auto& u : report.not_counted)
        notes.push_back(fmt::format("not counted: {}", u));
}

std::string session_json(const SessionReport& report, const RegionRows& rows) {
    const nlohmann::json j = {{kSchemaVersionKey, kResultSchemaVersion},
                              {"clock", report.clock},
                              {"overhead_ns", report.overhead_ns},
                              {"nested_overhead_ns", report.nested_overhead_ns},
                              {"bookkeeping_count", report.bookkeeping_count},
                              {"bookkeeping_ns", report.bookkeeping_ns},
                              {"regions_ended_elsewhere", report.regions_ended_elsewhere},
                              {"caller_optimized", report.caller_optimized},
                              {"regions", rows.json},
                              {"not_counted", report.not_counted},
                              {"notes", rows.notes}};
    // Names are the user's bytes: invalid UTF-8 becomes U+FFFD rather than an exception.
    return json_text(j);
}

// Every region's row and the notes they call for. CSV gives the nesting as a DEPTH column (the
// other formats indent the name).
RegionRows region_rows(const SessionReport& report, bool depth_column) {
    RegionRows rows{empty_table(report, depth_column), nlohmann::json::array(), {}, {}};
    for (const auto& region : report.regions)
        add_region(report, region, depth_column, rows);
    add_session_notes(report, rows);
    return rows;
}

std::string render_table(const SessionReport& report) {
    const RegionRows rows = region_rows(report, false);
    std::string out = rows.table.render();
    for (const auto& note : rows.notes)
        out += note + "\n";
    return out;
}

std::string render_csv(const SessionReport& report) {
    return region_rows(report, true).table.render_csv();
}

std::string render_json(const SessionReport& report) {
    return session_json(report, region_rows(report, false));
}

std::string render_markdown(const SessionReport& report) {
    const RegionRows rows = region_rows(report, false);
    std::string out = rows.table.render_markdown() + "\n";
    for (const auto& note : rows.notes)
        out += "- " + note + "\n";
    return out;
}

}  // namespace

double shown_corrected(double value, const std::string& what, std::vector<std::string>& notes,
                       CorrectedUnit unit) {
    if (value >= 0)
        return value;
    notes.push_back(fmt::format(
        "{}: corrected {} is below zero (within the calibration's noise, or the region is "
        "emptier than an empty region); shown as 0",
        what, unit == CorrectedUnit::nanoseconds ? format_duration_ns(value) : format_si(value)));
    return 0;
}

std::string render_session_report(const SessionReport& report, OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
            return render_table(report);
        case OutputFormat::csv:
            return render_csv(report);
        case OutputFormat::json:
            return render_json(report);
        case OutputFormat::markdown:
            return render_markdown(report);
        case OutputFormat::bmf:
        case OutputFormat::answer:
            break;
    }
    no_writer("a Session report", format);
}

}  // namespace perfgauge::harness
