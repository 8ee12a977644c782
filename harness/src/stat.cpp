#include "perfgauge/harness/stat.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "perfgauge/pmu/suggest.hpp"

namespace perfgauge::harness {

namespace {

// "task-clock:u" -> "task-clock"; "perf::cycles" -> "cycles".
std::string base_name(const std::string& name) {
    std::string out = name;
    if (const auto sep = out.find("::"); sep != std::string::npos)
        out = out.substr(sep + 2);
    if (const auto colon = out.find(':'); colon != std::string::npos)
        out.resize(colon);
    return pmu::to_lower(out);
}

bool is_time_event(const pmu::EventSpec& spec) {
    return spec.attr.type == PERF_TYPE_SOFTWARE && (spec.attr.config == PERF_COUNT_SW_TASK_CLOCK ||
                                                    spec.attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

}  // namespace

std::vector<DerivedMetric> derive_metrics(const StatResult& result) {
    std::map<std::string, double> medians;
    for (const auto& e : result.events) {
        if (e.counted() && !e.samples.empty())
            medians.emplace(base_name(e.name), median(e.samples));
    }
    auto has = [&](const char* name) { return medians.count(name) > 0; };
    std::vector<DerivedMetric> out;
    if (has("instructions") && has("cycles") && medians["cycles"] > 0) {
        out.push_back(
            {"IPC (instructions per cycle)", medians["instructions"] / medians["cycles"], "ratio"});
    }
    if (has("branch-misses") && has("branches") && medians["branches"] > 0) {
        out.push_back({"branch-miss rate (% of branches)",
                       100.0 * medians["branch-misses"] / medians["branches"], "%"});
    }
    if (has("instructions") && medians["instructions"] > 0) {
        for (const char* misses : {"branch-misses", "cache-misses"}) {
            if (has(misses)) {
                out.push_back({std::string(misses) + " per 1k instructions",
                               1000.0 * medians[misses] / medians["instructions"], "MPKI"});
            }
        }
    }
    if (has("task-clock") && !result.elapsed_seconds.empty()) {
        const double elapsed = median(result.elapsed_seconds);
        if (elapsed > 0)
            out.push_back({"CPUs utilized", medians["task-clock"] / 1e9 / elapsed, "CPUs"});
    }
    return out;
}

StatResult run_stat(const StatOptions& options, const pmu::EventResolver& resolver) {
    const auto groups = options.events.find_first_not_of(" \t") == std::string::npos
                            ? std::vector<pmu::GroupSpec>{}
                            : resolver.resolve(options.events);
    std::optional<pmu::PmuEnvironment> env;  // detected only when an event was refused
    StatResult result;
    result.command = options.command;

    pmu::CounterOptions counter_options;
    counter_options.inherit = true;
    counter_options.enable_on_exec = true;

    for (int rep = 0; rep < options.repetitions; ++rep) {
        PendingChild child(options.command);
        counter_options.pid = child.pid();
        auto counters = pmu::CounterSet::open(groups, counter_options);
        if (rep == 0) {
            for (const auto& slot : counters.events()) {
                StatEventResult e;
                e.name = slot.spec.name;
                e.kind = slot.spec.kind;
                e.source = native_source(pmu::kind_name(slot.spec.kind));
                e.unit = is_time_event(slot.spec) ? "ns" : "";
                if (slot.opened) {
                    e.status = "counted";
                } else {
                    if (!env)
                        env = pmu::detect_pmu_environment();
                    const auto d =
                        pmu::diagnose_open_error(slot.error, slot.spec.kind, slot.spec.attr, *env);
                    e.status = d.status;
                    e.reason = d.reason;
                    e.fix = d.fix;
                }
                result.events.push_back(std::move(e));
            }
            result.notes = counters.notes();
        }
        const auto start = std::chrono::steady_clock::now();
        result.exit = child.wait();
        const auto stop = std::chrono::steady_clock::now();
        ++result.repetitions;
        if (result.exit.exec_failed)
            break;
        result.elapsed_seconds.push_back(std::chrono::duration<double>(stop - start).count());

        const auto before = counters.make_snapshot();  // zeros: counting began at exec
        auto after = counters.make_snapshot();
        counters.read(after);
        result.read_path = pmu::read_path_name(after.path);
        const auto deltas = counters.delta(before, after);
        for (std::size_t i = 0; i < deltas.size(); ++i) {
            auto& e = result.events[i];
            if (e.status != "counted" && e.status != "not counted")
                continue;
            if (!deltas[i].counted) {
                e.status = "not counted";
                e.reason =
                    "the event was opened but never scheduled on the PMU (all counters busy)";
                e.fix =
                    "count fewer events at once, or free counters (other profilers, NMI watchdog)";
                continue;
            }
            e.samples.push_back(deltas[i].value);
            e.running_fraction = std::min(e.running_fraction, deltas[i].running_fraction);
        }
        if (result.exit.shell_status() != 0 && rep + 1 < options.repetitions) {
            result.notes.push_back(fmt::format("stopped after run {} of {}: the command {}",
                                               rep + 1, options.repetitions,
                                               result.exit.describe()));
            break;
        }
    }
    return result;
}

}  // namespace perfgauge::harness
