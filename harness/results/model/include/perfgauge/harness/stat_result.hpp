// What `perfgauge stat` measured: a command's repetitions, each event over them, and the ratios
// derived from them. Plain data; stat_report.hpp renders it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/harness/exit_status.hpp"
#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::harness {

/// One event over every repetition. When not counted, refusal.status is "not counted" (opened,
/// never scheduled), "not supported", "permission denied", ... and refusal.reason says why.
struct StatEventResult : EventColumn {
    std::string unit;               ///< "ns" for task-clock/cpu-clock; empty for plain counts
    std::vector<double> samples;    ///< scaled value of each repetition
    double running_fraction = 1.0;  ///< lowest over the repetitions
};

/// One region name of the perfgauge::harness::Session regions inside the command, simulated:
/// its entries (over every process) and each simulated event's total over them, inclusive of
/// the regions nested in it.
struct RegionCounts {
    std::string name;
    std::size_t count = 0;
    std::vector<std::pair<std::string, double>> counters;  ///< event (as written), total
};

struct StatResult {
    std::vector<std::string> command;
    /// When the repetitions began, ISO 8601 local time with its offset; empty in results of
    /// older perfgauge versions. perfgauge compare orders joined results by it.
    std::string date;
    int repetitions = 0;                  ///< repetitions actually run
    std::vector<double> elapsed_seconds;  ///< wall-clock time of each repetition
    /// CPU time of each repetition in user and kernel mode (the command and the descendants it
    /// waited for). Empty in results of older perfgauge versions.
    std::vector<double> user_seconds, system_seconds;
    ExitStatus exit;  ///< of the last repetition run
    std::string read_path = "read()";
    std::vector<StatEventResult> events;
    std::vector<std::string> notes;  ///< group splits, early stops, ...
    /// "SIGINT" (or another signal's name) when an interruption stopped the repetitions: the
    /// runs counted above completed; the one it hit is left out. Empty: not interrupted.
    std::string interrupted_by;
    /// ...unless no run had completed: then the one run reported is the one it cut short,
    /// counted until then.
    bool interrupted_run = false;
    /// `stat --markers`: counters were on only between the command's markers
    /// (perfgauge/marker.h); marked_intervals has each run's number of marked intervals.
    bool markers = false;
    std::vector<long> marked_intervals;
    /// `stat --delay MS`: counters were enabled MS milliseconds after exec; 0 without.
    long delay_ms = 0;
    /// Simulated counts per Session region (--backend sim/auto with simulated events), in order
    /// of first entry; empty when the command has no regions or nothing was simulated.
    std::vector<RegionCounts> regions;
    /// Every event was refused as the first run's counters were opened (and nothing was to be
    /// counted another way): the command was not run, and `events` say why each was refused.
    bool no_event_opened = false;
    /// The machine the command ran on, as a run result records it (CPU, host, kernel, ...), so
    /// that a history files the result under its machine; empty in files of older versions.
    SystemInfo system;
};

/// `perfgauge stat -- A ::: B [::: ...]`: commands run round by round, interleaved (A B, then
/// B A, ...), so drift of the machine falls on every command alike; the runs of one round are
/// paired when the commands are compared.
struct SideBySideResult {
    /// In the order given; the first is the baseline. Sample k of each is round k.
    std::vector<StatResult> commands;
    /// The commands' names in tables and comparisons: the command line, made unique with
    /// " #2", " #3" when the same command is given more than once.
    std::vector<std::string> labels;
    int rounds_planned = 0;
    int warmup = 0;       ///< uncounted runs of each command before the first round
    std::string prepare;  ///< shell command run before every run ("" none)
    /// What ended the rounds early: a command that failed (its index and how), or --prepare.
    std::optional<std::size_t> failed_command;
    std::optional<ExitStatus> failed_prepare;
    bool failed_in_warmup = false;
    std::string interrupted_by;      ///< the signal that interrupted the rounds ("" none)
    std::vector<std::string> notes;  ///< about all commands (simulation, early stops)

    /// Rounds every command completed: the samples that can be paired.
    std::size_t complete_rounds() const;
    /// The shell status perfgauge exits with: 0 when every command (and --prepare) exited 0,
    /// else the status of the first that failed.
    int exit_status() const;
};

/// " #2"-suffixed labels for repeated command lines, as SideBySideResult::labels holds them.
std::vector<std::string> side_by_side_labels(const std::vector<std::vector<std::string>>& commands);

/// A ratio derived from counted events (IPC, branch-miss rate, ...), from medians.
struct DerivedMetric {
    std::string name;  ///< "IPC (instructions per cycle)", "CPUs utilized", ...
    double value = 0;
    std::string unit;  ///< "ratio", "%", "MPKI", "CPUs"
    /// Where its inputs came from: "hw", "sw", "sim", or both joined by '+' ("hw+sim") when
    /// they differ, so a ratio of simulated counts is never read as the hardware's.
    std::string source;
};

/// Pure: the ratios whose inputs were counted.
std::vector<DerivedMetric> derive_metrics(const StatResult& result);

}  // namespace perfgauge::harness
