#include "registry.hpp"

#include <algorithm>
#include <iterator>

namespace perfgauge::cli {

namespace {

constexpr std::string_view kHead = R"(usage: perfgauge COMMAND [OPTIONS]

Performance counters (cycles, instructions, branch-misses, any libpfm4 event) around timed code.

commands:
)";

constexpr std::string_view kTail = R"(
Run 'perfgauge COMMAND --help' (or 'perfgauge help COMMAND') for a command's options.
Exit status: 0 success, 1 the work could not be done, 2 bad input (options, event names),
3 compare --fail-on-regression or history check found a regression.
)";

// `events` has two forms; the second is listed under the first, without a handler of its own.
constexpr Command kCommands[] = {
    {"run",
     R"(  run [OPTIONS]      the built-in workloads (varint decoders, memcpy) over sizes and cache
                     states; with no options the default suite, saved as JSON
)",
     run_command},
    {"list",
     R"(  list               workloads, variants (and whether they run here), the default sweep
)",
     list_command},
    {"compare", R"(  compare A.json B.json | R.json --baseline V --contender W
                     medians, ratios, confidence intervals and verdicts, time and counters
)",
     compare_command},
    {"export", R"(  export R.json --format csv|md|json|table|bmf [--filter REGEX]
                     re-render a stored result
)",
     export_command},
    {"plot", R"(  plot R.json -o sweep.png|sweep.svg
                     draw a run result's sweep (needs python3-matplotlib)
)",
     plot_command},
    {"doctor",
     R"(  doctor             can this machine count? PMU, permissions, clocks, CPU, noise sources
)",
     doctor_command},
    {"events", R"(  events [FILTER]    list the events known here and whether each can be opened
  events --resolve LIST
                     parse and resolve an event list, show each event's encoding
)",
     events_command},
    {"calibrate",
     R"(  calibrate          clock granularity and overhead, snapshot cost, overhead correction check
)",
     calibrate_command},
    {"selftest", R"(  selftest [--quick | --thorough]
                     how far measurements here can be trusted, now: noise floor, A/A
                     false positives, the smallest change found in turn and across runs
)",
     selftest_command},
    {"stat", R"(  stat [-e LIST] [-r N] -- CMD [ARGS...] [::: CMD_B [ARGS...] ...]
                     count a command like perf stat (the exit status is the command's), or
                     commands side by side, interleaved, each against the first
)",
     stat_command},
    {"history", R"(  history add|list|show|check|plot|report|compare|export|accept|forget
                     results over time and across machines (SQLite or PostgreSQL), change
                     points per series; check exits 3 on a regression
)",
     history_command},
};

}  // namespace

std::span<const Command> commands() {
    return kCommands;
}

const Command* find_command(std::string_view name) {
    const auto it = std::find_if(std::begin(kCommands), std::end(kCommands),
                                 [name](const Command& c) { return c.name == name; });
    return it == std::end(kCommands) ? nullptr : &*it;
}

std::string usage_text() {
    std::string text(kHead);
    for (const auto& command : kCommands)
        text += command.synopsis;
    text += kTail;
    return text;
}

}  // namespace perfgauge::cli
