// perfgauge stat [-e LIST] [-r N] [--markers | --delay MS] [--format F] [-o FILE] -- CMD ...
// This file parses (stat/options.cpp: a StatRequest), calls the stages of harness/pipeline
// (plan the events -> run the commands -> simulate) and renders and writes what they return.
#include <fmt/format.h>

#include <cstring>
#include <functional>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "common/hints.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/interrupted.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_as_run.hpp"
#include "perfgauge/harness/stat_progress.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/stat_stages.hpp"
#include "perfgauge/harness/terminal_progress.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "registry.hpp"
#include "run/simulation.hpp"
#include "stat/options.hpp"

namespace perfgauge::cli {

namespace {

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

// The events resolved for the request's backend, and the runs built from the request; -v
// prints what perf_event_open was given.
harness::StatPlan plan_for(const harness::StatRequest& request) {
    harness::StatPlan plan = harness::plan_stat(request, simulation_valgrind(request.backend));
    if (request.delay && plan.events.any_simulated()) {
        throw UsageError(
            "--delay cannot apply to simulated events (callgrind has no clock to "
            "wait for): use --markers, --backend perf, or software events only");
    }
    if (request.verbose)
        plan.runs.stat.on_opened = print_opened;
    return plan;
}

}  // namespace

int stat_command(const std::vector<std::string>& args) {
    const auto request = parse_stat_request(args);
    if (!request)
        return kExitOk;  // --help
    harness::StatPlan plan = plan_for(*request);
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
    harness::SideBySideResult result = harness::run_commands(*request, plan);
    const double native_seconds = harness::steady_seconds() - native_start;
    progress.clear();
    const int interrupt = harness::interrupt_signal();
    if (const auto status = nothing_to_report(*request, result))
        return *status;
    harness::simulate_commands(*request, plan, result, progress, native_seconds,
                               harness::Messages{say_text});
    for (auto& r : result.commands)
        add_cli_hints(r.events);
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
