// perfgauge run's simulated backend, both sides: the parent starts perfgauge itself under
// callgrind, handing it the run's request with the simulation's settings and its manifest's
// path inside; the child (inside valgrind) runs the same suite between client requests.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "perfgauge/harness/child_request.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/own_executable.hpp"
#include "perfgauge/harness/request_json.hpp"
#include "perfgauge/harness/run_simulation.hpp"
#include "perfgauge/harness/simulation_stage.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/callgrind_output.hpp"
#include "perfgauge/pmu/event_name.hpp"

namespace perfgauge::harness {

std::string describe_caches(const SimulatedCaches& caches) {
    std::vector<std::string> parts;
    for (const auto& [name, cache] :
         {std::pair{"I1", caches.i1}, std::pair{"D1", caches.d1}, std::pair{"LL", caches.ll}}) {
        if (cache)
            parts.push_back(pmu::cache_flag(name, *cache));
    }
    return fmt::format("{}", fmt::join(parts, " "));
}

SimulatedCaches simulated_caches_for(const workloads::SuiteSpec& spec,
                                     const SuiteSelection& selection, const SystemInfo& system) {
    return simulated_caches(system.caches,
                            selection.l1d ? std::optional(spec.cache_sizes.l1d) : std::nullopt,
                            selection.l3 ? std::optional(spec.cache_sizes.l3) : std::nullopt);
}

unsigned simulation_jobs(const RunRequest& request) {
    return request.sim_jobs == 0 ? default_simulation_jobs() : request.sim_jobs;
}

int simulate_as_child(const RunRequest& request, const workloads::SuiteSpec& spec,
                      const SystemInfo& system, const std::filesystem::path& manifest_path) {
    const std::uint64_t items = request.sim_items;
    workloads::SuiteSpec simulated = spec;
    // The first measuring process checked the decoders on the whole arena before measuring; this
    // one's first 32 MiB are the same bytes, repeated after (suite.hpp, max_items_per_iteration).
    simulated.check_decoders = false;
    simulated.max_items_per_iteration = items;
    const workloads::Suite suite = workloads::build_suite(simulated, system.cpu);
    const auto caches = simulated_caches_for(spec, request.selection, system);
    const std::uint64_t ll_bytes = caches.ll ? caches.ll->size : spec.cache_sizes.l3;
    const auto manifest =
        run_simulated_batches(suite.benchmarks, items, ll_bytes, simulation_jobs(request));
    if (const int signal = interrupt_signal(); signal != 0)
        return interrupted_exit_status(signal);  // its processes were reaped
    const std::string path = manifest_path.string();
    try {
        write_output_file(path, manifest_to_json(manifest));
    } catch (const std::runtime_error& e) {
        // Its scratch path means nothing to the user (it is gone by the time this is read).
        std::string why = e.what();
        if (const std::string named = "cannot write '" + path + "': "; why.rfind(named, 0) == 0)
            why.erase(0, named.size());
        throw std::runtime_error(
            fmt::format("the simulation could not save its counts in $TMPDIR ({})", why));
    }
    return 0;
}

SimulationResult run_simulation(const RunRequest& run, const EventPlan& plan,
                                const SimulatedCaches& caches, const std::string& valgrind,
                                std::size_t benchmarks, const Messages& say) {
    SimulationRequest request;
    request.setup.valgrind = valgrind;
    request.setup.i1 = caches.i1;
    request.setup.d1 = caches.d1;
    request.setup.ll = caches.ll;
    request.events = plan.simulated_events();
    request.jobs = simulation_jobs(run);
    // The child builds the same suite from the same request, handed over as JSON like a
    // measuring process's, with the simulation's settings and where its manifest goes inside.
    const std::string executable = own_executable();
    request.program = {executable};
    request.program_for = [&run, &request, executable](const std::filesystem::path& manifest) {
        return child_argv(executable, simulation_child_request(run, request.jobs, manifest),
                          PERFGAUGE_VERSION);
    };
    const bool cache_sim = needs_cache_simulation(request.events);
    if (cache_sim) {
        for (const auto& note : caches.notes)
            say("perfgauge run: simulated caches: {}\n", note);
    }
    const std::string geometry = cache_sim ? describe_caches(caches) : "";
    say("perfgauge run: simulating {} benchmark{} under callgrind, {} at once{}\n", benchmarks,
        benchmarks == 1 ? "" : "s", request.jobs,
        cache_sim ? (geometry.empty() ? "" : " (" + geometry + ")")
                  : " (no cache simulation: no cache event asked for)");
    return simulate(request);
}

std::string time_breakdown(const SimulationResult& sim, double native_seconds) {
    if (sim.failure) {
        return fmt::format(
            "native measurement {:.1f} s, then {} ({:.1f} s); the simulated "
            "events are marked not counted",
            native_seconds, sim.failure->reason, sim.wall_seconds);
    }
    return fmt::format(
        "native measurement {:.1f} s, then simulation {:.1f} s ({} process{} at once{}; {:.1f}x "
        "native)",
        native_seconds, sim.wall_seconds, sim.jobs, sim.jobs == 1 ? "" : "es",
        sim.cache_sim ? ", caches simulated" : ", no cache simulation",
        sim.wall_seconds / std::max(native_seconds, 1e-9));
}

std::vector<std::pair<std::string, std::string>> simulation_context(const EventPlan& plan,
                                                                    const SimulationResult& sim,
                                                                    const SimulatedCaches& caches,
                                                                    const RunRequest& request,
                                                                    double native_seconds) {
    if (sim.failure)  // no simulator, caches or items to report: the columns say why
        return {};
    std::vector<std::string> per_benchmark;
    for (const auto& b : sim.benchmarks)
        per_benchmark.push_back(fmt::format("{} {:.2f}", b.name, b.seconds));
    std::vector<std::pair<std::string, std::string>> out = {
        {"notice", plan.notice},
        {"simulator", sim.creator},
        {"caches", sim.cache_sim ? describe_caches(caches) : "not simulated (no cache event)"},
        {"min_items", std::to_string(request.sim_items)},
        {"simulation_seconds", fmt::format("{:.2f}", sim.wall_seconds)},
        {"native_seconds", fmt::format("{:.2f}", native_seconds)},
        {"simulation_jobs", std::to_string(sim.jobs)},
        {"time", time_breakdown(sim, native_seconds)},
        // Each benchmark's simulation process, fork to exit: where the simulation time goes.
        {"simulation_seconds_by_benchmark", fmt::format("{}", fmt::join(per_benchmark, "; "))}};
    const auto events = plan.simulated_events();
    const bool estimate = std::any_of(events.begin(), events.end(), [](const std::string& e) {
        return pmu::without_modifiers(e) == "est-cycles";
    });
    if (estimate)
        out.emplace_back("est_cycles", std::string(pmu::estimated_cycles_formula()));
    return out;
}

EventRefusal interrupted_simulation_now(const std::string& when) {
    return interrupted_simulation(interrupt_signal(), when);
}

}  // namespace perfgauge::harness
