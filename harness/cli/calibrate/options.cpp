#include "calibrate/options.hpp"

#include <stdexcept>

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::cli {

namespace {

constexpr const char* kDefaultEvents = "task-clock,cycles,instructions";

std::string calibrate_usage() {
    return "usage: perfgauge calibrate [--format table|json] [-o FILE] [--samples N] "
           "[--events LIST] [--quick] [-q]\n\n"
           "Measures what measuring costs here, then checks that perfgauge's correction of it "
           "holds.\n"
           "On a terminal, stderr shows the step under way and the time left (not with -q).\n"
           "- Each clock: its granularity, measured (the smallest non-zero difference between\n"
           "  consecutive reads, and the most frequent differences), next to its nominal "
           "frequency\n"
           "  (one tick of the TSC or arm64's generic timer numbers time more finely than it\n"
           "  may advance); the cost of one\n"
           "  start/stop pair around nothing (median of the means of groups of 32 pairs, which\n"
           "  survives the clock's steps); one counter snapshot (read() of a 3-event group; rdpmc\n"
           "  where the PMU allows).\n"
           "- Seed experiment (Ou 2020), through perfgauge's own runner: k = 1, 10, ..., 100000\n"
           "  dependent atomic adds per iteration, timed in a loop that never pauses (REFERENCE)\n"
           "  and with a pause()/resume() pair in every iteration, RAW and CORRECTED by the\n"
           "  calibrated costs the runner subtracts (it calibrates the pair between pieces of\n"
           "  work, where a benchmark puts one: six kinds, whose median it subtracts; how far the\n"
           "  furthest kind is from it is printed: at small k the error is as much about which\n"
           "  work this is as about the correction). Where a counter snapshot is a\n"
           "  system call (any software event; hardware ones without rdpmc), the runner times a\n"
           "  pausing benchmark in batches whose pauses read only the clock and counts it in\n"
           "  batches beside them: a system call can cost the work after it more than itself (on\n"
           "  a kernel with page-table isolation and no PCID each flushes the TLB), by an amount\n"
           "  no constant fits; SNAPSHOTS says how much, per pair (what the snapshots added).\n"
           "  ERROR = CORRECTED - REFERENCE\n"
           "  (the median of the differences within a round: the two sides alternate batch by\n"
           "  batch), target |ERROR| <= max(1 ns, 2% of REFERENCE) (1 ns at k = 1, 2% from\n"
           "  k = 100 on), or the pair's spread printed above where that is wider (what the\n"
           "  run itself claims; TARGET says '(spread)').\n"
           "  Once with no counters, once with --events. Medians of the runner's\n"
           "  clean samples; PAIRS: rounds in which both sides had one (disturbed batches are\n"
           "  re-taken, not counted); a row with none says 'no pair' (its errors are null in the\n"
           "  JSON) and does not pass. DRIFT: how much slower (+) or faster (-) perfgauge's\n"
           "  machine probe ran during the row than while the pair was calibrated (before the\n"
           "  sweep): a pair whose cost moved with the machine leaves that share of itself in\n"
           "  ERROR, which a failed row then says when it is beyond the probe's noise (5%);\n"
           "  - (null in the JSON) where no sample was timed to measure it.\n"
           "Exit status 0 whatever the verdicts (it is a report); the JSON carries pass flags.\n"
           "\noptions";
}

void add_calibrate_options(po::options_description& options) {
    options.add_options()("help,h", "show this help")(
        "format", po::value<std::string>()->default_value("table"), "table or json")(
        "output,o", po::value<std::string>(),
        "write here instead of stdout (atomically, when done; - is stdout)")(
        "samples", po::value<long long>()->default_value(20000),
        "clock and snapshot samples (>= 100)")(
        "events,e", po::value<std::string>()->default_value(kDefaultEvents),
        "counters for the second sweep (events the kernel refuses are listed, not counted)")(
        "quick",
        "5 samples per side, no more for precision, and a 5 ms warm-up in the sweeps (a few "
        "seconds, less precise)")("quiet,q", "no progress line on the terminal");
}

}  // namespace

std::optional<CalibrateRequest> parse_calibrate_request(const std::vector<std::string>& args) {
    po::options_description options(calibrate_usage());
    add_calibrate_options(options);
    const auto parsed = parse_command_line(args, options);
    if (!parsed)
        return std::nullopt;
    const po::variables_map& vm = *parsed;
    CalibrateRequest request;
    using harness::OutputFormat;
    static constexpr OutputFormat kAccepted[] = {OutputFormat::table, OutputFormat::json};
    const std::string format = vm["format"].as<std::string>();
    try {
        request.format = harness::parse_output_format(format, kAccepted);
    } catch (const std::invalid_argument&) {  // calibrate's own words, as before
        throw UsageError("--format must be table or json, not '" + format + "'");
    }
    request.output = output_option(vm);  // checked before the seconds of measuring
    refuse_outputs_over_inputs({{"-o", request.output}}, {});
    request.samples = count_option(vm, "samples", 100, 100'000'000);
    request.events = vm["events"].as<std::string>();
    if (request.events.empty())
        throw UsageError("--events must name at least one event (the first sweep has none)");
    pmu::EventResolver().resolve(request.events);  // a misspelled name fails now, not after a sweep
    request.quick = vm.count("quick") != 0;
    request.quiet = vm.count("quiet") != 0;
    return request;
}

}  // namespace perfgauge::cli
