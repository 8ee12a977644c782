// A run's simulation stage, after its native measurement: the simulated events counted under
// callgrind and merged into the native result, or marked why not (no simulation, an interrupt,
// a simulation that failed). How the simulation runs is the caller's (a function), so what a
// failed or interrupted simulation leaves is unit-tested without valgrind.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/simulation.hpp"

namespace perfgauge::harness {

/// Why simulated events have no value when an interrupt (`signal`) stopped the simulation, or
/// (`when`) what ran before it.
EventRefusal interrupted_simulation(int signal,
                                    const std::string& when = "while simulated under callgrind");
/// Why simulated events have no value when an interrupt (`signal`, its name) stopped the native
/// measurement, before any simulation.
EventRefusal interrupted_native_measurement(const std::string& signal);

/// Runs `simulate` unless an interrupt stops it: then nullopt and `result` is marked
/// interrupted. A simulation that throws std::runtime_error otherwise gives a
/// failed_simulation (its events say why) and is recorded as a failed stage
/// (record_stage_failure: exit status 1); the native result is kept. `interrupt_signal` as
/// FanOut's (empty: interrupt_signal()).
std::optional<SimulationResult> simulate_unless_interrupted(
    const std::function<SimulationResult()>& simulate, RunResult& result,
    std::function<int()> interrupt_signal = {});

/// The simulation stage of a run on `backend` whose native result is `result`: when `plan`
/// simulates events and no interrupt came, simulate_unless_interrupted(`simulate`), merged
/// (merge_simulated); when nothing was simulated, the plan's events neither backend counts are
/// still listed (not with --backend perf); when an interrupt came before or during the
/// simulation, the simulated events say so. Returns the simulation merged, if one ran.
std::optional<SimulationResult> simulate_and_merge(
    const EventPlan& plan, Backend backend, const std::function<SimulationResult()>& simulate,
    RunResult& result, std::function<int()> interrupt_signal = {});

}  // namespace perfgauge::harness
