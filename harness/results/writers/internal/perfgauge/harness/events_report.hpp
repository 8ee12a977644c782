// perfgauge events' reports (event_listing.hpp): a resolved event list, group by group, and
// the catalogue of events, as console tables. Pure: the cli resolves and probes, calls these
// and writes.
#pragma once

#include <cstdint>
#include <string>

#include "perfgauge/harness/event_listing.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

/// "0 (hardware)", ..., "4 (raw)", "N (dynamic PMU)": perf_event_attr.type in words.
std::string event_type_text(std::uint32_t type);

/// table: per group its heading and table (and with verbose each attr below it), then why
/// hardware events cannot be opened; std::invalid_argument for another format.
std::string render_resolved_events(const ResolvedEventList& list, OutputFormat format);

/// table: the catalogue's table, how many events (and opened), why hardware events cannot be
/// opened, and whether tracepoints can be counted; std::invalid_argument for another format.
std::string render_event_catalog(const EventCatalogListing& listing, OutputFormat format);

}  // namespace perfgauge::harness
