// Event names as written, taken apart without parsing a whole list. Header-only (part of
// perfgauge::pmu_vocabulary) so that code which only describes counts can use it.
#pragma once

#include <string_view>

namespace perfgauge::pmu {

/// The name without its trailing privilege modifiers: "instructions:u" -> "instructions",
/// "zen3::RETIRED_INSTRUCTIONS:uk" -> "zen3::RETIRED_INSTRUCTIONS". A PMU prefix ("::") and a
/// tracepoint's "subsystem:event" are not modifiers and stay. The same rule the event-list
/// parser applies when it splits a term (which also reports bad modifiers; this does not).
constexpr std::string_view without_modifiers(std::string_view written) {
    const auto colon = written.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || written[colon - 1] == ':')
        return written;
    const auto segment = written.substr(colon + 1);
    if (segment.empty() || segment.find_first_not_of("uk") != std::string_view::npos)
        return written;
    return written.substr(0, colon);
}

static_assert(without_modifiers("instructions:u") == "instructions");
static_assert(without_modifiers("cycles:uk") == "cycles");
static_assert(without_modifiers("perf::cycles") == "perf::cycles");
static_assert(without_modifiers("sched:sched_switch") == "sched:sched_switch");
static_assert(without_modifiers("task-clock") == "task-clock");

}  // namespace perfgauge::pmu
