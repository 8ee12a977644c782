// perfgauge's own words for the remedies pmu can only name (pmu::ToolHint): which perfgauge
// command or option does it. Added to refusals before a result is written.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/pmu/tool_hint.hpp"

namespace perfgauge::cli {

/// "run 'perfgauge events' to list ...", ...; empty for ToolHint::none.
std::string hint_text(pmu::ToolHint hint);

/// `fix` followed by the hint's words ("; "-separated; either may be empty).
std::string with_hint(const std::string& fix, pmu::ToolHint hint);

/// Every refused event's fix gains its hint's words (each column once: the hint is kept for
/// readers, and the words are in the fix from then on).
template <typename Column>
void add_cli_hints(std::vector<Column>& events) {
    for (harness::EventColumn& e : events) {
        if (!e.counted && e.refusal.hint != pmu::ToolHint::none &&
            e.refusal.fix.find(hint_text(e.refusal.hint)) == std::string::npos)
            e.refusal.fix = with_hint(e.refusal.fix, e.refusal.hint);
    }
}

}  // namespace perfgauge::cli
