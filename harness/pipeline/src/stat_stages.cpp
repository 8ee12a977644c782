// perfgauge stat's stages: the plan, the counted runs, and the simulation of each command once
// more under callgrind within --sim-budget (or why not).
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/run_simulation.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/simulation_budget.hpp"
#include "perfgauge/harness/simulation_stage.hpp"
#include "perfgauge/harness/stat_progress.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/stat_stages.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/system_info.hpp"

namespace perfgauge::harness {

namespace {

// CMD once more under callgrind; its counts join the native result, labelled sim.
void simulate_into(StatResult& result, const EventPlan& plan, const std::string& valgrind,
                   const std::vector<std::string>& command) {
    pmu::CallgrindSetup setup;
    setup.valgrind = valgrind;
    const auto caches = simulated_caches(collect_system_info().caches);
    setup.i1 = caches.i1;
    setup.d1 = caches.d1;
    setup.ll = caches.ll;
    const auto sim = simulate_command(setup, command, plan.simulated_events(), result.markers);
    if (interrupt_signal() != 0)
        throw std::runtime_error("interrupted");  // counts of a run cut short: not merged
    merge_simulated(result, plan, sim);
    result.notes.push_back(fmt::format(
        "sim: one run under {} ({} process{}, {:.2f} s; native {:.2f} s{}; its "
        "output kept apart: stdout to /dev/null, stderr said only when it fails){}{}",
        sim.creator, sim.processes, sim.processes == 1 ? "" : "es", sim.wall_seconds,
        result.elapsed_seconds.empty() ? 0.0 : result.elapsed_seconds.back(),
        needs_cache_simulation(plan.simulated_events()) ? ""
                                                        : "; no cache simulation: no cache event",
        sim.exit.code != result.exit.code || sim.exit.signaled != result.exit.signaled
            ? fmt::format("; under callgrind the command {}{}", sim.exit.describe(),
                          sim.stderr_tail.empty() ? "" : "; its stderr ended: " + sim.stderr_tail)
            : "",
        result.markers ? "; simulated only between the markers (--instr-atstart=no "
                         "and the markers' callgrind client requests)"
                       : ""));
    if (needs_cache_simulation(plan.simulated_events())) {
        for (const auto& note : caches.notes)
            result.notes.push_back("sim: " + note);
    }
}

// simulate_into after --prepare (when given), unless an interrupt stops them, --prepare fails,
// or the run under callgrind fails: then the native counts are reported alone (and the
// command's status kept: a --prepare failing here does not set it) and the simulated events
// say why they have no value.
void simulate_or_say_why_not(StatResult& result, const EventPlan& plan, const std::string& valgrind,
                             const std::vector<std::string>& command, const std::string& prepare) {
    const auto say_why_not = [&](const EventRefusal& why) {
        merge_simulated(result, without_simulation(plan, why), CommandSimulation{});
    };
    const auto say_interrupted = [&](const EventRefusal& why) {
        result.interrupted_by = signal_name(interrupt_signal());
        say_why_not(why);
    };
    // The simulated run starts from the state --prepare gave every counted run.
    if (!prepare.empty()) {
        const ExitStatus prepared = run_prepare(prepare);
        if (interrupt_signal() != 0)
            return say_interrupted(
                interrupted_simulation_now("during --prepare, before the run under callgrind"));
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
        if (interrupt_signal() != 0)
            return say_interrupted(interrupted_simulation_now());
        say_why_not({"not counted", fmt::format("the run under callgrind failed: {}", e.what()),
                     "count the command natively (--backend perf), or see perfgauge doctor"});
    }
}

// Warmups, --prepare and a stop (a failing command or --prepare) of a single command's runs,
// as notes of its one-command report.
void note_single_run_setup(SideBySideResult& r) {
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

// The simulation's budget over the commands that completed a run (their median native wall
// times); `native_seconds`: the native runs' wall time, warmups and --prepare included.
SimulationBudget simulation_budget(const StatRequest& request, const StatPlan& plan,
                                   const SideBySideResult& result, double native_seconds) {
    std::vector<double> walls;
    for (const auto& r : result.commands) {
        if (!r.elapsed_seconds.empty())
            walls.push_back(median(r.elapsed_seconds));
    }
    // --backend sim asked for the simulation: no limit unless --sim-budget says one.
    const auto asked = request.sim_budget || request.backend != Backend::sim
                           ? request.sim_budget
                           : std::optional<double>(std::numeric_limits<double>::infinity());
    return SimulationBudget(
        simulation_budget_seconds(asked, native_seconds),
        default_simulation_cost(needs_cache_simulation(plan.events.simulated_events())),
        std::move(walls));
}

// Why the simulated events have no value when the budget cannot hold the runs left; said once
// on stderr (one line, with the flag that asks for them).
EventRefusal left_out(const EventPlan& plan, const SimulationBudget& budget, const Messages& say) {
    const double estimate = budget.estimate_left();
    const std::string reason =
        budget.budget_left() <= 0 && budget.next() == 0
            ? "left out: --sim-budget 0"
            : fmt::format("callgrind would take about {}{}, over the {} budget{}",
                          budget_text(estimate), budget.next() > 0 ? " more" : "",
                          budget_text(budget.budget_left()), budget.next() > 0 ? " left" : "");
    const std::string fix = fmt::format("--sim-budget {} or none asks for them",
                                        sim_budget_to_ask(budget.spent() + estimate));
    say("perfgauge stat: not simulated: {} ({}; {})\n", fmt::join(plan.simulated_events(), ", "),
        reason, fix);
    return {"not simulated", reason, fix};
}

// Command `c` once more under callgrind (simulate_or_say_why_not), its time said on the
// terminal and given to the budget.
void simulate_one(const StatRequest& request, const StatPlan& plan, SideBySideResult& result,
                  std::size_t c, SimulationBudget& budget, TerminalProgress& progress,
                  const Messages& say) {
    const std::size_t commands = result.commands.size();
    // Beside the answer, the one line said about the simulation (the other formats said why
    // before the runs).
    if (budget.next() == 0 && request.answer && !plan.events.notice.empty())
        say("perfgauge stat: {} simulated (no PMU here): one more run of {} under callgrind, "
            "about {}, its output dropped\n",
            fmt::join(plan.events.simulated_events(), ", "), commands > 1 ? "each" : "it",
            budget_text(budget.estimate_left()));
    const std::string which = commands > 1 ? fmt::format("one run of {} under callgrind ({}/{})",
                                                         side_by_side_letter(c), c + 1, commands)
                                           : "one run under callgrind";
    progress.show(fmt::format("{}, {} left", which, time_left_text(budget.estimate_left())));
    const double start = steady_seconds();
    simulate_or_say_why_not(result.commands[c], plan.events, *plan.valgrind, request.commands[c],
                            request.prepare);
    budget.done(steady_seconds() - start);
    progress.clear();
}

}  // namespace

StatPlan plan_stat(const StatRequest& request, std::optional<std::string> valgrind) {
    StatPlan plan;
    plan.valgrind = std::move(valgrind);
    plan.events = select_events(request.events, request.backend, plan.valgrind.has_value());
    SideBySideOptions& runs = plan.runs;
    runs.commands = request.commands;
    runs.warmup = request.warmup;
    runs.prepare = request.prepare;
    StatOptions& stat = runs.stat;
    stat.command = request.commands.front();
    stat.repetitions = request.repetitions;
    stat.markers = request.markers;
    stat.delay = request.delay;
    stat.events = CountedEvents(plan.events);
    stat.counted_elsewhere = plan.events.any_simulated();
    return plan;
}

SideBySideResult run_commands(const StatRequest& request, const StatPlan& plan) {
    SideBySideResult result;
    if (!request.side_by_side() && request.warmup == 0 && request.prepare.empty()) {
        result.commands.push_back(run_stat(plan.runs.stat));
        result.labels = side_by_side_labels(request.commands);
        result.rounds_planned = plan.runs.stat.repetitions;
    } else {
        result = run_side_by_side(plan.runs);
        if (!request.side_by_side())
            note_single_run_setup(result);
    }
    return result;
}

void simulate_commands(const StatRequest& request, const StatPlan& plan, SideBySideResult& result,
                       TerminalProgress& progress, double native_seconds, const Messages& say) {
    auto budget = simulation_budget(request, plan, result, native_seconds);
    std::optional<EventRefusal> not_simulated;
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        auto& r = result.commands[c];
        if (plan.events.any_simulated() && interrupt_signal() == 0 && !r.elapsed_seconds.empty()) {
            if (!not_simulated && !budget.rest_fits())
                not_simulated = left_out(plan.events, budget, say);
            if (not_simulated)
                merge_simulated(r, without_simulation(plan.events, *not_simulated),
                                CommandSimulation{});
            else
                simulate_one(request, plan, result, c, budget, progress, say);
        } else if (plan.events.any_simulated() && interrupt_signal() != 0) {
            // The native runs were cut short and callgrind never ran: not "<counted>".
            merge_simulated(r,
                            without_simulation(plan.events, interrupted_native_measurement(
                                                                signal_name(interrupt_signal()))),
                            CommandSimulation{});
        } else if (request.backend != Backend::perf) {
            merge_simulated(r, plan.events, CommandSimulation{});
        }
    }
}

}  // namespace perfgauge::harness
