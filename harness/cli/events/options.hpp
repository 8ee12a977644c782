// perfgauge events' command line: the options, their help, and the one place they become an
// EventsRequest (a list to resolve, or which catalogue to show).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfgauge/pmu/event_catalog.hpp"

namespace perfgauge::cli {

struct EventsRequest {
    std::optional<std::string> resolve;  ///< --resolve LIST; else the catalogue
    pmu::CatalogOptions catalog;         ///< what the catalogue shows (without --resolve)
    bool verbose = false;
};

/// The request `args` (everything after "events") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options or combinations.
std::optional<EventsRequest> parse_events_request(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
