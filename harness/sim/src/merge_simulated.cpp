// Simulated counts merged into native results (run and stat), every column labelled sim.
#include "perfgauge/harness/simulation.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace perfgauge::harness {

namespace {

// Event `e` of the plan as the simulation reports it: counted when simulated, else refused with
// the plan's reason.
EventColumn simulated_column(const EventPlan& plan, std::size_t e) {
    EventColumn c{plan.events[e], plan.kinds[e], EventSource::simulated, plan.simulated[e], {}};
    if (!c.counted) {
        c.refusal = plan.refusals[e].status.empty() ? EventRefusal{"not simulated", "", ""}
                                                    : plan.refusals[e];
    }
    return c;
}

}  // namespace

void merge_simulated(StatResult& r, const EventPlan& plan, const CommandSimulation& sim) {
    std::vector<StatEventResult> events;
    std::size_t next_sim = 0;  // sim.totals follows plan.simulated_events()
    for (std::size_t e = 0; e < plan.events.size(); ++e) {
        const auto native = std::find_if(r.events.begin(), r.events.end(),
                                         [&](const auto& n) { return n.name == plan.events[e]; });
        if (!plan.simulated[e] && native != r.events.end()) {
            events.push_back(*native);
            continue;
        }
        StatEventResult out;
        static_cast<EventColumn&>(out) = simulated_column(plan, e);
        if (out.counted && next_sim < sim.totals.size())
            out.samples = {sim.totals[next_sim++]};
        events.push_back(std::move(out));
    }
    r.events = std::move(events);
    r.regions = sim.regions;
}

SimulationResult failed_simulation(const std::string& error, double wall_seconds) {
    SimulationResult sim;
    sim.wall_seconds = wall_seconds;
    sim.failure = EventRefusal{
        "not counted",
        fmt::format("the simulation under callgrind failed: {}; the native measurement is kept",
                    error),
        "count natively only (--backend perf), or see perfgauge doctor"};
    return sim;
}

void merge_simulated(RunResult& r, const EventPlan& plan, const SimulationResult& sim) {
    if (sim.failure)
        return merge_simulated(r, without_simulation(plan, *sim.failure), SimulationResult{});
    std::map<std::string, const SimulatedCounts*> counts;
    for (const auto& c : sim.benchmarks)
        counts[c.name] = &c;
    const auto simulated = plan.simulated_events();
    std::vector<EventColumn> events;
    std::vector<std::vector<std::vector<double>>> per_item(r.benchmarks.size()),
        raw_per_item(r.benchmarks.size());
    std::vector<std::vector<double>> running(r.benchmarks.size());
    for (std::size_t e = 0; e < plan.events.size(); ++e) {
        const std::string& name = plan.events[e];
        const auto native = std::find_if(r.events.begin(), r.events.end(),
                                         [&](const EventColumn& c) { return c.name == name; });
        const auto sim_index = static_cast<std::size_t>(
            std::find(simulated.begin(), simulated.end(), name) - simulated.begin());
        const bool is_sim = plan.simulated[e];
        // Not native and not simulated: neither backend counts it (zeros, marked not counted).
        const bool is_native = !is_sim && native != r.events.end();
        const auto n = static_cast<std::size_t>(native - r.events.begin());
        events.push_back(is_native ? r.events[n] : simulated_column(plan, e));
        for (std::size_t b = 0; b < r.benchmarks.size(); ++b) {
            const auto& bench = r.benchmarks[b];
            const std::size_t samples = bench.ns_per_item.size();
            if (is_native) {
                per_item[b].push_back(bench.counters_per_item[n]);
                raw_per_item[b].push_back(bench.raw_counters_per_item[n]);
                running[b].push_back(bench.running_fraction[n]);
                continue;
            }
            double value = 0, raw = 0;
            if (is_sim) {
                const auto it = counts.find(bench.name);
                if (it == counts.end()) {
                    throw pmu::SimulationError(
                        fmt::format("the simulation has no counts for {}", bench.name));
                }
                value = it->second->per_item[sim_index];
                raw = it->second->raw_per_item[sim_index];
            }
            // A benchmark whose every native sample was disturbed keeps its simulated count
            // (deterministic, independent of any sample) as one value.
            const std::size_t values = std::max<std::size_t>(samples, 1);
            per_item[b].push_back(std::vector<double>(values, value));
            raw_per_item[b].push_back(std::vector<double>(values, raw));
            running[b].push_back(1.0);
        }
    }
    r.events = std::move(events);
    for (std::size_t b = 0; b < r.benchmarks.size(); ++b) {
        r.benchmarks[b].counters_per_item = std::move(per_item[b]);
        r.benchmarks[b].raw_counters_per_item = std::move(raw_per_item[b]);
        r.benchmarks[b].running_fraction = std::move(running[b]);
    }
}

}  // namespace perfgauge::harness
