#include "run_simulation.hpp"

#include <optional>
#include <vector>

#include <fmt/format.h>

#include "console.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "run_options.hpp"

namespace perfgauge::cli {

std::string describe_caches(const harness::SimulatedCaches& caches) {
    std::vector<std::string> parts;
    for (const auto& [name, cache] :
         {std::pair{"I1", caches.i1}, std::pair{"D1", caches.d1}, std::pair{"LL", caches.ll}}) {
        if (cache)
            parts.push_back(pmu::cache_flag(name, *cache));
    }
    return fmt::format("{}", fmt::join(parts, " "));
}

harness::SimulatedCaches simulated_caches_for(const workloads::SuiteSpec& spec,
                                              const po::variables_map& vm,
                                              const harness::SystemInfo& system) {
    return harness::simulated_caches(
        system.caches, vm.count("l1d") ? std::optional(spec.cache_sizes.l1d) : std::nullopt,
        vm.count("l3") ? std::optional(spec.cache_sizes.l3) : std::nullopt);
}

int run_simulation_child(const std::string& manifest_path, const workloads::SuiteSpec& spec,
                         const po::variables_map& vm, const harness::SystemInfo& system) {
    if (!pmu::callgrind::running_on_valgrind()) {
        throw UsageError(
            "--internal-sim-child is perfgauge's own (it runs under valgrind); use --backend sim");
    }
    const workloads::Suite suite = workloads::build_suite(spec, system.cpu);
    const auto caches = simulated_caches_for(spec, vm, system);
    const std::uint64_t ll_bytes = caches.ll ? caches.ll->size : spec.cache_sizes.l3;
    const auto manifest = harness::run_simulated_batches(
        suite.benchmarks, vm["sim-items"].as<std::uint64_t>(), ll_bytes);
    harness::write_output_file(manifest_path, harness::manifest_to_json(manifest));
    return kExitOk;
}

harness::SimulationResult run_simulation(const po::variables_map& vm,
                                         const harness::EventPlan& plan,
                                         const harness::SimulatedCaches& caches,
                                         const std::string& valgrind, std::size_t benchmarks) {
    harness::SimulationRequest request;
    request.setup.valgrind = valgrind;
    request.setup.i1 = caches.i1;
    request.setup.d1 = caches.d1;
    request.setup.ll = caches.ll;
    request.program = {own_executable(), "run"};
    for (auto& a : suite_arguments(vm))
        request.program.push_back(std::move(a));
    request.program.push_back(fmt::format("--sim-items={}", vm["sim-items"].as<std::uint64_t>()));
    request.events = plan.simulated_events();
    for (const auto& note : caches.notes)
        say("perfgauge run: simulated caches: {}\n", note);
    const std::string geometry = describe_caches(caches);
    say("perfgauge run: simulating {} benchmarks under callgrind{}\n", benchmarks,
        geometry.empty() ? "" : " (" + geometry + ")");
    return harness::simulate(request);
}

harness::EventRefusal interrupted_simulation() {
    return {"not counted",
            fmt::format("interrupted by {} while simulated under callgrind; the native "
                        "measurement before it is complete",
                        harness::signal_name(harness::interrupt_signal())),
            "run again without interrupting it (or with --backend perf to skip simulation)"};
}

std::optional<harness::SimulationResult> simulate_unless_interrupted(
    const po::variables_map& vm, const harness::EventPlan& plan,
    const harness::SimulatedCaches& caches, const std::string& valgrind,
    harness::RunResult& result) {
    try {
        auto sim = run_simulation(vm, plan, caches, valgrind, result.benchmarks.size());
        if (harness::interrupt_signal() == 0)
            return sim;
    } catch (const std::runtime_error&) {
        // valgrind (or perfgauge under it) ended by the signal: any error it caused is moot.
        if (harness::interrupt_signal() == 0)
            throw;
    }
    result.interrupted_by = harness::signal_name(harness::interrupt_signal());
    return std::nullopt;
}

}  // namespace perfgauge::cli
