// perfgauge run: the built-in workloads (varint decoders, memcpy) over working-set sizes and
// cache states, through the runner, to a table and a JSON result file. The stages, each a
// function: parse (run_options.cpp: a RunRequest) -> plan (the suite, the events) -> measure
// (here, in --processes children, or --against's pairs) -> simulate -> render -> write.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "common/hints.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/progress_line.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/simulation_stage.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/harness/terminal_progress.hpp"
#include "perfgauge/workloads/suite.hpp"
#include "registry.hpp"
#include "run/against.hpp"
#include "run/options.hpp"
#include "run/processes.hpp"
#include "run/simulation.hpp"
#include "run/suite.hpp"

namespace perfgauge::cli {

namespace {

// What the request becomes on this machine: the suite, the resolved events, the runner's
// options.
struct RunPlan {
    workloads::SuiteSpec spec;
    std::string last_level_found_by;  // empty: sysfs's size, or --l3
    std::optional<std::string> valgrind;
    harness::EventPlan events;
    harness::RunnerOptions runner;
};

// The default result file's name without ".json"; write_new_output_file numbers it when a run
// in the same second took it.
std::string default_result_stem() {
    return harness::format_local_now("perfgauge-run-%Y%m%d-%H%M%S");
}

// Progress on one self-overwriting stderr line (the caller shows it on a terminal only): a
// stable total and the time left, for the whole run when it is split over processes.
std::function<void(std::string_view, std::size_t, std::size_t)> progress_line(
    const harness::RunRequest& request, const harness::EventPlan& events) {
    const auto& child = request.measuring_child;
    // The estimate counts the rounds beyond the plan and the simulation after the measurement.
    harness::ProgressOutlook outlook;
    outlook.extra_rounds = true;
    outlook.budget_s = request.precision_percent > 0 ? request.max_time_s : 0;
    if (events.any_simulated())
        outlook.simulation_s_per_benchmark =
            harness::simulation_seconds_per_benchmark(simulation_jobs(request));
    auto meter = std::make_shared<harness::ProgressMeter>(
        [] {
            return std::chrono::duration<double>(
                       std::chrono::steady_clock::now().time_since_epoch())
                .count();
        },
        child ? harness::ProcessPlace{child->index, child->count} : harness::ProcessPlace{},
        outlook);
    // Shared with the other commands: nothing in the run's first second (a later measuring
    // process is past it), redrawn at most 10 times a second (the meter sees every call).
    auto progress = std::make_shared<harness::TerminalProgress>(
        true, "perfgauge run", say_text, harness::steady_seconds,
        child && child->index > 0 ? 0.0 : harness::TerminalProgress::kQuietSeconds);
    return [meter, progress](std::string_view phase, std::size_t done, std::size_t total) {
        progress->update(meter->line(phase, done, total));
    };
}

std::string interruption() {
    const int signal = harness::interrupt_signal();
    return signal != 0 ? harness::signal_name(signal) : std::string();
}

int interrupted_or_ok(const harness::RunResult& result) {
    return result.interrupted_by.empty()
               ? kExitOk
               : harness::interrupted_exit_status(harness::interrupt_signal());
}

harness::RunnerOptions runner_options(const harness::RunRequest& request,
                                      const harness::EventPlan& events) {
    harness::RunnerOptions options;
    options.repetitions = request.repetitions;
    options.min_sample_time_s = request.min_time_s;
    options.warmup_time_s = request.warmup_s;
    options.max_time_s = request.max_time_s;
    options.precision = request.precision_percent / 100;
    options.events = harness::CountedEvents(events);
    options.seed = request.seed;
    options.interleave = request.interleave;
    options.pin_cpu = request.pin_cpu;
    options.fifo = request.fifo;
    options.mlock = request.mlock;
    if (harness::progress_wanted(request.quiet))
        options.progress = progress_line(request, events);
    options.interruption = interruption;
    options.probe_cpu_gaps = !request.measuring_child;  // its parent spins once, after all
    if (request.show_answer && options.precision > 0)   // the answer's verdicts, at its margin
        options.verdict_stop = harness::StoppingRule{harness::CompareOptions{}.min_change};
    return options;
}

RunPlan plan_run(const harness::RunRequest& request, workloads::SuiteSpec spec,
                 std::string last_level_found_by) {
    RunPlan plan{std::move(spec), std::move(last_level_found_by), {}, {}, {}};
    plan.valgrind = simulation_valgrind(request.backend);
    plan.events =
        harness::select_events(request.events, request.backend, plan.valgrind.has_value());
    plan.spec.simulated = plan.events.any_simulated();
    plan.runner = runner_options(request, plan.events);
    return plan;
}

// The native measurement in this process: a run with --processes 1, or one measuring process.
harness::RunResult measure_here(const harness::RunRequest& request, const RunPlan& plan,
                                const harness::SystemInfo& system) {
    const auto& child = request.measuring_child;
    harness::Runner runner(plan.runner);  // select_events above already refused bad names
    // Data generation and the check against the reference decoder happen here.
    const workloads::Suite suite = workloads::build_suite(plan.spec, system.cpu);
    if (!child || child->index == 0) {  // once per run, not once per measuring process
        for (const auto& note : suite.notes)
            say("perfgauge run: {}\n", note);
    }
    if (!plan.events.notice.empty() && !child)
        say("perfgauge run: {}\n", plan.events.notice);
    harness::RunResult result =
        runner.run(suite.benchmarks, workloads::verdict_groups(suite.benchmarks));
    if (plan.runner.progress)
        say("\r\033[K");
    result.context = suite.context;
    for (const auto& note : suite.notes)
        result.warnings.push_back(note);
    return result;
}

// The native measurement split over --processes fresh processes.
harness::RunResult measure_apart(const harness::RunRequest& request, const RunPlan& plan,
                                 const harness::SystemInfo& system) {
    if (!plan.events.notice.empty())
        say("perfgauge run: {}\n", plan.events.notice);
    const std::uint64_t seed = request.seed ? *request.seed : std::random_device{}();
    harness::RunResult result = measure_in_processes(request, seed);
    result.system = system;                // a process's result file carries only part of it
    if (harness::interrupt_signal() == 0)  // once here, not in every measuring process
        harness::record_cpu_gaps(result, harness::measure_cpu_gaps());
    return result;
}

// The simulated events: counted under callgrind, or marked why not.
void simulate_run(const harness::RunRequest& request, const RunPlan& plan,
                  const harness::SystemInfo& system, double native_seconds,
                  harness::RunResult& result) {
    const auto caches = simulated_caches_for(plan.spec, request.selection, system);
    const std::size_t benchmarks = result.benchmarks.size();
    const auto sim = harness::simulate_and_merge(
        plan.events, request.backend,
        [&] { return run_simulation(request, plan.events, caches, *plan.valgrind, benchmarks); },
        result);
    if (sim) {
        result.simulation = simulation_context(plan.events, *sim, caches, request, native_seconds);
        say("perfgauge run: {}\n", time_breakdown(*sim, native_seconds));
    }
}

// How the last-level cache cold data rotates over was found: the answer says it.
void record_last_level(const harness::RunRequest& request, const RunPlan& plan,
                       harness::RunResult& result) {
    std::string found_by = plan.last_level_found_by;
    if (!found_by.empty()) {
        say("perfgauge run: last-level cache {}: {}\n",
            plan.spec.cache_sizes.l3 > 0 ? fmt::format("{} KiB", plan.spec.cache_sizes.l3 >> 10)
                                         : std::string("unknown"),
            found_by);
    } else {
        found_by = request.selection.l3 ? "given by --l3" : "reported by sysfs";
    }
    result.context.emplace_back("l3_found_by", found_by);
}

// What goes to stdout or -o: the answer (with what it leaves out), else the table in --format.
std::string render_run_output(const harness::RunRequest& request, const harness::RunResult& result,
                              const std::string& json_path) {
    // The answer ends with what it leaves out and the command that shows it.
    const std::string rendered =
        request.show_answer ? harness::render_answer(harness::build_answer(result), json_path) : "";
    if (rendered.empty())  // no answer asked, or fewer than two decoders to answer about
        return harness::render_run(result, request.format);
    return rendered;
}

// Every output attempted whatever happened to the others (a JSON result that cannot be written
// must not cost the table or -o, nor the reverse), each failure named; exit 1 when any failed.
// The JSON result first: when the table cannot be printed, the measurement is still kept.
int write_run_outputs(const harness::RunRequest& request, const harness::RunResult& result) {
    using Where = harness::SavedResult::Where;
    std::vector<std::string> failures;
    const auto attempt = [&](const char* name, const auto& write) {
        try {
            write();
        } catch (const std::exception& e) {
            failures.push_back(fmt::format("{}: {}", name, e.what()));
        }
    };
    const bool interrupted = !result.interrupted_by.empty();
    std::string json_path;
    if (request.json.where != Where::nowhere) {
        attempt("--json", [&] {
            json_path = save_result_json(
                harness::render_run(result, harness::OutputFormat::json),
                request.json.where == Where::path ? std::optional(request.json.path.string())
                                                  : std::nullopt,
                default_result_stem(), request.output.string(), interrupted);
        });
    }
    attempt(request.output.empty() ? "the table" : "-o", [&] {
        write_output(render_run_output(request, result, json_path), request.output.string(),
                     interrupted);
    });
    if (!json_path.empty())
        say("perfgauge run: result saved to {}\n", json_path);
    for (const auto& failure : failures)
        say("perfgauge run: error: {}\n", failure);
    return failures.empty() ? interrupted_or_ok(result) : kExitFailure;
}

// A measuring process: its result to the file its parent named, even when interrupted (the
// parent merges what it measured).
int measure_as_child(const harness::RunRequest& request, const RunPlan& plan,
                     const harness::SystemInfo& system) {
    const harness::RunResult result = measure_here(request, plan, system);
    if (!result.benchmarks.empty()) {
        harness::write_output_file(request.measuring_child->result_path.string(),
                                   harness::render_run(result, harness::OutputFormat::json));
    }
    return interrupted_or_ok(result);
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
    const auto request = parse_run_request(args);
    if (!request)
        return kExitOk;  // --help
    for (const auto& note : request->notes)
        say("perfgauge run: {}\n", note);
    // Interrupts stop the measurement between batches, and what was measured is saved. The
    // simulation child (under valgrind) passes them on to its simulation processes, reaps them
    // and ends; its parent saves the native result without the simulated counts.
    const harness::InterruptHandling interrupts;
    const auto system = harness::collect_system_info();
    std::string last_level_found_by;
    auto spec = suite_spec_from(request->selection, workloads::cache_sizes_from(system.caches),
                                &last_level_found_by);
    check_suite_memory(spec);
    if (request->sim_child_manifest)
        return run_simulation_child(*request, spec, system);
    if (request->against)
        return run_against(*request, std::move(spec), system);
    RunPlan plan = plan_run(*request, std::move(spec), std::move(last_level_found_by));
    if (request->measuring_child)
        return measure_as_child(*request, plan, system);

    const auto native_start = std::chrono::steady_clock::now();
    harness::RunResult result = request->processes > 1 ? measure_apart(*request, plan, system)
                                                       : measure_here(*request, plan, system);
    if (result.benchmarks.empty() && harness::interrupt_signal() != 0) {
        say("perfgauge run: interrupted by {} before any benchmark had a sample; nothing "
            "saved\n",
            interruption());
        return harness::interrupted_exit_status(harness::interrupt_signal());
    }
    const std::chrono::duration<double> native_wall =
        std::chrono::steady_clock::now() - native_start;
    simulate_run(*request, plan, system, native_wall.count(), result);
    record_last_level(*request, plan, result);
    add_cli_hints(result.events);
    return write_run_outputs(*request, result);
}

}  // namespace perfgauge::cli
