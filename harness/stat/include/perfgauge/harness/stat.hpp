// `perfgauge stat`: count a command like perf stat does, and summarise repetitions robustly.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/stat_result.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::harness {

inline constexpr const char* kDefaultStatEvents =
    "cycles,instructions,branch-misses,task-clock,page-faults,context-switches";

struct StatOptions {
    std::string events = kDefaultStatEvents;
    /// Events resolved already (an event plan's): when set, `events` is not parsed at all.
    std::optional<std::vector<pmu::GroupSpec>> resolved_events;
    int repetitions = 1;
    std::vector<std::string> command;
    /// Counters start disabled; the command turns them on and off with perfgauge/marker.h
    /// (a control socket named by PERFGAUGE_MARKER_FD, served while perfgauge waits).
    bool markers = false;
    /// Counters start disabled and are enabled this long after exec (perf stat -D).
    std::optional<std::chrono::milliseconds> delay;
};

/// Resolves the events (throws pmu::EventError on bad names; an empty list counts nothing
/// and only times the command), then runs the command
/// `repetitions` times with counters attached (inherit: its children count too), stopping early
/// when it fails or cannot be started, or when perfgauge is interrupted (interrupt.hpp): then
/// `interrupted_by` names the signal and only the runs that completed are counted.
StatResult run_stat(const StatOptions& options, const pmu::EventResolver& resolver);

}  // namespace perfgauge::harness
