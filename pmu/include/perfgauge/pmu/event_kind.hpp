// The kinds of event, and their one spelling. Header-only and free of <linux/perf_event.h>, so
// that code which only *describes* counts (the results library, workloads) can name a kind
// without linking or including the counter machinery.
#pragma once

#include <optional>
#include <string_view>

namespace perfgauge::pmu {

/// Where an event is implemented. Everything but `software` and `tracepoint` needs a hardware
/// PMU, which virtual machines often do not expose.
enum class EventKind {
    hardware,    ///< generic hardware event (cycles, instructions, ...)
    hw_cache,    ///< generic cache event (L1-dcache-load-misses, ...)
    software,    ///< kernel software counter (task-clock, page-faults, ...)
    raw,         ///< rNNNN: a model-specific encoding given by hand
    pmu,         ///< a libpfm4 event of a specific PMU (amd64_fam19h_zen3::RETIRED_INSTRUCTIONS)
    tracepoint,  ///< subsystem:event from tracefs
};

/// The one spelling of each kind, used by every writer: "hardware", "hw-cache", "software",
/// "raw", "pmu", "tracepoint".
constexpr std::string_view kind_name(EventKind kind) {
    switch (kind) {
        case EventKind::hardware:
            return "hardware";
        case EventKind::hw_cache:
            return "hw-cache";
        case EventKind::software:
            return "software";
        case EventKind::raw:
            return "raw";
        case EventKind::pmu:
            return "pmu";
        case EventKind::tracepoint:
            return "tracepoint";
    }
    return "unknown";
}

/// The inverse of kind_name(). Also accepts "hw_cache", which results written before kinds had
/// one spelling may contain.
constexpr std::optional<EventKind> parse_kind(std::string_view text) {
    for (const EventKind k : {EventKind::hardware, EventKind::hw_cache, EventKind::software,
                              EventKind::raw, EventKind::pmu, EventKind::tracepoint}) {
        if (kind_name(k) == text)
            return k;
    }
    if (text == "hw_cache")
        return EventKind::hw_cache;
    return std::nullopt;
}

constexpr bool needs_hardware_pmu(EventKind kind) {
    return kind != EventKind::software && kind != EventKind::tracepoint;
}

}  // namespace perfgauge::pmu
