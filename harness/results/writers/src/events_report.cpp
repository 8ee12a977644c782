#include "perfgauge/harness/events_report.hpp"

#include <fmt/format.h>

#include <iterator>

#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

namespace {

// Appends to `out`, formatted.
template <class... Args>
void append(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string resolved_table(const ResolvedEventList& list) {
    std::string out;
    for (std::size_t g = 0; g < list.groups.size(); ++g) {
        const auto& group = list.groups[g];
        const std::size_t n = group.events.size();
        append(out, "group {}{}: {} event{}\n", g + 1, group.explicit_group ? " {...}" : "", n,
               n == 1 ? "" : "s");
        TextTable table({"  EVENT", "KIND", "TYPE", "CONFIG", "COUNTS", "OPENS HERE", "ENCODING"});
        for (std::size_t i = 0; i < n; ++i) {
            const auto& e = group.events[i];
            table.add_row({fmt::format("  {}{}", e.name, i == 0 && n > 1 ? " (leader)" : ""),
                           e.kind, event_type_text(e.type),
                           fmt::format("{:#x}", static_cast<unsigned long long>(e.config)),
                           e.counts, e.opens_here, e.encoding});
        }
        out += table.render();
        // Below the table, not in it: one long attr line would widen every row's first column.
        for (std::size_t i = 0; list.verbose && i < n; ++i)
            append(out, "  attr of {}: {}\n", group.events[i].name, group.events[i].attr);
    }
    if (list.hardware_problem) {
        append(out, "\nhardware events cannot be opened here: {}\n  fix: {}\n",
               list.hardware_problem->reason, list.hardware_problem->fix);
    }
    return out;
}

std::string catalog_table(const EventCatalogListing& listing) {
    TextTable table({"EVENT", "PMU", "KIND", "OPENS HERE", "DESCRIPTION"});
    for (const auto& e : listing.rows) {
        table.add_row({e.name, e.pmu, e.kind, e.opens_here,
                       listing.verbose ? e.description : truncate(e.description, 60)});
    }
    std::string out = table.render();
    append(out, "\n{} events", listing.rows.size());
    if (listing.tried) {
        if (listing.probed == listing.rows.size())
            append(out, ", {} can be opened here", listing.openable);
        else
            append(out, ", {} of the {} tried can be opened here", listing.openable,
                   listing.probed);
    }
    out += ".\n";
    if (listing.hardware_problem) {
        append(out, "Hardware events cannot be opened here: {}\n  fix: {}\n",
               listing.hardware_problem->reason, listing.hardware_problem->fix);
    }
    if (const auto& sample = listing.sample_tracepoint) {
        append(out,
               "Tracepoints were not opened one by one (--probe-tracepoints does, at ~25 ms "
               "each); {} {}.\n",
               sample->name,
               sample->refused ? "cannot be opened here: " + *sample->refused
                               : std::string("opened, so this process can count tracepoints"));
    }
    return out;
}

// A report written as a table only: every other format is no_writer's error. The switch has no
// default: a format added to the enum must be said here, once for both reports.
template <typename Table>
std::string table_only(OutputFormat format, std::string_view report, const Table& table) {
    switch (format) {
        case OutputFormat::table:
            return table();
        case OutputFormat::csv:
        case OutputFormat::json:
        case OutputFormat::markdown:
        case OutputFormat::bmf:
        case OutputFormat::answer:
            break;
    }
    no_writer(report, format);
}

}  // namespace

std::string event_type_text(std::uint32_t type) {
    // perf_event_attr.type's fixed values (linux/perf_event.h's PERF_TYPE_*, kernel ABI), by
    // number: the results library includes no kernel header. Above them, a PMU of sysfs.
    switch (type) {
        case 0:
            return "0 (hardware)";
        case 1:
            return "1 (software)";
        case 2:
            return "2 (tracepoint)";
        case 3:
            return "3 (hw-cache)";
        case 4:
            return "4 (raw)";
        default:
            return fmt::format("{} (dynamic PMU)", type);
    }
}

std::string render_resolved_events(const ResolvedEventList& list, OutputFormat format) {
    return table_only(format, "events --resolve's report", [&] { return resolved_table(list); });
}

std::string render_event_catalog(const EventCatalogListing& listing, OutputFormat format) {
    return table_only(format, "the events catalogue", [&] { return catalog_table(listing); });
}

}  // namespace perfgauge::harness
