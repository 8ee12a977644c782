// The events this machine knows, and whether the kernel will open each of them here.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::pmu {

struct CatalogEntry {
    std::string
        name;  ///< what to type after -e ("cycles", "RETIRED_INSTRUCTIONS", "sched:sched_switch")
    std::string pmu;  ///< libpfm4 PMU name, or "tracepoint"
    EventKind kind = EventKind::software;
    std::string description;
    bool probed = false;       ///< whether an open was attempted
    int open_error = 0;        ///< 0: the kernel opened it here; else the errno (when probed)
    std::string encode_error;  ///< set when libpfm4 cannot encode it without more attributes
};

struct CatalogOptions {
    std::string filter;  ///< case-insensitive substring of the name or "pmu::name"; empty: all
    bool tracepoints = false;  ///< include tracefs tracepoints (can be thousands)
    bool try_open = true;      ///< probe each event with perf_event_open
    /// Also open every tracepoint (with try_open). Off by default: opening and closing a
    /// tracepoint waits for the kernel to (un)register its probe, ~25 ms each, minutes for
    /// all of them, and the answer depends on privileges, not on the tracepoint.
    bool probe_each_tracepoint = false;
    /// Called after each tracepoint (done, total), e.g. for a progress line.
    std::function<void(std::size_t done, std::size_t total)> tracepoint_progress;
};

/// Events of every libpfm4 PMU present (generic perf names spelled as perf spells them), plus
/// tracepoints on request. Probing opens and closes each event once, disabled, user space only.
std::vector<CatalogEntry> list_events(const CatalogOptions& options);

}  // namespace perfgauge::pmu
