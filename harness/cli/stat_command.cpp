// perfgauge stat [-e LIST] [-r N] [--markers | --delay MS] [--format F] [-o FILE] -- CMD ...
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <set>

#include "cli_common.hpp"
#include "console.hpp"
#include "hints.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/stat.hpp"
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
        "-e",       "--events", "-r",       "--repeat",  "--repetitions",
        "--format", "-o",       "--output", "--backend", "--delay"};
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
        fmt::format("sim: one run under {} ({} process{}, {:.2f} s; native {:.2f} s){}{}",
                    sim.creator, sim.processes, sim.processes == 1 ? "" : "es", sim.wall_seconds,
                    result.elapsed_seconds.empty() ? 0.0 : result.elapsed_seconds.back(),
                    sim.exit.code != result.exit.code || sim.exit.signaled != result.exit.signaled
                        ? fmt::format("; under callgrind the command {}", sim.exit.describe())
                        : "",
                    result.markers ? "; simulated only between the markers (--instr-atstart=no "
                                     "and the markers' callgrind client requests)"
                                   : ""));
    for (const auto& note : caches.notes)
        result.notes.push_back("sim: " + note);
}

// simulate_into, unless an interrupt stops it: then the native counts are reported alone and
// the simulated events say why they have no value.
void simulate_or_say_why_not(harness::StatResult& result, const harness::EventPlan& plan,
                             const std::string& valgrind, const std::vector<std::string>& command) {
    try {
        simulate_into(result, plan, valgrind, command);
    } catch (const std::runtime_error&) {
        const int signal = harness::interrupt_signal();
        if (signal == 0)
            throw;
        result.interrupted_by = harness::signal_name(signal);
        harness::merge_simulated(result,
                                 harness::without_simulation(plan, interrupted_simulation()),
                                 harness::CommandSimulation{});
    }
}

}  // namespace

int stat_command(const std::vector<std::string>& args) {
    po::options_description options(fmt::format(
        "usage: perfgauge stat [-e LIST] [-r N] [--markers | --delay MS]\n"
        "                      [--format table|csv|json|md] [-o FILE] [-v] [--] CMD [ARGS...]\n\n"
        "Runs CMD (no shell; PATH is searched) with counters attached from its exec on,\n"
        "its children included, and reports each event like perf stat: the median over the\n"
        "runs, the robust spread (median absolute deviation, % of the median), the running\n"
        "fraction when counters were multiplexed, and IPC / miss rates when their inputs exist.\n"
        "Where the kernel cannot count hardware events (no PMU) and valgrind is installed,\n"
        "--backend auto (the default) simulates those callgrind can (instructions, branches,\n"
        "branch-misses, L1-dcache-*, LLC-*) by running CMD a second time under valgrind\n"
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
        "CMD's output passes through untouched; the report goes to stderr, or to FILE (written\n"
        "atomically: complete or not at all).\n\n"
        "SIGINT, SIGTERM and SIGHUP are passed on to CMD (a second one kills it); the runs that\n"
        "completed are reported, marked interrupted, and perfgauge exits 128+N.\n\n"
        "Exit status: CMD's own (also when the report cannot be written); 128+N when a signal N\n"
        "killed it or interrupted perfgauge; 127 when it cannot be executed; 2 for bad options\n"
        "or event names (CMD is then not run).\n\n"
        "Default events: {}\n\noptions",
        harness::kDefaultStatEvents));
    options.add_options()("help,h", "show this help")(
        "events,e",
        po::value<std::string>()->default_value(harness::kDefaultStatEvents, "(see above)"),
        "event list (syntax: perfgauge events --help)")(
        "repeat,r", po::value<int>()->default_value(1),
        "run CMD N times (1 to 100000); report medians (--repetitions: the same)")(
        "format", po::value<std::string>()->default_value("table"), "table, csv, json or md")(
        "output,o", po::value<std::string>(), "write the report to FILE instead of stderr")(
        "verbose,v", "print how each event was opened (groups, perf_event_attr) first")(
        "backend", po::value<std::string>()->default_value("auto"), "auto, perf or sim")(
        "markers", "count only between CMD's perfgauge_marker_start()/stop() (marker.h)")(
        "delay", po::value<long>(),
        "enable the counters MS milliseconds after exec (1 to 3600000)");

    const std::size_t split = command_start(args);
    const std::vector<std::string> own(args.begin(), args.begin() + static_cast<long>(split));
    std::vector<std::string> command(args.begin() + static_cast<long>(split), args.end());
    if (!command.empty() && command.front() == "--")
        command.erase(command.begin());

    // -r is --repeat in run and stat alike; run's old --repetitions is accepted in both.
    const auto vm =
        parse_options(canonical_spellings(own, {{"--repetitions", "--repeat"}}), options, {});
    if (vm.count("help")) {
        std::cout << options << '\n';
        return kExitOk;
    }
    if (command.empty())
        throw UsageError("no command given: perfgauge stat [OPTIONS] -- CMD [ARGS...]");
    // SIGINT, SIGTERM and SIGHUP reach CMD and end the repetitions; what completed is reported.
    const harness::InterruptHandling interrupts;
    // What CMD leaves behind when it dies becomes ours, so an interruption can end it too.
    harness::adopt_orphans();

    harness::StatOptions stat;
    stat.command = command;
    stat.events = vm["events"].as<std::string>();
    stat.repetitions = vm["repeat"].as<int>();
    if (stat.repetitions < 1 || stat.repetitions > 100000) {
        throw UsageError(fmt::format("-r/--repeat must be 1 to 100000, not {}", stat.repetitions));
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
    const harness::Backend backend = backend_option(vm);
    const auto valgrind = simulation_valgrind(backend);

    const pmu::EventResolver resolver;
    const auto plan = harness::plan_events(pmu::parse_event_list(stat.events), backend,
                                           valgrind.has_value(), harness::system_prober(resolver));
    stat.resolved_events = plan.native_groups;
    if (stat.delay && plan.any_simulated()) {
        throw UsageError(
            "--delay cannot apply to simulated events (callgrind has no clock to "
            "wait for): use --markers, --backend perf, or software events only");
    }
    if (!plan.notice.empty()) {
        say("perfgauge stat: {}; '{}' runs twice: natively, then under callgrind\n", plan.notice,
            command.front());
    }
    if (vm.count("verbose")) {
        for (const auto& group : plan.native_groups) {
            for (const auto& e : group.events) {
                say("perfgauge stat: {}{}: {}\n", e.name, group.explicit_group ? " (group)" : "",
                    pmu::dump_attr(e.attr));
            }
        }
    }
    auto result = harness::run_stat(stat, resolver);
    const int interrupt = harness::interrupt_signal();
    if (interrupt != 0 && result.repetitions == 0) {
        say("perfgauge stat: interrupted by {} before a run of '{}' completed; nothing to "
            "report\n",
            result.interrupted_by, command.front());
        harness::end_remaining_children(interrupt, 1000);
        return harness::interrupted_exit_status(interrupt);
    }
    if (result.exit.exec_failed && result.elapsed_seconds.empty()) {
        // Nothing ran, so there is nothing to report (and no file is written).
        say("perfgauge stat: cannot execute '{}': {}\n", command.front(),
            std::strerror(result.exit.exec_error));
        return result.exit.shell_status();
    }
    if (plan.any_simulated() && interrupt == 0) {
        simulate_or_say_why_not(result, plan, *valgrind, command);
    } else if (backend != harness::Backend::perf) {
        harness::merge_simulated(result, plan, harness::CommandSimulation{});
    }
    add_cli_hints(result.events);
    // The command's exit status is kept whatever happens to the report (the status is then
    // the only thing that still reaches the caller).
    const int status = harness::interrupt_signal() != 0
                           ? harness::interrupted_exit_status(harness::interrupt_signal())
                           : result.exit.shell_status();
    const std::string report = harness::render_stat(result, format);
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
    if (result.exit.signaled) {
        say("perfgauge stat: '{}' was {}\n", command.front(), result.exit.describe());
    }
    if (interrupt != 0 || harness::interrupt_signal() != 0)
        harness::end_remaining_children(harness::interrupt_signal(), 1000);
    return status;
}

}  // namespace perfgauge::cli
