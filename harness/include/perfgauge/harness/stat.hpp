// `perfgauge stat`: count a command like perf stat does, and summarise repetitions robustly.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::harness {

inline constexpr const char* kDefaultStatEvents =
    "cycles,instructions,branch-misses,task-clock,page-faults,context-switches";

struct StatOptions {
    std::string events = kDefaultStatEvents;
    int repetitions = 1;
    std::vector<std::string> command;
};

/// One event over every repetition.
struct StatEventResult {
    std::string name;  ///< as written, modifiers included
    pmu::EventKind kind = pmu::EventKind::software;
    /// "counted", "not counted" (opened, never scheduled), or the open diagnosis' status
    /// ("not supported", "permission denied", ...).
    std::string status;
    std::string reason;  ///< why it was not counted (empty when counted)
    std::string fix;
    std::string source;             ///< "hw", "sw" or "sim" (event_plan.hpp)
    std::string unit;               ///< "ns" for task-clock/cpu-clock; empty for plain counts
    std::vector<double> samples;    ///< scaled value of each repetition
    double running_fraction = 1.0;  ///< lowest over the repetitions

    bool counted() const { return status == "counted"; }
};

struct StatResult {
    std::vector<std::string> command;
    int repetitions = 0;                  ///< repetitions actually run
    std::vector<double> elapsed_seconds;  ///< wall-clock time of each repetition
    ExitStatus exit;                      ///< of the last repetition run
    std::string read_path = "read()";
    std::vector<StatEventResult> events;
    std::vector<std::string> notes;  ///< group splits, early stops, ...
};

/// A ratio derived from counted events (IPC, branch-miss rate, ...), from medians.
struct DerivedMetric {
    std::string name;  ///< "IPC (instructions per cycle)", "CPUs utilized", ...
    double value = 0;
    std::string unit;  ///< "ratio", "%", "MPKI", "CPUs"
};

/// Pure: the ratios whose inputs were counted.
std::vector<DerivedMetric> derive_metrics(const StatResult& result);

/// Resolves the events (throws pmu::EventError on bad names; an empty list counts nothing
/// and only times the command), then runs the command
/// `repetitions` times with counters attached (inherit: its children count too), stopping early
/// when it fails or cannot be started.
StatResult run_stat(const StatOptions& options, const pmu::EventResolver& resolver);

}  // namespace perfgauge::harness
