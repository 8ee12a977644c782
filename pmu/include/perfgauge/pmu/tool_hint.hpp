// A remedy that takes the program's own tools. pmu knows *that* listing the events, showing an
// event's encoding, simulating or granting CAP_PERFMON to the program would help, but not how
// the program spells it (a command, an option, a function): pmu never names a command. The
// program adds its own words (perfgauge's CLI: cli/hints). Header-only vocabulary.
#pragma once

#include <optional>
#include <string_view>

namespace perfgauge::pmu {

enum class ToolHint {
    none,
    list_events,    ///< list the events this machine can open
    show_encoding,  ///< show how an event was encoded (perf_event_attr, libpfm4 attributes)
    simulate,       ///< count instructions, branches and cache misses by simulation instead
    grant_perfmon,  ///< give this program CAP_PERFMON
};

/// One spelling per hint, for result files: "none", "list-events", "show-encoding",
/// "simulate", "grant-perfmon".
constexpr std::string_view hint_name(ToolHint hint) {
    switch (hint) {
        case ToolHint::none:
            return "none";
        case ToolHint::list_events:
            return "list-events";
        case ToolHint::show_encoding:
            return "show-encoding";
        case ToolHint::simulate:
            return "simulate";
        case ToolHint::grant_perfmon:
            return "grant-perfmon";
    }
    return "none";
}

constexpr std::optional<ToolHint> parse_hint(std::string_view text) {
    for (const ToolHint h : {ToolHint::none, ToolHint::list_events, ToolHint::show_encoding,
                             ToolHint::simulate, ToolHint::grant_perfmon}) {
        if (hint_name(h) == text)
            return h;
    }
    return std::nullopt;
}

}  // namespace perfgauge::pmu
