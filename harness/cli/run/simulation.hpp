// perfgauge run's simulated backend, CLI side: re-running the same suite under callgrind
// (parent) and running it between client requests (the child inside valgrind).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/run_request.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::cli {

/// valgrind's path when `backend` may simulate with it (nullopt: do not simulate). --backend sim
/// insists: std::runtime_error (exit 1) when valgrind is missing or this build cannot run under
/// it. For run and stat.
std::optional<std::string> simulation_valgrind(harness::Backend backend);

/// "--I1=32768,8,64 --D1=... --LL=..." for the caches given to valgrind; empty when none.
std::string describe_caches(const harness::SimulatedCaches& caches);

/// The simulated caches follow --l1d/--l3 like the sweep does.
harness::SimulatedCaches simulated_caches_for(const workloads::SuiteSpec& spec,
                                              const harness::SuiteSelection& selection,
                                              const harness::SystemInfo& system);

/// Inside valgrind (the parent's request as JSON, with --internal-sim-child naming the manifest):
/// builds the same suite (not checking the decoders again, and cutting iterations of more than
/// --sim-items items to their first --sim-items), runs each benchmark between client requests in
/// a process of its own, --sim-jobs at once, writes the manifest. UsageError when not under
/// valgrind.
int run_simulation_child(const harness::RunRequest& request, const workloads::SuiteSpec& spec,
                         const harness::SystemInfo& system);

/// --sim-jobs, 0 meaning one per CPU this process may use.
unsigned simulation_jobs(const harness::RunRequest& request);

/// Parent: perfgauge itself, handed the run's request (simulation_child_request), under
/// callgrind.
harness::SimulationResult run_simulation(const harness::RunRequest& request,
                                         const harness::EventPlan& plan,
                                         const harness::SimulatedCaches& caches,
                                         const std::string& valgrind, std::size_t benchmarks);

/// "native measurement 25.1 s, simulation 20.3 s (2 processes at once; 0.8x native)".
std::string time_breakdown(const harness::SimulationResult& sim, double native_seconds);

/// What a run's result records about its simulation (JSON context and the table's footer):
/// simulator, caches, items, the time breakdown with each benchmark's simulation time, and the
/// est-cycles formula when est-cycles was simulated.
std::vector<std::pair<std::string, std::string>> simulation_context(
    const harness::EventPlan& plan, const harness::SimulationResult& sim,
    const harness::SimulatedCaches& caches, const harness::RunRequest& request,
    double native_seconds);

/// harness::interrupted_simulation for the signal that interrupted perfgauge.
harness::EventRefusal interrupted_simulation(
    const std::string& when = "while simulated under callgrind");

}  // namespace perfgauge::cli
