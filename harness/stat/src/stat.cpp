#include "perfgauge/harness/stat.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/native_columns.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

namespace {

bool is_time_event(const pmu::EventSpec& spec) {
    return spec.attr.type == PERF_TYPE_SOFTWARE && (spec.attr.config == PERF_COUNT_SW_TASK_CLOCK ||
                                                    spec.attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

}  // namespace

StatResult run_stat(const StatOptions& options, const pmu::EventResolver& resolver) {
    const auto groups = options.resolved_events ? *options.resolved_events
                        : options.events.find_first_not_of(" \t") == std::string::npos
                            ? std::vector<pmu::GroupSpec>{}
                            : resolver.resolve(options.events);
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
            const auto columns = native_columns(counters);
            for (std::size_t i = 0; i < columns.size(); ++i) {
                StatEventResult e;
                static_cast<EventColumn&>(e) = columns[i];
                e.unit = is_time_event(counters.events()[i].spec) ? "ns" : "";
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
            if (!counters.events()[i].opened)
                continue;
            if (!deltas[i].counted) {
                e.counted = false;
                e.refusal = {
                    "not counted",
                    "the event was opened but never scheduled on the PMU (all counters busy)",
                    "count fewer events at once, or free counters (other profilers, NMI watchdog)"};
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
