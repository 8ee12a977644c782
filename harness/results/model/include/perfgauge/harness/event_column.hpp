// One counted quantity of a result, typed: its name, kind, where its values come from, whether
// it was counted and, when not, why. Every result (run, stat, Session) describes its events
// with these; only writers turn them into text and only readers parse that text back.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "perfgauge/pmu/event_kind.hpp"
#include "perfgauge/pmu/tool_hint.hpp"

namespace perfgauge::harness {

/// Where values come from, as every report labels them: the kernel's counters of a hardware
/// PMU, the kernel's software counters and tracepoints, valgrind's callgrind simulation, or a
/// benchmark's own report (Google Benchmark's user counters: perfgauge cannot know what counted
/// them, so it never calls them hw or sw).
enum class EventSource { hardware, software, simulated, reported };

/// "hw", "sw", "sim", "user": the one spelling, used by every writer.
constexpr std::string_view source_name(EventSource source) {
    switch (source) {
        case EventSource::hardware:
            return "hw";
        case EventSource::software:
            return "sw";
        case EventSource::simulated:
            return "sim";
        case EventSource::reported:
            return "user";
    }
    return "?";
}

constexpr std::optional<EventSource> parse_source(std::string_view text) {
    for (const EventSource s : {EventSource::hardware, EventSource::software,
                                EventSource::simulated, EventSource::reported}) {
        if (source_name(s) == text)
            return s;
    }
    return std::nullopt;
}

/// The source of a natively counted event of that kind: software events and tracepoints are
/// "sw", everything a PMU counts is "hw".
constexpr EventSource native_source(pmu::EventKind kind) {
    return pmu::needs_hardware_pmu(kind) ? EventSource::hardware : EventSource::software;
}

/// Why an event was not counted, in words a user can act on.
struct EventRefusal {
    std::string status;  ///< short, like perf stat: "not supported", "not simulated", ...
    std::string reason;  ///< why, for this event on this machine
    std::string fix;     ///< what to do about it (may be empty)
    /// A further remedy in the program's own words: a program adds them to `fix` before it
    /// writes the result (perfgauge's CLI names its commands); a library user reads it here.
    pmu::ToolHint hint = pmu::ToolHint::none;

    bool operator==(const EventRefusal&) const = default;
};

struct EventColumn {
    std::string name;  ///< as written, modifiers included
    pmu::EventKind kind = pmu::EventKind::software;
    EventSource source = EventSource::software;
    bool counted = true;   ///< false: nothing counted it (values are 0); refusal says why
    EventRefusal refusal;  ///< empty when counted

    bool operator==(const EventColumn&) const = default;
};

/// A column counted natively with the kernel's counters.
inline EventColumn native_column(std::string name, pmu::EventKind kind, bool counted,
                                 EventRefusal refusal = {}) {
    return {std::move(name), kind, native_source(kind), counted, std::move(refusal)};
}

/// "counted", or the refusal's status ("not supported", "not counted", ...).
inline std::string status_text(const EventColumn& c) {
    return c.counted ? "counted" : c.refusal.status;
}

/// "not supported: this machine exposes no hardware PMU ..." (status and reason; the status
/// alone when there is no reason).
inline std::string refusal_text(const EventRefusal& r) {
    return r.reason.empty() ? r.status : r.status + ": " + r.reason;
}
/// The column's refusal_text.
inline std::string refusal_text(const EventColumn& c) {
    return refusal_text(c.refusal);
}

/// "cycles: not supported: this machine exposes no hardware PMU ..." (name, status and reason).
inline std::string refusal_line(const EventColumn& c) {
    return c.name + ": " + refusal_text(c);
}

}  // namespace perfgauge::harness
