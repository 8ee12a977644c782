// perfgauge: counters around timed regions. This file only dispatches to subcommands.
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_common.hpp"
#include "console.hpp"
#include "hints.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/interrupted.hpp"
#include "perfgauge/harness/stage_failures.hpp"
#include "perfgauge/pmu/event_list.hpp"
#include "perfgauge/pmu/suggest.hpp"

namespace {

constexpr const char* kUsage = R"(usage: perfgauge COMMAND [OPTIONS]

Performance counters (cycles, instructions, branch-misses, any libpfm4 event) around timed code.

commands:
  run [OPTIONS]      the built-in workloads (varint decoders, memcpy) over sizes and cache
                     states; with no options the default suite, saved as JSON
  list               workloads, variants (and whether they run here), the default sweep
  compare A.json B.json | R.json --baseline V --contender W
                     medians, ratios, confidence intervals and verdicts, time and counters
  export R.json --format csv|md|json|table|bmf [--filter REGEX]
                     re-render a stored result
  plot R.json -o sweep.png|sweep.svg
                     draw a run result's sweep (needs python3-matplotlib)
  doctor             can this machine count? PMU, permissions, clocks, CPU, noise sources
  events [FILTER]    list the events known here and whether each can be opened
  events --resolve LIST
                     parse and resolve an event list, show each event's encoding
  calibrate          clock granularity and overhead, snapshot cost, overhead correction check
  selftest [--quick | --thorough]
                     how far measurements here can be trusted, now: noise floor, A/A
                     false positives, the smallest change found in turn and across runs
  stat [-e LIST] [-r N] -- CMD [ARGS...] [::: CMD_B [ARGS...] ...]
                     count a command like perf stat (the exit status is the command's), or
                     commands side by side, interleaved, each against the first
  history add|list|show|check|plot|report|compare|export|accept|forget
                     results over time and across machines (SQLite or PostgreSQL), change
                     points per series; check exits 3 on a regression

Run 'perfgauge COMMAND --help' (or 'perfgauge help COMMAND') for a command's options.
Exit status: 0 success, 1 the work could not be done, 2 bad input (options, event names),
3 compare --fail-on-regression or history check found a regression.
)";

using Handler = int (*)(const std::vector<std::string>&);

const std::map<std::string, Handler>& commands() {
    using namespace perfgauge;
    static const std::map<std::string, Handler> all = {
        {"calibrate", cli::calibrate_command}, {"compare", cli::compare_command},
        {"doctor", cli::doctor_command},       {"events", cli::events_command},
        {"export", cli::export_command},       {"list", cli::list_command},
        {"history", cli::history_command},
        {"plot", cli::plot_command},           {"run", cli::run_command},
        {"selftest", cli::selftest_command},   {"stat", cli::stat_command}};
    return all;
}

// Exit 2 for a command perfgauge does not have, with the nearest names when a typo is likely
// ("stta" -> stat) and the usage otherwise.
int unknown_command(const std::string& command) {
    std::vector<std::string> names;
    for (const auto& [name, handler] : commands())
        names.push_back(name);
    const auto close = perfgauge::pmu::closest_matches(command, names, 3);
    if (close.empty()) {
        perfgauge::cli::say("perfgauge: unknown command '{}'\n\n{}", command, kUsage);
    } else {
        perfgauge::cli::say(
            "perfgauge: unknown command '{}' (did you mean {}?)\nRun 'perfgauge --help' for the "
            "commands.\n",
            command, fmt::join(close, ", "));
    }
    return perfgauge::cli::kExitUsage;
}

int dispatch(const std::string& command, const std::vector<std::string>& args) {
    using namespace perfgauge;
    try {
        const auto it = commands().find(command);
        if (it == commands().end())
            return unknown_command(command);
        return it->second(args);
    } catch (const cli::UsageError& e) {
        cli::say("perfgauge {}: {}\nRun 'perfgauge {} --help' for usage.\n", command, e.what(),
                 command);
        return cli::kExitUsage;
    } catch (const pmu::EventError& e) {
        // pmu names no command; the remedy that takes one is perfgauge's to add.
        cli::say("perfgauge {}: {}\n{}\n", command, e.what(),
                 cli::hint_text(pmu::ToolHint::list_events));
        return cli::kExitUsage;
    } catch (const harness::Interrupted& e) {
        // Interrupted while writing an output that was waiting for its reader.
        cli::say("perfgauge {}: {}\n", command, e.what());
        return harness::interrupted_exit_status(e.signal());
    } catch (const std::bad_alloc&) {
        // What could not be allocated is unknown here; the data of large working sets is the
        // usual cause (run checks them against MemAvailable first, but memory can shrink).
        cli::say("perfgauge {}: error: out of memory (an allocation failed){}\n", command,
                 command == "run" ? "; try smaller --sizes, or free memory" : "");
        return cli::kExitFailure;
    } catch (const std::exception& e) {
        cli::say("perfgauge {}: error: {}\n", command, e.what());
        return cli::kExitFailure;
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace perfgauge;
    std::vector<std::string> all(argv + 1, argv + argc);
    // "perfgauge help CMD" is "perfgauge CMD --help", whatever follows.
    if (all.size() >= 2 && all[0] == "help")
        all = {all[1], "--help"};
    std::string prefix = "perfgauge";  // of messages: "perfgauge run: ..."
    int status = cli::kExitOk;
    if (all.empty()) {
        cli::say_text(kUsage);
        status = cli::kExitUsage;
    } else if (all[0] == "-h" || all[0] == "--help" || all[0] == "help") {
        std::fputs(kUsage, stdout);
    } else if (all[0] == "--version") {
        fmt::print("perfgauge {}\n", PERFGAUGE_VERSION);
    } else {
        prefix = "perfgauge " + all[0];
        status = dispatch(all[0], std::vector<std::string>(all.begin() + 1, all.end()));
    }
    // Output is buffered: a full disk or a closed pipe behind stdout shows only now. A result
    // cut short must not look like success.
    int error = 0;
    if (!cli::stdout_ok(error) && status == cli::kExitOk) {
        cli::say("{}: error: cannot write to standard output{}\n", prefix,
                 error != 0 ? fmt::format(": {}", std::strerror(error)) : "");
        status = cli::kExitFailure;
    }
    // An interrupt that came as the command finished (while its outputs were saved: a file is
    // complete or not there, interrupts wait for its rename) still ends perfgauge as
    // interrupted, whatever status it meant to give. What could not be written has been said.
    if (const int signal = harness::interrupt_signal();
        signal != 0 && status != harness::interrupted_exit_status(signal)) {
        cli::say("{}: interrupted by {} while its outputs were written\n", prefix,
                 harness::signal_name(signal));
        status = harness::interrupted_exit_status(signal);
    }
    // A stage that failed while the rest was kept (a simulation, a measuring process) has said
    // what was lost; the status says that something failed.
    if (status == cli::kExitOk && !harness::stage_failures().empty())
        status = cli::kExitFailure;
    // stat's status is the measured command's, kept even when its report could not be shown.
    if (cli::stderr_failed() && status == cli::kExitOk && prefix != "perfgauge stat")
        status = cli::kExitFailure;
    return status;
}
