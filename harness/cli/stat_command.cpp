// perfgauge stat [-e LIST] [-r N] [--format F] [-o FILE] [--] CMD [ARGS...]
#include <fmt/format.h>

#include <cstring>
#include <iostream>
#include <set>

#include "cli_common.hpp"
#include "hints.hpp"
#include "perfgauge/harness/atomic_file.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/open_error.hpp"

namespace perfgauge::cli {

namespace {

// Everything before the command: up to "--", or up to the first word that is neither an
// option nor an option's value. The rest is the command, passed on untouched.
std::size_t command_start(const std::vector<std::string>& args) {
    static const std::set<std::string> takes_value = {"-e",       "--events",      "-r",
                                                      "--repeat", "--repetitions", "--format",
                                                      "-o",       "--output",      "--backend"};
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
    const auto sim = harness::simulate_command(setup, command, plan.simulated_events());
    harness::merge_simulated(result, plan, sim);
    result.notes.push_back(
        fmt::format("sim: one run under {} ({} process{}, {:.2f} s; native {:.2f} s){}",
                    sim.creator, sim.processes, sim.processes == 1 ? "" : "es", sim.wall_seconds,
                    result.elapsed_seconds.empty() ? 0.0 : result.elapsed_seconds.back(),
                    sim.exit.code != result.exit.code || sim.exit.signaled != result.exit.signaled
                        ? fmt::format("; under callgrind the command {}", sim.exit.describe())
                        : ""));
    for (const auto& note : caches.notes)
        result.notes.push_back("sim: " + note);
}

}  // namespace

int stat_command(const std::vector<std::string>& args) {
    po::options_description options(fmt::format(
        "usage: perfgauge stat [-e LIST] [-r N] [--format table|csv|json|md] [-o FILE] [-v]\n"
        "                      [--] CMD [ARGS...]\n\n"
        "Runs CMD (no shell; PATH is searched) with counters attached from its exec on,\n"
        "its children included, and reports each event like perf stat: the median over the\n"
        "runs, the robust spread (median absolute deviation, % of the median), the running\n"
        "fraction when counters were multiplexed, and IPC / miss rates when their inputs exist.\n"
        "Where the kernel cannot count hardware events (no PMU) and valgrind is installed,\n"
        "--backend auto (the default) simulates those callgrind can (instructions, branches,\n"
        "branch-misses, L1-dcache-*, LLC-*) by running CMD a second time under valgrind\n"
        "--tool=callgrind (children followed); --backend sim always does, --backend perf never.\n"
        "Every value is labelled hw, sw or sim; time is never simulated.\n"
        "CMD's output passes through untouched; the report goes to stderr, or to FILE (written\n"
        "atomically: complete or not at all).\n\n"
        "Exit status: CMD's own; 128+N when a signal N killed it; 127 when it cannot be\n"
        "executed; 2 for bad options or event names (CMD is then not run).\n\n"
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
        "backend", po::value<std::string>()->default_value("auto"), "auto, perf or sim");

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

    harness::StatOptions stat;
    stat.command = command;
    stat.events = vm["events"].as<std::string>();
    stat.repetitions = vm["repeat"].as<int>();
    if (stat.repetitions < 1 || stat.repetitions > 100000) {
        throw UsageError(fmt::format("-r/--repeat must be 1 to 100000, not {}", stat.repetitions));
    }
    const harness::OutputFormat format = format_option(vm);
    const std::string output = output_option(vm);
    const harness::Backend backend = backend_option(vm);
    const auto valgrind = simulation_valgrind(backend);

    const pmu::EventResolver resolver;
    const auto plan = harness::plan_events(pmu::parse_event_list(stat.events), backend,
                                           valgrind.has_value(), harness::system_prober(resolver));
    stat.resolved_events = plan.native_groups;
    if (!plan.notice.empty()) {
        fmt::print(stderr, "perfgauge stat: {}; '{}' runs twice: natively, then under callgrind\n",
                   plan.notice, command.front());
    }
    if (vm.count("verbose")) {
        for (const auto& group : plan.native_groups) {
            for (const auto& e : group.events) {
                fmt::print(stderr, "perfgauge stat: {}{}: {}\n", e.name,
                           group.explicit_group ? " (group)" : "", pmu::dump_attr(e.attr));
            }
        }
    }
    auto result = harness::run_stat(stat, resolver);
    if (result.exit.exec_failed && result.elapsed_seconds.empty()) {
        // Nothing ran, so there is nothing to report (and no file is written).
        fmt::print(stderr, "perfgauge stat: cannot execute '{}': {}\n", command.front(),
                   std::strerror(result.exit.exec_error));
        return result.exit.shell_status();
    }
    if (plan.any_simulated()) {
        simulate_into(result, plan, *valgrind, command);
    } else if (backend != harness::Backend::perf) {
        harness::merge_simulated(result, plan, harness::CommandSimulation{});
    }
    add_cli_hints(result.events);
    const std::string report = harness::render_stat(result, format);
    if (output.empty()) {
        fmt::print(stderr, "{}", report);
    } else {
        harness::write_file_atomically(output, report);
    }
    if (result.exit.signaled) {
        fmt::print(stderr, "perfgauge stat: '{}' was {}\n", command.front(),
                   result.exit.describe());
    }
    return result.exit.shell_status();
}

}  // namespace perfgauge::cli
