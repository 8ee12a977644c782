#include "events/options.hpp"

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"

namespace perfgauge::cli {

std::optional<EventsRequest> parse_events_request(const std::vector<std::string>& args) {
    po::options_description options(
        "usage: perfgauge events [FILTER] [--tracepoints [--probe-tracepoints]] [--no-probe] [-v]\n"
        "       perfgauge events --resolve LIST [-v]\n\n"
        "Lists the events of every libpfm4 PMU present plus the generic perf events, with\n"
        "whether the kernel opens each here (each is opened once, disabled, user space only).\n"
        "FILTER is a case-insensitive substring of the name or of PMU::NAME.\n\n"
        "LIST syntax (as perf stat -e): comma-separated names; {a,b} keeps a group together;\n"
        ":u / :k / :uk count user / kernel / both (default: user space only); rNNNN is raw\n"
        "(only bits the core PMU's sysfs format declares); PMU::EVENT:UMASK:c=1 is libpfm4;\n"
        "subsystem:event is a tracepoint.\n\noptions");
    options.add_options()("help,h", "show this help")(
        "resolve", po::value<std::string>()->value_name("LIST"),
        "parse and resolve LIST; print each event's group, type, config, modifiers")(
        "tracepoints",
        "also list tracepoints (subsystem:event; needs tracefs); one is opened to show whether "
        "this process can count them")(
        "probe-tracepoints",
        "with --tracepoints: open every tracepoint (slow: ~25 ms each, minutes for all; progress "
        "on a terminal)")("no-probe", "do not try to open each event")(
        "verbose,v", "full descriptions; with --resolve, the whole perf_event_attr")(
        "filter", po::value<std::string>()->default_value(""), "");
    const auto parsed = parse_command_line(args, options, po::options_description(), {"filter", 1});
    if (!parsed)
        return std::nullopt;
    const po::variables_map& vm = *parsed;
    EventsRequest request;
    request.verbose = vm.count("verbose") > 0;
    if (vm.count("resolve")) {
        if (!vm["filter"].as<std::string>().empty()) {
            throw UsageError("--resolve takes the list itself; a FILTER makes no sense with it");
        }
        request.resolve = vm["resolve"].as<std::string>();
        return request;
    }
    request.catalog.filter = vm["filter"].as<std::string>();
    request.catalog.tracepoints = vm.count("tracepoints") > 0;
    request.catalog.try_open = vm.count("no-probe") == 0;
    request.catalog.probe_each_tracepoint = vm.count("probe-tracepoints") > 0;
    if (request.catalog.probe_each_tracepoint && !request.catalog.tracepoints)
        throw UsageError("--probe-tracepoints goes with --tracepoints");
    return request;
}

}  // namespace perfgauge::cli
