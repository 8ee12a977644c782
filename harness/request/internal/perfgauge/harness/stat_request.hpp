// perfgauge stat's request: the commands and how to count them, typed and validated. Built
// once by harness/cli from the options; nothing below it sees an option name.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

struct StatRequest {
    /// CMD [ARGS...], one or more (side by side); each with at least its program.
    std::vector<std::vector<std::string>> commands;
    std::string events = kDefaultStatEvents;  ///< resolved by select_events, with the backend
    Backend backend = Backend::automatic;
    int repetitions = 1;  ///< runs of one command, or rounds side by side
    int warmup = 0;       ///< uncounted runs of each command first
    std::string prepare;  ///< a shell command before every run; empty: none
    bool markers = false;
    std::optional<std::chrono::milliseconds> delay;
    bool verbose = false;  ///< print each event's perf_event_attr as opened
    OutputFormat format = OutputFormat::table;
    /// Side by side, the answer first (render_side_by_side_answer) instead of `format`'s full
    /// report: --format answer, stat's default (not with -v, which asks for the details).
    bool answer = false;
    bool quiet = false;  ///< -q: no progress line on a terminal
    /// --sim-budget: seconds the runs under callgrind may take (0: none; infinity: no limit);
    /// nullopt: under --backend auto, the native runs' wall time or 10 s, whichever is larger,
    /// and no limit under --backend sim.
    std::optional<double> sim_budget;
    std::filesystem::path output;  ///< -o; empty: stderr

    bool side_by_side() const { return commands.size() > 1; }
};

}  // namespace perfgauge::harness
