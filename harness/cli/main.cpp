// perfgauge: counters around timed regions. This file only dispatches to subcommands.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "common/hints.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/interrupted.hpp"
#include "perfgauge/harness/stage_failures.hpp"
#include "perfgauge/pmu/event_list.hpp"
#include "perfgauge/pmu/suggest.hpp"
#include "registry.hpp"

namespace {

// Exit 2 for a command perfgauge does not have, with the nearest names when a typo is likely
// ("stta" -> stat) and the usage otherwise.
int unknown_command(const std::string& command) {
    // In alphabetical order: closest_matches keeps the first of equally close names.
    std::vector<std::string> names;
    for (const auto& c : perfgauge::cli::commands())
        names.emplace_back(c.name);
    std::sort(names.begin(), names.end());
    const auto close = perfgauge::pmu::closest_matches(command, names, 3);
    if (close.empty()) {
        perfgauge::cli::say("perfgauge: unknown command '{}'\n\n{}", command,
                            perfgauge::cli::usage_text());
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
        const cli::Command* found = cli::find_command(command);
        if (found == nullptr)
            return unknown_command(command);
        return found->handler(args);
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
        cli::say_text(cli::usage_text());
        status = cli::kExitUsage;
    } else if (all[0] == "-h" || all[0] == "--help" || all[0] == "help") {
        std::fputs(cli::usage_text().c_str(), stdout);
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
