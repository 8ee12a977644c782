// `perfgauge stat`: count a command like perf stat does, and summarise repetitions robustly.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/stat_result.hpp"
#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::harness {

/// Where the runs are as one starts: stat's progress line (stat_progress_text).
struct StatStep {
    std::size_t done = 0;   ///< runs finished, of every command (warmups included)
    std::size_t total = 0;  ///< runs planned, of every command (warmups included)
    std::size_t run = 1;    ///< this run of its command, from 1 (a warmup: among the warmups)
    std::size_t runs = 1;   ///< its command's planned runs (rounds), or warmups
    bool warmup = false;
    std::size_t command = 0;   ///< which command, from 0 (A)
    std::size_t commands = 1;  ///< side by side: how many
};

struct StatOptions {
    /// The natively counted events: an event plan's (CountedEvents(plan)), or an event list
    /// (an empty one counts nothing and only times the command).
    CountedEvents events = kDefaultStatEvents;
    int repetitions = 1;
    std::vector<std::string> command;
    /// Counters start disabled; the command turns them on and off with perfgauge/marker.h
    /// (a control socket named by PERFGAUGE_MARKER_FD, served while perfgauge waits).
    bool markers = false;
    /// Counters start disabled and are enabled this long after exec (perf stat -D).
    std::optional<std::chrono::milliseconds> delay;
    /// Called once the counters of the first run are open (before the command execs), with the
    /// attributes the kernel accepted: `stat -v` prints them.
    std::function<void(const pmu::CounterSet&)> on_opened;
    /// Some requested events are counted another way (simulated under callgrind after the
    /// runs): the command runs even when none of `events` opens. Otherwise a command none of
    /// whose (non-empty) events opens is not run at all: StatResult::no_event_opened.
    bool counted_elsewhere = false;
    /// Called as each run starts (warmups included): stat's progress line on a terminal.
    std::function<void(const StatStep&)> on_run;
};

/// Runs the command `repetitions` times with counters attached (inherit: its children count too),
/// stopping early when it fails or cannot be started, or when perfgauge is interrupted
/// (interrupt.hpp): then `interrupted_by` names the signal and only the runs that completed are
/// counted.
StatResult run_stat(const StatOptions& options);
/// The same; kept for code written when StatOptions held an unresolved list (the events are
/// resolved when they are set now, so `resolver` is not asked).
StatResult run_stat(const StatOptions& options, const pmu::EventResolver& resolver);

/// `perfgauge stat -- A ::: B [::: ...]`: `options.command` is ignored; `options.repetitions`
/// is the number of rounds.
struct SideBySideOptions {
    StatOptions stat;
    std::vector<std::vector<std::string>> commands;
    int warmup = 0;       ///< uncounted runs of each command before the first round
    std::string prepare;  ///< run with /bin/sh -c before every run, warmups included ("" none)
};

/// --prepare: runs `prepare` with /bin/sh -c and waits for it; its output passes through like
/// the command's. Also run before the command's run under callgrind, so that the simulated
/// run starts from the state every counted run started from.
ExitStatus run_prepare(const std::string& prepare);

/// Runs every command once per round, in the given order in even rounds and reversed in odd
/// ones (A B, B A, ...), so a drifting machine weighs on each alike; each run is counted as
/// run_stat counts one. Stops after the first failure (a command or --prepare exiting non-zero,
/// or a command that cannot be executed) or interruption; the rounds every command completed
/// are the ones compared.
SideBySideResult run_side_by_side(const SideBySideOptions& options);
/// The same; kept like run_stat's second form (`resolver` is not asked).
SideBySideResult run_side_by_side(const SideBySideOptions& options,
                                  const pmu::EventResolver& resolver);

}  // namespace perfgauge::harness
