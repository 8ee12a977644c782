// perfgauge stat's stages, after its request is parsed: plan (the events on the backend) ->
// run the commands (alone, or side by side) -> simulate each once more under callgrind within
// the budget, or say why not. The command calls them in turn, then renders and writes.
#pragma once

#include <optional>
#include <string>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/pipeline_messages.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_request.hpp"
#include "perfgauge/harness/terminal_progress.hpp"

namespace perfgauge::harness {

/// The events resolved for the request's backend, and the runs built from the request.
struct StatPlan {
    std::optional<std::string> valgrind;
    EventPlan events;
    SideBySideOptions runs;
};

/// The plan of `request`, simulating with `valgrind` when it is given.
StatPlan plan_stat(const StatRequest& request, std::optional<std::string> valgrind);

/// The counted runs: one command alone, or side by side (also a single command's warmups and
/// --prepare, said in its notes).
SideBySideResult run_commands(const StatRequest& request, const StatPlan& plan);

/// Each command's simulated events: counted once more under callgrind while the budget holds
/// the runs left (`native_seconds`: the native runs' wall time), or marked why not; the time
/// left shown on `progress`.
void simulate_commands(const StatRequest& request, const StatPlan& plan, SideBySideResult& result,
                       TerminalProgress& progress, double native_seconds, const Messages& say);

}  // namespace perfgauge::harness
