// perfgauge run's plan and native measurement: here, or split over --processes fresh measuring
// processes (this executable, each handed its share of the request as JSON).
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/child_request.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/measuring_request.hpp"
#include "perfgauge/harness/own_executable.hpp"
#include "perfgauge/harness/process_fanout.hpp"
#include "perfgauge/harness/progress_line.hpp"
#include "perfgauge/harness/request_json.hpp"
#include "perfgauge/harness/run_simulation.hpp"
#include "perfgauge/harness/run_stages.hpp"
#include "perfgauge/harness/simulation_stage.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/terminal_progress.hpp"

namespace perfgauge::harness {

namespace {

// Progress on one self-overwriting stderr line (the caller shows it on a terminal only): a
// stable total and the time left, for the whole run when it is split over processes.
std::function<void(std::string_view, std::size_t, std::size_t)> progress_line(
    const RunRequest& request, const EventPlan& events, const std::optional<MeasuringChild>& child,
    const Messages& say) {
    // The estimate counts the rounds beyond the plan and the simulation after the measurement.
    ProgressOutlook outlook;
    outlook.extra_rounds = true;
    outlook.budget_s = request.precision_percent > 0 ? request.max_time_s : 0;
    if (events.any_simulated())
        outlook.simulation_s_per_benchmark =
            simulation_seconds_per_benchmark(simulation_jobs(request));
    auto meter = std::make_shared<ProgressMeter>(
        [] {
            return std::chrono::duration<double>(
                       std::chrono::steady_clock::now().time_since_epoch())
                .count();
        },
        child ? ProcessPlace{child->index, child->count} : ProcessPlace{}, outlook);
    // Shared with the other commands: nothing in the run's first second (a later measuring
    // process is past it), redrawn at most 10 times a second (the meter sees every call).
    auto progress = std::make_shared<TerminalProgress>(
        true, "perfgauge run", say.write, steady_seconds,
        child && child->index > 0 ? 0.0 : TerminalProgress::kQuietSeconds);
    return [meter, progress](std::string_view phase, std::size_t done, std::size_t total) {
        progress->update(meter->line(phase, done, total));
    };
}

RunnerOptions runner_options(const RunRequest& request, const EventPlan& events,
                             const std::optional<MeasuringChild>& child, const Messages& say) {
    RunnerOptions options;
    options.repetitions = request.repetitions;
    options.min_sample_time_s = request.min_time_s;
    options.warmup_time_s = request.warmup_s;
    options.max_time_s = request.max_time_s;
    options.precision = request.precision_percent / 100;
    options.events = CountedEvents(events);
    options.seed = request.seed;
    options.interleave = request.interleave;
    options.pin_cpu = request.pin_cpu;
    options.fifo = request.fifo;
    options.mlock = request.mlock;
    if (progress_wanted(request.quiet))
        options.progress = progress_line(request, events, child, say);
    options.interruption = interruption;
    options.probe_cpu_gaps = !child;                   // its parent spins once, after all
    if (request.show_answer && options.precision > 0)  // the answer's verdicts, at its margin
        options.verdict_stop = StoppingRule{CompareOptions{}.min_change};
    return options;
}

// harness::measure_in_processes with this executable as each measuring process: the same
// suite, events and timing options, and the process's share (rounds, seed, budget, file).
RunResult measure_in_children(const RunRequest& request, std::uint64_t seed) {
    FanOut fan_out;
    fan_out.processes = request.processes;
    fan_out.repetitions = request.repetitions;
    fan_out.seed = seed;
    fan_out.max_time_s = request.max_time_s;
    const RunRequest base = measuring_request(request);
    const std::string executable = own_executable();
    return measure_in_processes(fan_out, [&](const ProcessShare& share) {
        const ChildRequest child = measuring_child_request(
            base, {share.repetitions,
                   share.seed,
                   share.max_time_s,
                   std::nullopt,
                   {share.index, share.processes, share.result_path, share.index == 0}});
        PendingChild process(child_argv(executable, child, PERFGAUGE_VERSION));
        process.start();
        return process.wait();
    });
}

}  // namespace

std::string interruption() {
    const int signal = interrupt_signal();
    return signal != 0 ? signal_name(signal) : std::string();
}

RunPlan plan_run(const RunRequest& request, workloads::SuiteSpec spec,
                 std::string last_level_found_by, std::optional<std::string> valgrind,
                 std::optional<MeasuringChild> child, const Messages& say) {
    RunPlan plan{std::move(spec), std::move(last_level_found_by), std::move(valgrind), {}, {},
                 std::move(child)};
    plan.events = select_events(request.events, request.backend, plan.valgrind.has_value());
    plan.spec.simulated = plan.events.any_simulated();
    plan.spec.check_decoders = !plan.child || plan.child->checks_decoders;
    plan.runner = runner_options(request, plan.events, plan.child, say);
    return plan;
}

RunResult measure_here(const RunPlan& plan, const SystemInfo& system, const Messages& say) {
    const auto& child = plan.child;
    Runner runner(plan.runner);  // select_events already refused bad names
    // Data generation and the check against the reference decoder happen here.
    const workloads::Suite suite = workloads::build_suite(plan.spec, system.cpu);
    if (!child || child->index == 0) {  // once per run, not once per measuring process
        for (const auto& note : suite.notes)
            say("perfgauge run: {}\n", note);
    }
    if (!plan.events.notice.empty() && !child)
        say("perfgauge run: {}\n", plan.events.notice);
    RunResult result = runner.run(suite.benchmarks, workloads::verdict_groups(suite.benchmarks));
    if (plan.runner.progress)
        say("\r\033[K");
    result.context = suite.context;
    for (const auto& note : suite.notes)
        result.warnings.push_back(note);
    return result;
}

RunResult measure_apart(const RunRequest& request, const RunPlan& plan, const SystemInfo& system,
                        const Messages& say) {
    if (!plan.events.notice.empty())
        say("perfgauge run: {}\n", plan.events.notice);
    const std::uint64_t seed = request.seed ? *request.seed : std::random_device{}();
    RunResult result = measure_in_children(request, seed);
    result.system = system;       // a process's result file carries only part of it
    if (interrupt_signal() == 0)  // once here, not in every measuring process
        record_cpu_gaps(result, measure_cpu_gaps());
    return result;
}

void simulate_run(const RunRequest& request, const RunPlan& plan, const SystemInfo& system,
                  double native_seconds, RunResult& result, const Messages& say) {
    const auto caches = simulated_caches_for(plan.spec, request.selection, system);
    const std::size_t benchmarks = result.benchmarks.size();
    const auto sim = simulate_and_merge(
        plan.events, request.backend,
        [&] {
            return run_simulation(request, plan.events, caches, *plan.valgrind, benchmarks, say);
        },
        result);
    if (sim) {
        result.simulation = simulation_context(plan.events, *sim, caches, request, native_seconds);
        say("perfgauge run: {}\n", time_breakdown(*sim, native_seconds));
    }
}

void record_last_level(const RunRequest& request, const RunPlan& plan, RunResult& result,
                       const Messages& say) {
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

}  // namespace perfgauge::harness
