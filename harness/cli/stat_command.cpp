// perfgauge stat [-e LIST] [-r N] [--format F] [-o FILE] [--] CMD [ARGS...]
#include <fmt/format.h>

#include <cstring>
#include <iostream>
#include <set>

#include "cli_common.hpp"
#include "perfgauge/harness/atomic_file.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/pmu/open_error.hpp"

namespace perfgauge::cli {

namespace {

// Everything before the command: up to "--", or up to the first word that is neither an
// option nor an option's value. The rest is the command, passed on untouched.
std::size_t command_start(const std::vector<std::string>& args) {
    static const std::set<std::string> takes_value = {"-e",       "--events", "-r",      "--repeat",
                                                      "--format", "-o",       "--output"};
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

}  // namespace

int run_stat(const std::vector<std::string>& args) {
    po::options_description options(fmt::format(
        "usage: perfgauge stat [-e LIST] [-r N] [--format table|csv|json|md] [-o FILE] [-v]\n"
        "                      [--] CMD [ARGS...]\n\n"
        "Runs CMD (no shell; PATH is searched) with counters attached from its exec on,\n"
        "its children included, and reports each event like perf stat: the median over the\n"
        "runs, the robust spread (median absolute deviation, % of the median), the running\n"
        "fraction when counters were multiplexed, and IPC / miss rates when their inputs exist.\n"
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
        "repeat,r", po::value<int>()->default_value(1), "run CMD N times; report medians")(
        "format", po::value<std::string>()->default_value("table"), "table, csv, json or md")(
        "output,o", po::value<std::string>(), "write the report to FILE instead of stderr")(
        "verbose,v", "print how each event was opened (groups, perf_event_attr) first");

    const std::size_t split = command_start(args);
    const std::vector<std::string> own(args.begin(), args.begin() + static_cast<long>(split));
    std::vector<std::string> command(args.begin() + static_cast<long>(split), args.end());
    if (!command.empty() && command.front() == "--")
        command.erase(command.begin());

    const auto vm = parse_options(own, options, {});
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
        throw UsageError(
            fmt::format("--repeat must be between 1 and 100000, not {}", stat.repetitions));
    }
    const harness::OutputFormat format = format_option(vm);
    const std::string output = output_option(vm);

    const pmu::EventResolver resolver;
    if (vm.count("verbose")) {
        for (const auto& group : resolver.resolve(stat.events)) {
            for (const auto& e : group.events) {
                fmt::print(stderr, "perfgauge stat: {}{}: {}\n", e.name,
                           group.explicit_group ? " (group)" : "", pmu::dump_attr(e.attr));
            }
        }
    }
    const auto result = harness::run_stat(stat, resolver);
    if (result.exit.exec_failed && result.elapsed_seconds.empty()) {
        // Nothing ran, so there is nothing to report (and no file is written).
        fmt::print(stderr, "perfgauge stat: cannot execute '{}': {}\n", command.front(),
                   std::strerror(result.exit.exec_error));
        return result.exit.shell_status();
    }
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
