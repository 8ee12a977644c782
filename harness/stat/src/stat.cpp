#include "perfgauge/harness/stat.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/interrupt.hpp"
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
        if (interrupt_signal() != 0)
            break;
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
        const ExitStatus exit = child.wait();
        const auto stop = std::chrono::steady_clock::now();
        const int signal = interrupt_signal();
        // The run an interrupt killed (or kept from starting) counted part of the work at most.
        const bool cut_short = signal != 0 && (exit.signaled || exit.exec_failed);
        if (signal != 0)
            result.interrupted_by = signal_name(signal);
        if (cut_short && (result.repetitions > 0 || exit.exec_failed))
            break;  // the completed runs are the report
        if (exit.exec_failed) {
            result.exit = exit;
            ++result.repetitions;
            break;
        }

        const auto before = counters.make_snapshot();  // zeros: counting began at exec
        auto after = counters.make_snapshot();
        counters.read(after);
        const auto deltas = counters.delta(before, after);
        if (cut_short) {
            // The only run, cut short: its counts until then are reported, marked so (perf stat
            // does the same when Ctrl-C ends a command) - unless it never reached exec.
            if (std::none_of(deltas.begin(), deltas.end(),
                             [](const pmu::ScaledCount& d) { return d.counted; }))
                break;
            result.interrupted_run = true;
        }
        result.exit = exit;
        ++result.repetitions;
        result.elapsed_seconds.push_back(std::chrono::duration<double>(stop - start).count());
        result.read_path = pmu::read_path_name(after.path);
        for (std::size_t i = 0; i < deltas.size(); ++i) {
            auto& e = result.events[i];
            if (!counters.events()[i].opened || (cut_short && !deltas[i].counted))
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
        if (!result.interrupted_by.empty())
            break;
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
