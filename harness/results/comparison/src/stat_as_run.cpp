#include "perfgauge/harness/stat_as_run.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "perfgauge/harness/command_text.hpp"

namespace perfgauge::harness {

namespace {

// Values per run: the samples as counted, or the one simulated value in every run.
std::vector<double> per_run(const StatEventResult& e, std::size_t runs) {
    if (e.source == EventSource::simulated && e.samples.size() == 1)
        return std::vector<double>(runs, e.samples.front());
    return e.samples;
}

void add_warnings(const StatResult& s, const std::string& prefix, std::vector<std::string>& out) {
    if (s.exit.shell_status() != 0) {
        // A failing command's numbers are those of whatever it did before failing.
        out.push_back(prefix + "the command " + s.exit.describe());
    }
    if (!s.interrupted_by.empty()) {
        out.push_back(prefix + (s.interrupted_run
                                    ? fmt::format("interrupted by {}: the one run reported was "
                                                  "cut short",
                                                  s.interrupted_by)
                                    : fmt::format("interrupted by {}: fewer runs than planned",
                                                  s.interrupted_by)));
    }
    for (const auto& note : s.notes)
        out.push_back(prefix + note);
}

}  // namespace

RunResult stat_as_run_result(const std::vector<StatResult>& commands,
                             const std::vector<std::string>& labels) {
    RunResult r;
    r.kind = ResultKind::stat;
    r.precision_target = 0;  // stat runs a fixed number of times
    if (commands.empty())
        return r;
    r.date = commands.front().date;
    r.system = commands.front().system;  // the commands of a side by side ran on one machine
    for (const auto& e : commands.front().events)
        r.events.push_back(e);  // the column; samples are per benchmark below
    for (std::size_t c = 0; c < commands.size(); ++c) {
        const StatResult& s = commands[c];
        const std::string label = c < labels.size() ? labels[c] : detail::command_text(s.command);
        BenchmarkResult b;
        b.name = label;
        b.params = {{kCommandParam, label}};
        b.iterations = 1;
        b.items_per_iteration = 1;  // the item is one run of the command
        const std::size_t runs = s.elapsed_seconds.size();
        for (const double seconds : s.elapsed_seconds) {
            b.ns_per_item.push_back(1e9 * seconds);
            b.raw_ns_per_item.push_back(1e9 * seconds);
        }
        if (s.user_seconds.size() == runs && s.system_seconds.size() == runs) {
            for (std::size_t k = 0; k < runs; ++k)
                b.cpu_ns_per_item.push_back(1e9 * (s.user_seconds[k] + s.system_seconds[k]));
        }
        for (std::size_t i = 0; i < r.events.size(); ++i) {
            const auto it = std::find_if(s.events.begin(), s.events.end(),
                                         [&](const auto& e) { return e.name == r.events[i].name; });
            std::vector<double> values;
            double running = 1.0;
            if (it != s.events.end() && it->counted) {
                values = per_run(*it, runs);
                running = it->running_fraction;
            } else if (r.events[i].counted) {
                // Counted for another command but not for this one: no comparison can use it.
                r.events[i].counted = false;
                r.events[i].refusal =
                    it != s.events.end() ? it->refusal : EventRefusal{"not counted", "", "", {}};
                r.events[i].refusal.reason =
                    fmt::format("for '{}': {}", label,
                                r.events[i].refusal.reason.empty() ? "no such event"
                                                                   : r.events[i].refusal.reason);
            }
            if (values.size() != runs)
                values.assign(runs, 0.0);  // not counted: values are 0, the refusal says why
            b.counters_per_item.push_back(values);
            b.raw_counters_per_item.push_back(std::move(values));
            b.running_fraction.push_back(running);
        }
        r.repetitions = std::max(r.repetitions, runs);
        add_warnings(s, commands.size() > 1 ? label + ": " : "", r.warnings);
        r.benchmarks.push_back(std::move(b));
    }
    for (const auto& s : commands) {
        if (r.interrupted_by.empty())
            r.interrupted_by = s.interrupted_by;
    }
    return r;
}

Comparison compare_side_by_side(const SideBySideResult& result, const CompareOptions& options) {
    const RunResult run = stat_as_run_result(result.commands, result.labels);
    Comparison all;
    all.options = options;
    if (result.labels.empty())
        return all;
    all.baseline_label = result.labels.front();
    all.contender_label = result.labels.size() == 2 ? result.labels[1] : "each other command";
    for (std::size_t c = 1; c < result.labels.size(); ++c) {
        if (result.commands[c].elapsed_seconds.empty() ||
            result.commands.front().elapsed_seconds.empty()) {
            all.notes.push_back(fmt::format("{}: not compared: the rounds stopped before it ran",
                                            result.labels[c]));
            continue;
        }
        Comparison one =
            compare_within(run, kCommandParam, result.labels.front(), result.labels[c], options);
        for (auto& b : one.benchmarks) {
            b.name = result.labels[c];
            all.benchmarks.push_back(std::move(b));
        }
        for (auto& note : one.notes) {
            if (std::find(all.notes.begin(), all.notes.end(), note) == all.notes.end())
                all.notes.push_back(std::move(note));
        }
    }
    return all;
}

}  // namespace perfgauge::harness
