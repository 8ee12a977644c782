// perfgauge stat [-e LIST] [-r N] [--markers | --delay MS] [--format F] [-o FILE] -- CMD ...
// The stages, each a function: parse (stat_options.cpp: a StatRequest) -> plan (the events)
// -> run the commands -> simulate -> render -> write.
#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>

#include "cli_common.hpp"
#include "console.hpp"
#include "hints.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/interrupted.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/simulation_stage.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_as_run.hpp"
#include "perfgauge/harness/stat_progress.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "run_simulation.hpp"
#include "stat_options.hpp"

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
    result.notes.push_back(
        fmt::format("sim: one run under {} ({} process{}, {:.2f} s; native {:.2f} s{}){}{}",
                    sim.creator, sim.processes, sim.processes == 1 ? "" : "es", sim.wall_seconds,
                    result.elapsed_seconds.empty() ? 0.0 : result.elapsed_seconds.back(),
                    harness::needs_cache_simulation(plan.simulated_events())
                        ? ""
                        : "; no cache simulation: no cache event",
                    sim.exit.code != result.exit.code || sim.exit.signaled != result.exit.signaled
                        ? fmt::format("; under callgrind the command {}", sim.exit.describe())
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

// The progress line on stderr when it is a terminal (not with -q; never into a file or a
// pipe): redrawn as each run starts once the runs have taken a second (a quick stat shows
// none), and cleared before anything else is said. A command writing to the same terminal
// writes after it.
class ProgressLine {
  public:
    explicit ProgressLine(bool on) : on_(on) {}
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    ~ProgressLine() { clear(); }

    // What StatOptions::on_run calls: the rate is taken from the first run's start.
    std::function<void(const harness::StatStep&)> on_run() {
        if (!on_)
            return nullptr;
        return [this](const harness::StatStep& step) {
            const double now = seconds();
            if (step.done == 0)
                started_ = now;
            if (now - started_ >= kQuietSeconds)
                show(harness::stat_progress_text(step, now - started_));
        };
    }
    void show(const std::string& text) {
        if (!on_)
            return;
        say("\r\033[Kperfgauge stat: {}", text);
        shown_ = true;
    }
    void clear() {
        if (shown_)
            say_text("\r\033[K");
        shown_ = false;
    }

  private:
    static constexpr double kQuietSeconds = 1.0;
    static double seconds() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    bool on_;
    bool shown_ = false;
    double started_ = 0;
};

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

// Each command's simulated events: counted once more under callgrind, or marked why not.
void simulate_commands(const harness::StatRequest& request, const StatPlan& plan,
                       harness::SideBySideResult& result, ProgressLine& progress) {
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        auto& r = result.commands[c];
        if (plan.events.any_simulated() && harness::interrupt_signal() == 0 &&
            !r.elapsed_seconds.empty()) {
            progress.show(result.commands.size() > 1
                              ? fmt::format("one run of {} under callgrind ({}/{})",
                                            harness::side_by_side_letter(c), c + 1,
                                            result.commands.size())
                              : "one run under callgrind");
            simulate_or_say_why_not(r, plan.events, *plan.valgrind, request.commands[c],
                                    request.prepare);
            progress.clear();
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
    ProgressLine progress(!request->quiet && ::isatty(STDERR_FILENO));
    plan.runs.stat.on_run = progress.on_run();
    // Said before anything runs; beside the answer in one line (the why is --format table's
    // and -v's, where the simulated events' notes say it).
    if (!plan.events.notice.empty() && request->answer) {
        say("perfgauge stat: {} simulated (no hardware counter here): each command runs once "
            "more under callgrind after the rounds\n",
            fmt::join(plan.events.simulated_events(), ", "));
    } else if (!plan.events.notice.empty()) {
        say("perfgauge stat: {}; {} once more under callgrind after {} counted runs\n",
            plan.events.notice,
            request->side_by_side() ? "each command runs"
                                    : fmt::format("'{}' runs", request->commands.front().front()),
            request->side_by_side() ? "their" : "its");
    }
    // SIGINT, SIGTERM and SIGHUP reach CMD and end the repetitions; what completed is reported.
    const harness::InterruptHandling interrupts;
    // What CMD leaves behind when it dies becomes ours, so an interruption can end it too.
    harness::adopt_orphans();
    harness::SideBySideResult result = run_commands(*request, plan);
    progress.clear();
    const int interrupt = harness::interrupt_signal();
    if (const auto status = nothing_to_report(*request, result))
        return *status;
    simulate_commands(*request, plan, result, progress);
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
