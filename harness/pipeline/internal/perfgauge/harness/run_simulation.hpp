// perfgauge run's simulated backend: the same suite re-run under callgrind (the parent starts
// perfgauge itself as its simulation child, the simulation's settings inside its request) and
// run there between client requests (the child, inside valgrind).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/pipeline_messages.hpp"
#include "perfgauge/harness/run_request.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::harness {

/// "--I1=32768,8,64 --D1=... --LL=..." for the caches given to valgrind; empty when none.
std::string describe_caches(const SimulatedCaches& caches);

/// The simulated caches follow the selection's L1d and last-level sizes as the sweep does.
SimulatedCaches simulated_caches_for(const workloads::SuiteSpec& spec,
                                     const SuiteSelection& selection, const SystemInfo& system);

/// Simulation processes at once: the request's, 0 meaning one per CPU this process may use.
unsigned simulation_jobs(const RunRequest& request);

/// Inside valgrind: builds the suite `spec` (not checking the decoders again, and cutting
/// iterations of more than request.sim_items items to their first sim_items), runs each
/// benchmark between client requests in a process of its own, simulation_jobs at once, and
/// writes the manifest to `manifest`. Returns the exit status (128+N when interrupted).
int simulate_as_child(const RunRequest& request, const workloads::SuiteSpec& spec,
                      const SystemInfo& system, const std::filesystem::path& manifest);

/// Parent: perfgauge itself under callgrind, handed the run's request with its role (the
/// simulation child: where its manifest goes) and the simulation's settings inside it.
SimulationResult run_simulation(const RunRequest& request, const EventPlan& plan,
                                const SimulatedCaches& caches, const std::string& valgrind,
                                std::size_t benchmarks, const Messages& say);

/// "native measurement 25.1 s, then simulation 20.3 s (2 processes at once; 0.8x native)".
std::string time_breakdown(const SimulationResult& sim, double native_seconds);

/// What a run's result records about its simulation (JSON context and the table's footer):
/// simulator, caches, items, the time breakdown with each benchmark's simulation time, and the
/// est-cycles formula when est-cycles was simulated.
std::vector<std::pair<std::string, std::string>> simulation_context(const EventPlan& plan,
                                                                    const SimulationResult& sim,
                                                                    const SimulatedCaches& caches,
                                                                    const RunRequest& request,
                                                                    double native_seconds);

/// interrupted_simulation for the signal that interrupted perfgauge.
EventRefusal interrupted_simulation_now(
    const std::string& when = "while simulated under callgrind");

}  // namespace perfgauge::harness
