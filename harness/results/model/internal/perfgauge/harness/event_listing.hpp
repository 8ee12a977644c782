// What perfgauge events found, as data for its writer (events_report.hpp): an event list
// resolved group by group, or the catalogue of events with whether each opens here. The cli
// resolves, probes and diagnoses (pmu), fills these, and writes what the writer makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfgauge::harness {

/// Why hardware events cannot be opened here, and what would fix it (pmu's diagnosis).
struct OpenProblem {
    std::string reason;
    std::string fix;
};

/// One event of a resolved list.
struct ResolvedEventRow {
    std::string name;
    std::string kind;          ///< pmu's kind name
    std::uint32_t type = 0;    ///< perf_event_attr.type
    std::uint64_t config = 0;  ///< perf_event_attr.config
    std::string counts;        ///< which privilege levels it counts (pmu's privilege_text)
    std::string opens_here;    ///< "yes", or the diagnosis' status
    std::string encoding;
    std::string attr;  ///< the whole perf_event_attr (pmu's dump_attr), shown with -v
};

struct ResolvedEventGroup {
    bool explicit_group = false;  ///< written {...}
    std::vector<ResolvedEventRow> events;
};

/// events --resolve LIST.
struct ResolvedEventList {
    std::vector<ResolvedEventGroup> groups;
    bool verbose = false;  ///< each event's perf_event_attr below its group's table
    std::optional<OpenProblem> hardware_problem;  ///< the first hardware event's that failed
};

/// One event of the catalogue.
struct CatalogRow {
    std::string name, pmu, kind;
    std::string opens_here;  ///< "yes", the diagnosis' status, "needs attributes" or "-"
    std::string description;
};

/// Whether this process can count tracepoints, from one of them opened (when they were not
/// opened one by one).
struct SampleTracepoint {
    std::string name;
    std::optional<std::string> refused;  ///< why it cannot be opened; nullopt: it opened
};

/// events [FILTER]: the catalogue.
struct EventCatalogListing {
    std::vector<CatalogRow> rows;
    bool verbose = false;      ///< full descriptions, else cut at 60 columns
    bool tried = false;        ///< each event was opened once (not --no-probe)
    std::size_t probed = 0;    ///< events opened to try them
    std::size_t openable = 0;  ///< of those, the ones that opened
    std::optional<OpenProblem> hardware_problem;
    std::optional<SampleTracepoint> sample_tracepoint;
};

}  // namespace perfgauge::harness
