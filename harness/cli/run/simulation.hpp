// The simulated backend's one option-facing piece, for run and stat: whether --backend lets
// them simulate, in the option's own words. The simulation itself is harness/pipeline's.
#pragma once

#include <optional>
#include <string>

#include "perfgauge/harness/event_plan.hpp"

namespace perfgauge::cli {

/// valgrind's path when `backend` may simulate with it (nullopt: do not simulate). --backend sim
/// insists: std::runtime_error (exit 1) when valgrind is missing or this build cannot run under
/// it. For run and stat.
std::optional<std::string> simulation_valgrind(harness::Backend backend);

}  // namespace perfgauge::cli
