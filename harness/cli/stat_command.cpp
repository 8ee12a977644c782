// perfgauge stat [-e LIST] [-r N] [--markers | --delay MS] [--format F] [-o FILE] -- CMD ...
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <set>

#include "cli_common.hpp"
#include "console.hpp"
#include "hints.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_as_run.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "run_simulation.hpp"

namespace perfgauge::cli {

namespace {

// Everything before the command: up to "--", or up to the first word that is neither an
// option nor an option's value. The rest is the command, passed on untouched.
std::size_t command_start(const std::vector<std::string>& args) {
    static const std::set<std::string> takes_value = {
        "-e", "--events", "-r",        "--repeat", "--repetitions", "--format",
        "-o", "--output", "--backend", "--delay",  "--warmup",      "--prepare"};
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--")
            return i;
        if (args[i].empty() || args[i][0] != '-')
            return i;
        if (takes_value.count(args[i]))
            ++i;
    }
    return args.size();
}

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

constexpr int kDefaultRounds = 10;

// "A ::: B ::: C" -> {A, B, C}; a ":::" at either end or twice in a row leaves a command empty.
std::vector<std::vector<std::string>> split_commands(const std::vector<std::string>& words) {
    std::vector<std::vector<std::string>> commands(1);
    for (const auto& w : words) {
        if (w == ":::")
            commands.emplace_back();
        else
            commands.back().push_back(w);
    }
    for (std::size_t c = 0; c < commands.size(); ++c) {
        if (commands[c].empty()) {
            throw UsageError(fmt::format(
                "command {} of {} is empty: separate commands with ':::' (perfgauge stat -- "
                "CMD_A [ARGS] ::: CMD_B [ARGS])",
                c + 1, commands.size()));
        }
    }
    return commands;
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

}  // namespace

int stat_command(const std::vector<std::string>& args) {
    po::options_description options(fmt::format(
        "usage: perfgauge stat [-e LIST] [-r N] [--markers | --delay MS] [--warmup N]\n"
        "                      [--prepare CMD] [--format table|csv|json|md] [-o FILE] [-v]\n"
        "                      [--] CMD [ARGS...] [::: CMD_B [ARGS...] ...]\n\n"
        "Runs CMD (no shell; PATH is searched) with counters attached from its exec on,\n"
        "its children included, and reports each event like perf stat: the median over the\n"
        "runs, the robust spread (median absolute deviation, % of the median), the running\n"
        "fraction when counters were multiplexed, and IPC / miss rates when their inputs exist,\n"
        "with the wall time and the CPU time (user, sys) of each run.\n"
        "Side by side: commands separated by ':::' run round by round, interleaved (A B, then\n"
        "B A, ...: drift of the machine weighs on each alike), -r N rounds. One table shows each\n"
        "command's medians and spreads, then every command against the first: ratio, the 95%\n"
        "interval of the change paired by round, and a verdict (faster/slower, fewer/more,\n"
        "equivalent, inconclusive), as perfgauge compare gives them.\n"
        "Where the kernel cannot count hardware events (no PMU) and valgrind is installed,\n"
        "--backend auto (the default) simulates those callgrind can (instructions, branches,\n"
        "branch-misses, L1-dcache-*, LLC-*) by running each command once more under valgrind\n"
        "--tool=callgrind (children followed); --backend sim always does, --backend perf never.\n"
        "Every value is labelled hw, sw or sim; time is never simulated.\n"
        "--markers counts only the regions CMD marks with perfgauge_marker_start() and\n"
        "perfgauge_marker_stop() from the header-only <perfgauge/marker.h> (C or C++, nothing\n"
        "to link; they do nothing outside perfgauge): counters start disabled, and every marker\n"
        "turns them on or off for all of CMD's threads and children before it returns. The\n"
        "report says how many marked intervals it saw; 0 when CMD never marked (then nothing\n"
        "is counted). Simulated counts follow the markers too (callgrind's client requests).\n"
        "--delay MS enables the counters MS milliseconds after exec (perf stat -D); not with\n"
        "--markers, nor with simulated events (callgrind has no clock to wait for).\n"
        "--warmup N runs each command N times first, uncounted; --prepare CMD runs CMD with\n"
        "/bin/sh -c before every run (warmups and the run under callgrind too), e.g. to drop\n"
        "caches; failing before the run under callgrind, it leaves the simulated events not\n"
        "counted (the exit status stays the command's).\n"
        "CMD's output passes through untouched; the report goes to stderr, or to FILE (written\n"
        "atomically: complete or not at all).\n\n"
        "SIGINT, SIGTERM and SIGHUP are passed on to CMD (a second one kills it); the runs that\n"
        "completed are reported, marked interrupted, and perfgauge exits 128+N. Killed by a\n"
        "signal it does not handle (SIGKILL, SIGQUIT, ...), perfgauge takes CMD along (not\n"
        "what CMD started, nor a set-user-ID CMD).\n\n"
        "Exit status: CMD's own (also when the report cannot be written); side by side, 0 when\n"
        "every command exited 0, else the status of the first that failed (named; the rounds\n"
        "stop there, and the complete ones are reported); the same for a failing --prepare;\n"
        "128+N when a signal N killed it or interrupted perfgauge; 127 when it cannot be\n"
        "executed; 2 for bad options or event names (nothing is run).\n\n"
        "Default events: {}\n\noptions",
        harness::kDefaultStatEvents));
    options.add_options()("help,h", "show this help")(
        "events,e",
        po::value<std::string>()->default_value(harness::kDefaultStatEvents, "(see above)"),
        "event list (syntax: perfgauge events --help)")(
        "repeat,r", po::value<int>()->default_value(1),
        "run CMD N times (1 to 100000; side by side: N rounds, 10 when not given); report "
        "medians (--repetitions: the same)")("warmup", po::value<int>()->default_value(0),
                                             "uncounted runs of each command first (0 to 1000)")(
        "prepare", po::value<std::string>(), "shell command run before every run")(
        "format", po::value<std::string>()->default_value("table"), "table, csv, json or md")(
        "output,o", po::value<std::string>(),
        "write the report to FILE instead of stderr (- is stderr)")(
        "verbose,v",
        "print the perf_event_attr each event was opened with (as the kernel accepted it: "
        "inherit, enable_on_exec, read_format) first")(
        "backend", po::value<std::string>()->default_value("auto"), "auto, perf or sim")(
        "markers", "count only between CMD's perfgauge_marker_start()/stop() (marker.h)")(
        "delay", po::value<long>(),
        "enable the counters MS milliseconds after exec (1 to 3600000)");

    const std::size_t split = command_start(args);
    const std::vector<std::string> own(args.begin(), args.begin() + static_cast<long>(split));
    std::vector<std::string> command_words(args.begin() + static_cast<long>(split), args.end());
    if (!command_words.empty() && command_words.front() == "--")
        command_words.erase(command_words.begin());

    // -r is --repeat in run and stat alike; run's old --repetitions is accepted in both.
    const auto vm =
        parse_options(canonical_spellings(own, {{"--repetitions", "--repeat"}}), options, {});
    if (vm.count("help")) {
        std::cout << options << '\n';
        return kExitOk;
    }
    if (command_words.empty())
        throw UsageError("no command given: perfgauge stat [OPTIONS] -- CMD [ARGS...]");
    const auto commands = split_commands(command_words);
    const bool side_by_side = commands.size() > 1;

    harness::SideBySideOptions runs;
    harness::StatOptions& stat = runs.stat;
    runs.commands = commands;
    stat.command = commands.front();
    // Side by side, a comparison needs rounds: 10 unless -r says otherwise (hyperfine's least).
    stat.repetitions =
        side_by_side && vm["repeat"].defaulted() ? kDefaultRounds : vm["repeat"].as<int>();
    if (stat.repetitions < 1 || stat.repetitions > 100000) {
        throw UsageError(fmt::format("-r/--repeat must be 1 to 100000, not {}", stat.repetitions));
    }
    runs.warmup = vm["warmup"].as<int>();
    if (runs.warmup < 0 || runs.warmup > 1000)
        throw UsageError(fmt::format("--warmup must be 0 to 1000, not {}", runs.warmup));
    if (vm.count("prepare")) {
        runs.prepare = vm["prepare"].as<std::string>();
        if (runs.prepare.find_first_not_of(" \t") == std::string::npos)
            throw UsageError("--prepare is empty: give a shell command, or leave it out");
    }
    stat.markers = vm.count("markers") != 0;
    if (vm.count("delay")) {
        const long delay = vm["delay"].as<long>();
        if (delay < 1 || delay > 3600000)
            throw UsageError(fmt::format("--delay must be 1 to 3600000 ms, not {}", delay));
        if (stat.markers)
            throw UsageError(
                "--delay and --markers cannot be combined: with --markers, CMD "
                "itself says when counting starts");
        stat.delay = std::chrono::milliseconds(delay);
    }
    const harness::OutputFormat format = format_option(vm);
    const std::string output = output_option(vm);
    std::vector<harness::NamedPath> executables;
    for (const auto& command : commands)
        executables.push_back(
            {"the command", harness::executable_path(command.front()).value_or("")});
    refuse_outputs_over_inputs({{"-o", output}}, executables);
    const harness::Backend backend = backend_option(vm);
    const auto valgrind = simulation_valgrind(backend);

    const auto plan =
        harness::select_events(vm["events"].as<std::string>(), backend, valgrind.has_value());
    stat.events = harness::CountedEvents(plan);
    if (stat.delay && plan.any_simulated()) {
        throw UsageError(
            "--delay cannot apply to simulated events (callgrind has no clock to "
            "wait for): use --markers, --backend perf, or software events only");
    }
    // Checked before anything runs: a report that cannot be written is known now.
    if (!plan.notice.empty()) {
        say("perfgauge stat: {}; {} once more under callgrind after {} counted runs\n", plan.notice,
            side_by_side ? "each command runs" : fmt::format("'{}' runs", commands.front().front()),
            side_by_side ? "their" : "its");
    }
    if (vm.count("verbose"))
        stat.on_opened = print_opened;
    // SIGINT, SIGTERM and SIGHUP reach CMD and end the repetitions; what completed is reported.
    const harness::InterruptHandling interrupts;
    // What CMD leaves behind when it dies becomes ours, so an interruption can end it too.
    harness::adopt_orphans();

    const bool plain = !side_by_side && runs.warmup == 0 && runs.prepare.empty();
    harness::SideBySideResult result;
    if (plain) {
        result.commands.push_back(harness::run_stat(stat));
        result.labels = harness::side_by_side_labels(commands);
        result.rounds_planned = stat.repetitions;
    } else {
        result = harness::run_side_by_side(runs);
        if (!side_by_side)
            note_single_run_setup(result);
    }
    const int interrupt = harness::interrupt_signal();
    const std::size_t completed =
        side_by_side ? result.complete_rounds()
                     : static_cast<std::size_t>(result.commands.front().repetitions);
    if (interrupt != 0 && completed == 0) {
        say("perfgauge stat: interrupted by {} before {} completed; nothing to report\n",
            harness::signal_name(interrupt),
            side_by_side ? "a round of every command"
                         : fmt::format("a run of '{}'", commands.front().front()));
        harness::end_remaining_children(interrupt, 1000);
        return harness::interrupted_exit_status(interrupt);
    }
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        const auto& r = result.commands[c];
        if (r.exit.exec_failed && r.elapsed_seconds.empty()) {
            // Nothing ran, so there is nothing to report (and no file is written).
            say("perfgauge stat: cannot execute '{}': {}\n", commands[c].front(),
                std::strerror(r.exit.exec_error));
            return r.exit.shell_status();
        }
    }
    if (result.failed_prepare && completed == 0) {
        say("perfgauge stat: --prepare '{}' {} before the first counted run; nothing to "
            "report\n",
            runs.prepare, result.failed_prepare->describe());
        return result.exit_status();
    }
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        auto& r = result.commands[c];
        if (plan.any_simulated() && harness::interrupt_signal() == 0 &&
            !r.elapsed_seconds.empty()) {
            simulate_or_say_why_not(r, plan, *valgrind, commands[c], runs.prepare);
        } else if (backend != harness::Backend::perf) {
            harness::merge_simulated(r, plan, harness::CommandSimulation{});
        }
        add_cli_hints(r.events);
    }
    // The command's exit status is kept whatever happens to the report (the status is then
    // the only thing that still reaches the caller).
    const int status = harness::interrupt_signal() != 0
                           ? harness::interrupted_exit_status(harness::interrupt_signal())
                       : plain ? result.commands.front().exit.shell_status()
                               : result.exit_status();
    const std::string report =
        side_by_side
            ? harness::render_side_by_side(
                  result, harness::compare_side_by_side(result, harness::CompareOptions{}), format)
            : harness::render_stat(result.commands.front(), format);
    if (output.empty()) {
        say_text(report);
    } else {
        try {
            harness::write_output_file(output, report);
        } catch (const std::runtime_error& e) {
            say("perfgauge stat: error: {}; the exit status is still the command's ({})\n",
                e.what(), status);
        }
    }
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        if (result.commands[c].exit.signaled)
            say("perfgauge stat: '{}' was {}\n", commands[c].front(),
                result.commands[c].exit.describe());
    }
    if (side_by_side && result.failed_command && status == result.exit_status()) {
        say("perfgauge stat: exit status {}: '{}' {}{}\n", status,
            result.labels[*result.failed_command],
            result.commands[*result.failed_command].exit.describe(),
            result.failed_in_warmup ? " in a warmup run" : "");
    } else if (result.failed_prepare && status == result.exit_status()) {
        say("perfgauge stat: exit status {}: --prepare '{}' {}\n", status, runs.prepare,
            result.failed_prepare->describe());
    }
    if (interrupt != 0 || harness::interrupt_signal() != 0)
        harness::end_remaining_children(harness::interrupt_signal(), 1000);
    return status;
}

}  // namespace perfgauge::cli
