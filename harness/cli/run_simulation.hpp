// perfgauge run's simulated backend, CLI side: re-running the same suite under callgrind
// (parent) and running it between client requests (the child inside valgrind).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "cli_common.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::cli {

/// "--I1=32768,8,64 --D1=... --LL=..." for the caches given to valgrind; empty when none.
std::string describe_caches(const harness::SimulatedCaches& caches);

/// The simulated caches follow --l1d/--l3 like the sweep does.
harness::SimulatedCaches simulated_caches_for(const workloads::SuiteSpec& spec,
                                              const po::variables_map& vm,
                                              const harness::SystemInfo& system);

/// Inside valgrind (--internal-sim-child): builds the same suite, runs each benchmark between
/// client requests, writes the manifest. UsageError when not under valgrind.
int run_simulation_child(const std::string& manifest_path, const workloads::SuiteSpec& spec,
                         const po::variables_map& vm, const harness::SystemInfo& system);

/// Parent: perfgauge itself, with the same suite options, under callgrind.
harness::SimulationResult run_simulation(const po::variables_map& vm,
                                         const harness::EventPlan& plan,
                                         const harness::SimulatedCaches& caches,
                                         const std::string& valgrind, std::size_t benchmarks);

/// Why simulated events have no value when an interrupt stopped the simulation.
harness::EventRefusal interrupted_simulation();

/// run_simulation, unless an interrupt stops it: then nullopt and `result` is marked
/// interrupted (merge it with without_simulation(plan, interrupted_simulation())).
std::optional<harness::SimulationResult> simulate_unless_interrupted(
    const po::variables_map& vm, const harness::EventPlan& plan,
    const harness::SimulatedCaches& caches, const std::string& valgrind,
    harness::RunResult& result);

}  // namespace perfgauge::cli
