// perfgauge run's stages, after its request is parsed: plan (the suite and the events on this
// machine, the runner's options) -> measure (here, or in --processes fresh processes) ->
// simulate -> what the result records about the machine. The command calls them in turn and
// writes what they return; a measuring child calls plan and measure_here.
#pragma once

#include <optional>
#include <string>

#include "perfgauge/harness/child_request.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/pipeline_messages.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/run_request.hpp"
#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::harness {

/// What the request becomes on this machine: the suite, the resolved events, the runner's
/// options, and this process's place when it is one of a run's measuring processes.
struct RunPlan {
    workloads::SuiteSpec spec;
    std::string last_level_found_by;  ///< empty: sysfs's size, or the one given
    std::optional<std::string> valgrind;
    EventPlan events;
    RunnerOptions runner;
    std::optional<MeasuringChild> child;
};

/// The plan of `request` with the suite `spec` (the last-level cache found as
/// `last_level_found_by` says), simulating with `valgrind` when it is given. `child`: this
/// process's place among the run's measuring processes (its progress and notes follow it).
/// Progress goes to `say` on a terminal unless the request is quiet.
RunPlan plan_run(const RunRequest& request, workloads::SuiteSpec spec,
                 std::string last_level_found_by, std::optional<std::string> valgrind,
                 std::optional<MeasuringChild> child, const Messages& say);

/// The name of the signal that interrupted perfgauge; empty when none.
std::string interruption();

/// The native measurement in this process: a run with one process, or one measuring process
/// (which says the suite's notes only as the first of them).
RunResult measure_here(const RunPlan& plan, const SystemInfo& system, const Messages& say);

/// The native measurement split over request.processes fresh measuring processes (this
/// executable, each handed its share of the request), merged; the CPU gaps measured once here.
RunResult measure_apart(const RunRequest& request, const RunPlan& plan, const SystemInfo& system,
                        const Messages& say);

/// The simulated events: counted under callgrind and merged into `result`, or marked why not;
/// `native_seconds` is the native measurement's wall time, for the time breakdown.
void simulate_run(const RunRequest& request, const RunPlan& plan, const SystemInfo& system,
                  double native_seconds, RunResult& result, const Messages& say);

/// How the last-level cache cold data rotates over was found, recorded in the result (and said
/// when it was measured).
void record_last_level(const RunRequest& request, const RunPlan& plan, RunResult& result,
                       const Messages& say);

}  // namespace perfgauge::harness
