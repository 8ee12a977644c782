// perfgauge stat [-e LIST] [-r N] [--markers | --delay MS] [--format F] [-o FILE] -- CMD ...
// The stages, each a function: parse (stat_options.cpp: a StatRequest) -> plan (the events)
// -> run the commands -> simulate -> render -> write.
#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <limits>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "common/hints.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/interrupted.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/progress_line.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/simulation_budget.hpp"
#include "perfgauge/harness/simulation_stage.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_as_run.hpp"
#include "perfgauge/harness/stat_progress.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/harness/terminal_progress.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "registry.hpp"
#include "run/simulation.hpp"
#include "stat/options.hpp"

namespace perfgauge::cli {

namespace {

// CMD once more under callgrind; its counts join the native result, labelled sim.
void simulate_into(harness::StatResult& result, const harness::EventPlan& plan,
                   const std::string& valgrind, const std::vector<std::string>& command) {
    pmu::CallgrindSetup setup;
    setup.valgrind = valgrind;
    const auto caches = harness::simulated_caches(harness::collect_system_info().caches);
    setup.i1 = caches.i1;
    setup.d1 = caches.d1;
    setup.ll = caches.ll;
    const auto sim =
        harness::simulate_command(setup, command, plan.simulated_events(), result.markers);
    if (harness::interrupt_signal() != 0)
        throw std::runtime_error("interrupted");  // counts of a run cut short: not merged
    harness::merge_simulated(result, plan, sim);
    result.notes.push_back(fmt::format(
        "sim: one run under {} ({} process{}, {:.2f} s; native {:.2f} s{}; its "
        "output kept apart: stdout to /dev/null, stderr said only when it fails){}{}",
        sim.creator, sim.processes, sim.processes == 1 ? "" : "es", sim.wall_seconds,
        result.elapsed_seconds.empty() ? 0.0 : result.elapsed_seconds.back(),
        harness::needs_cache_simulation(plan.simulated_events())
            ? ""
            : "; no cache simulation: no cache event",
        sim.exit.code != result.exit.code || sim.exit.signaled != result.exit.signaled
            ? fmt::format("; under callgrind the command {}{}", sim.exit.describe(),
                          sim.stderr_tail.empty() ? "" : "; its stderr ended: " + sim.stderr_tail)
            : "",
        result.markers ? "; simulated only between the markers (--instr-atstart=no "
                         "and the markers' callgrind client requests)"
                       : ""));
    if (harness::needs_cache_simulation(plan.simulated_events())) {
        for (const auto& note : caches.notes)
            result.notes.push_back("sim: " + note);
    }
}

// simulate_into after --prepare (when given), unless an interrupt stops them, --prepare fails,
// or the run under callgrind fails: then the native counts are reported alone (and the
// command's status kept: a --prepare failing here does not set it) and the simulated events
// say why they have no value.
void simulate_or_say_why_not(harness::StatResult& result, const harness::EventPlan& plan,
                             const std::string& valgrind, const std::vector<std::string>& command,
                             const std::string& prepare) {
    const auto say_why_not = [&](const harness::EventRefusal& why) {
        harness::merge_simulated(result, harness::without_simulation(plan, why),
                                 harness::CommandSimulation{});
    };
    const auto say_interrupted = [&](const harness::EventRefusal& why) {
        result.interrupted_by = harness::signal_name(harness::interrupt_signal());
        say_why_not(why);
    };
    // The simulated run starts from the state --prepare gave every counted run.
    if (!prepare.empty()) {
        const harness::ExitStatus prepared = harness::run_prepare(prepare);
        if (harness::interrupt_signal() != 0)
            return say_interrupted(
                interrupted_simulation("during --prepare, before the run under callgrind"));
        if (prepared.shell_status() != 0) {
            return say_why_not(
                {"not counted",
                 fmt::format("--prepare '{}' {} before the run under callgrind", prepare,
                             prepared.describe()),
                 "make --prepare succeed before every run, or count natively (--backend perf)"});
        }
    }
    try {
        simulate_into(result, plan, valgrind, command);
    } catch (const std::runtime_error& e) {
        if (harness::interrupt_signal() != 0)
            return say_interrupted(interrupted_simulation());
        say_why_not({"not counted", fmt::format("the run under callgrind failed: {}", e.what()),
                     "count the command natively (--backend perf), or see perfgauge doctor"});
    }
}

// stat's progress on a terminal (harness/system's TerminalProgress): the rate is taken from
// the first run's start, and the quiet second counts from there.
std::function<void(const harness::StatStep&)> progress_on_run(harness::TerminalProgress& progress) {
    if (!progress.on())
        return nullptr;
    return [&progress](const harness::StatStep& step) {
        if (step.done == 0)
            progress.restart();
        progress.update(harness::stat_progress_text(step, progress.elapsed()));
    };
}

// -v: what perf_event_open accepted for each event (inherit, enable_on_exec and read_format
// as opened, not as parsed), or why it refused it.
void print_opened(const pmu::CounterSet& counters) {
    for (const auto& e : counters.events()) {
        if (e.opened) {
            say("perfgauge stat: {} (group {}, {}): {}\n", e.spec.name, e.group + 1,
                e.position == 0 ? "leader" : "member", pmu::dump_attr(e.opened_attr));
        } else {
            say("perfgauge stat: {}: not opened ({}): {}\n", e.spec.name, std::strerror(e.error),
                pmu::dump_attr(e.spec.attr));
        }
    }
}

// Warmups, --prepare and a stop (a failing command or --prepare) of a single command's runs,
// as notes of its one-command report.
void note_single_run_setup(harness::SideBySideResult& r) {
    auto& notes = r.commands.front().notes;
    // An interrupt between runs (or during --prepare) reached no run, but ended them.
    if (r.commands.front().interrupted_by.empty())
        r.commands.front().interrupted_by = r.interrupted_by;
    if (r.warmup > 0)
        notes.push_back(
            fmt::format("{} warmup run{} first, not counted", r.warmup, r.warmup == 1 ? "" : "s"));
    if (!r.prepare.empty())
        notes.push_back(fmt::format("'{}' ran before every run (--prepare)", r.prepare));
    if (r.failed_prepare) {
        notes.push_back(fmt::format("stopped: --prepare {} after {} run{}",
                                    r.failed_prepare->describe(), r.commands.front().repetitions,
                                    r.commands.front().repetitions == 1 ? "" : "s"));
    } else if (r.failed_in_warmup) {
        notes.push_back(fmt::format("stopped: the command {} in a warmup run",
                                    r.commands.front().exit.describe()));
    } else if (r.failed_command && r.commands.front().repetitions < r.rounds_planned) {
        notes.push_back(fmt::format("stopped after run {} of {}: the command {}",
                                    r.commands.front().repetitions, r.rounds_planned,
                                    r.commands.front().exit.describe()));
    }
}

// The events resolved for the request's backend; StatOptions and the runs built from them.
struct StatPlan {
    std::optional<std::string> valgrind;
    harness::EventPlan events;
    harness::SideBySideOptions runs;
};

StatPlan plan_stat(const harness::StatRequest& request) {
    StatPlan plan;
    plan.valgrind = simulation_valgrind(request.backend);
    plan.events =
        harness::select_events(request.events, request.backend, plan.valgrind.has_value());
    if (request.delay && plan.events.any_simulated()) {
        throw UsageError(
            "--delay cannot apply to simulated events (callgrind has no clock to "
            "wait for): use --markers, --backend perf, or software events only");
    }
    harness::SideBySideOptions& runs = plan.runs;
    runs.commands = request.commands;
    runs.warmup = request.warmup;
    runs.prepare = request.prepare;
    harness::StatOptions& stat = runs.stat;
    stat.command = request.commands.front();
    stat.repetitions = request.repetitions;
    stat.markers = request.markers;
    stat.delay = request.delay;
    stat.events = harness::CountedEvents(plan.events);
    stat.counted_elsewhere = plan.events.any_simulated();
    if (request.verbose)
        stat.on_opened = print_opened;
    return plan;
}

// The counted runs: one command alone, or side by side (also a single command's warmups and
// --prepare, which run_side_by_side handles).
harness::SideBySideResult run_commands(const harness::StatRequest& request, const StatPlan& plan) {
    harness::SideBySideResult result;
    if (!request.side_by_side() && request.warmup == 0 && request.prepare.empty()) {
        result.commands.push_back(harness::run_stat(plan.runs.stat));
        result.labels = harness::side_by_side_labels(request.commands);
        result.rounds_planned = plan.runs.stat.repetitions;
    } else {
        result = harness::run_side_by_side(plan.runs);
        if (!request.side_by_side())
            note_single_run_setup(result);
    }
    return result;
}

// The exit status when nothing can be reported (interrupted before any complete run, a
// command that cannot be executed, --prepare failing first); nullopt otherwise.
std::optional<int> nothing_to_report(const harness::StatRequest& request,
                                     const harness::SideBySideResult& result) {
    const int interrupt = harness::interrupt_signal();
    const std::size_t completed =
        request.side_by_side() ? result.complete_rounds()
                               : static_cast<std::size_t>(result.commands.front().repetitions);
    if (interrupt != 0 && completed == 0) {
        say("perfgauge stat: interrupted by {} before {} completed; nothing to report\n",
            harness::signal_name(interrupt),
            request.side_by_side()
                ? "a round of every command"
                : fmt::format("a run of '{}'", request.commands.front().front()));
        harness::end_remaining_children(interrupt, 1000);
        return harness::interrupted_exit_status(interrupt);
    }
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        const auto& r = result.commands[c];
        if (r.exit.exec_failed && r.elapsed_seconds.empty()) {
            // Nothing ran, so there is nothing to report (and no file is written).
            say("perfgauge stat: cannot execute '{}': {}\n", request.commands[c].front(),
                std::strerror(r.exit.exec_error));
            return r.exit.shell_status();
        }
    }
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        auto events = result.commands[c].events;
        if (!result.commands[c].no_event_opened)
            continue;
        // Not a run of the command: nothing would have been counted (exit 1, no report).
        add_cli_hints(events);
        say("perfgauge stat: no event can be counted, so '{}' was not run:\n",
            request.commands[c].front());
        for (const auto& e : events) {
            say("  {}\n", harness::refusal_line(e));
            if (!e.refusal.fix.empty())
                say("    fix: {}\n", e.refusal.fix);
        }
        return kExitFailure;
    }
    if (result.failed_prepare && completed == 0) {
        say("perfgauge stat: --prepare '{}' {} before the first counted run; nothing to "
            "report\n",
            request.prepare, result.failed_prepare->describe());
        return result.exit_status();
    }
    return std::nullopt;
}

// The simulation's budget over the commands that completed a run (their median native wall
// times); `native_seconds`: the native runs' wall time, warmups and --prepare included.
harness::SimulationBudget simulation_budget(const harness::StatRequest& request,
                                            const StatPlan& plan,
                                            const harness::SideBySideResult& result,
                                            double native_seconds) {
    std::vector<double> walls;
    for (const auto& r : result.commands) {
        if (!r.elapsed_seconds.empty())
            walls.push_back(harness::median(r.elapsed_seconds));
    }
    // --backend sim asked for the simulation: no limit unless --sim-budget says one.
    const auto asked = request.sim_budget || request.backend != harness::Backend::sim
                           ? request.sim_budget
                           : std::optional<double>(std::numeric_limits<double>::infinity());
    return harness::SimulationBudget(
        harness::simulation_budget_seconds(asked, native_seconds),
        harness::default_simulation_cost(
            harness::needs_cache_simulation(plan.events.simulated_events())),
        std::move(walls));
}

// Why the simulated events have no value when the budget cannot hold the runs left; said once
// on stderr (one line, with the flag that asks for them).
harness::EventRefusal left_out(const harness::EventPlan& plan,
                               const harness::SimulationBudget& budget) {
    const double estimate = budget.estimate_left();
    const std::string reason =
        budget.budget_left() <= 0 && budget.next() == 0
            ? "left out: --sim-budget 0"
            : fmt::format("callgrind would take about {}{}, over the {} budget{}",
                          harness::budget_text(estimate), budget.next() > 0 ? " more" : "",
                          harness::budget_text(budget.budget_left()),
                          budget.next() > 0 ? " left" : "");
    const std::string fix = fmt::format("--sim-budget {} or none asks for them",
                                        harness::sim_budget_to_ask(budget.spent() + estimate));
    say("perfgauge stat: not simulated: {} ({}; {})\n", fmt::join(plan.simulated_events(), ", "),
        reason, fix);
    return {"not simulated", reason, fix};
}

// Command `c` once more under callgrind (simulate_or_say_why_not), its time said on the
// terminal and given to the budget.
void simulate_one(const harness::StatRequest& request, const StatPlan& plan,
                  harness::SideBySideResult& result, std::size_t c,
                  harness::SimulationBudget& budget, harness::TerminalProgress& progress) {
    const std::size_t commands = result.commands.size();
    // Beside the answer, the one line said about the simulation (the other formats said why
    // before the runs).
    if (budget.next() == 0 && request.answer && !plan.events.notice.empty())
        say("perfgauge stat: {} simulated (no PMU here): one more run of {} under callgrind, "
            "about {}, its output dropped\n",
            fmt::join(plan.events.simulated_events(), ", "), commands > 1 ? "each" : "it",
            harness::budget_text(budget.estimate_left()));
    const std::string which = commands > 1
                                  ? fmt::format("one run of {} under callgrind ({}/{})",
                                                harness::side_by_side_letter(c), c + 1, commands)
                                  : "one run under callgrind";
    progress.show(
        fmt::format("{}, {} left", which, harness::time_left_text(budget.estimate_left())));
    const double start = harness::steady_seconds();
    simulate_or_say_why_not(result.commands[c], plan.events, *plan.valgrind, request.commands[c],
                            request.prepare);
    budget.done(harness::steady_seconds() - start);
    progress.clear();
}

// Each command's simulated events: counted once more under callgrind while the budget holds
// the runs left, or marked why not.
void simulate_commands(const harness::StatRequest& request, const StatPlan& plan,
                       harness::SideBySideResult& result, harness::TerminalProgress& progress,
                       double native_seconds) {
    auto budget = simulation_budget(request, plan, result, native_seconds);
    std::optional<harness::EventRefusal> not_simulated;
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        auto& r = result.commands[c];
        if (plan.events.any_simulated() && harness::interrupt_signal() == 0 &&
            !r.elapsed_seconds.empty()) {
            if (!not_simulated && !budget.rest_fits())
                not_simulated = left_out(plan.events, budget);
            if (not_simulated)
                harness::merge_simulated(r,
                                         harness::without_simulation(plan.events, *not_simulated),
                                         harness::CommandSimulation{});
            else
                simulate_one(request, plan, result, c, budget, progress);
        } else if (plan.events.any_simulated() && harness::interrupt_signal() != 0) {
            // The native runs were cut short and callgrind never ran: not "<counted>".
            harness::merge_simulated(
                r,
                harness::without_simulation(plan.events,
                                            harness::interrupted_native_measurement(
                                                harness::signal_name(harness::interrupt_signal()))),
                harness::CommandSimulation{});
        } else if (request.backend != harness::Backend::perf) {
            harness::merge_simulated(r, plan.events, harness::CommandSimulation{});
        }
        add_cli_hints(r.events);
    }
}

// The report to stderr or -o; a report that cannot be written is said, and the status stays
// the command's.
void write_report(const harness::StatRequest& request, const harness::SideBySideResult& result,
                  int status) {
    std::string report;
    if (request.side_by_side()) {
        const auto comparison = harness::compare_side_by_side(result, harness::CompareOptions{});
        report = request.answer ? harness::render_side_by_side_answer(result, comparison)
                                : harness::render_side_by_side(result, comparison, request.format);
    } else {
        report = harness::render_stat(result.commands.front(), request.format);
    }
    if (request.output.empty()) {
        say_text(report);
        return;
    }
    try {
        write_output_keeping(request.output.string(), report, harness::interrupt_signal() != 0);
    } catch (const harness::Interrupted&) {
        throw;  // main says so and exits 128+N: the status is not the command's then
    } catch (const std::runtime_error& e) {
        say("perfgauge stat: error: {}; the exit status is still the command's ({})\n", e.what(),
            status);
    }
}

// Which command (or --prepare) the exit status comes from, when it is not plainly CMD's.
void say_status_source(const harness::StatRequest& request, const harness::SideBySideResult& result,
                       int status) {
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        if (result.commands[c].exit.signaled)
            say("perfgauge stat: '{}' was {}\n", request.commands[c].front(),
                result.commands[c].exit.describe());
    }
    if (request.side_by_side() && result.failed_command && status == result.exit_status()) {
        say("perfgauge stat: exit status {}: '{}' {}{}\n", status,
            result.labels[*result.failed_command],
            result.commands[*result.failed_command].exit.describe(),
            result.failed_in_warmup ? " in a warmup run" : "");
    } else if (result.failed_prepare && status == result.exit_status()) {
        say("perfgauge stat: exit status {}: --prepare '{}' {}\n", status, request.prepare,
            result.failed_prepare->describe());
    }
}

}  // namespace

int stat_command(const std::vector<std::string>& args) {
    const auto request = parse_stat_request(args);
    if (!request)
        return kExitOk;  // --help
    StatPlan plan = plan_stat(*request);
    harness::TerminalProgress progress(harness::progress_wanted(request->quiet), "perfgauge stat",
                                       say_text);
    plan.runs.stat.on_run = progress_on_run(progress);
    // Said before anything runs, but beside the answer: there, one line after the rounds says
    // what is simulated or left out (simulate_commands).
    if (!plan.events.notice.empty() && !request->answer) {
        say("perfgauge stat: {}; {} once more under callgrind after {} counted runs (within "
            "--sim-budget; its output to /dev/null, its stderr said only when it fails)\n",
            plan.events.notice,
            request->side_by_side() ? "each command runs"
                                    : fmt::format("'{}' runs", request->commands.front().front()),
            request->side_by_side() ? "their" : "its");
    }
    // SIGINT, SIGTERM and SIGHUP reach CMD and end the repetitions; what completed is reported.
    const harness::InterruptHandling interrupts;
    // What CMD leaves behind when it dies becomes ours, so an interruption can end it too.
    harness::adopt_orphans();
    const double native_start = harness::steady_seconds();
    harness::SideBySideResult result = run_commands(*request, plan);
    const double native_seconds = harness::steady_seconds() - native_start;
    progress.clear();
    const int interrupt = harness::interrupt_signal();
    if (const auto status = nothing_to_report(*request, result))
        return *status;
    simulate_commands(*request, plan, result, progress, native_seconds);
    // The command's exit status is kept whatever happens to the report (the status is then
    // the only thing that still reaches the caller).
    const bool plain = !request->side_by_side() && request->warmup == 0 && request->prepare.empty();
    const int status = harness::interrupt_signal() != 0
                           ? harness::interrupted_exit_status(harness::interrupt_signal())
                       : plain ? result.commands.front().exit.shell_status()
                               : result.exit_status();
    write_report(*request, result, status);
    say_status_source(*request, result, status);
    if (interrupt != 0 || harness::interrupt_signal() != 0)
        harness::end_remaining_children(harness::interrupt_signal(), 1000);
    return status;
}

}  // namespace perfgauge::cli
