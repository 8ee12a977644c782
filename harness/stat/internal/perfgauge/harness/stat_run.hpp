// One run of a counted command (stat.cpp's run_once), the parts that are decisions over plain
// data: what the end of the wait means for the repetitions, why counters that never ran were
// never enabled, what the markers left to say, and how the run's counts enter the result.
// Every function here is pure.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfgauge/harness/exit_status.hpp"
#include "perfgauge/harness/stat_result.hpp"
#include "perfgauge/pmu/counter_math.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

/// How one run of a command ended, as far as the repetitions are concerned.
enum class RunOutcome {
    counted,      ///< it ran and exited 0: its counts were added
    failed,       ///< it exited non-zero, died, or could not be executed (exec failure counted)
    interrupted,  ///< perfgauge was interrupted: what completed is the report
    not_run,      ///< no event could be opened: the command was not run (no_event_opened)
};

/// What the end of a run's wait means before its counts are read.
struct WaitEnd {
    /// An interrupt killed the run or kept it from starting: it counted part of the work at
    /// most.
    bool cut_short = false;
    /// Set when the run ends here, its counts not added: interrupted when it was cut short
    /// after completed runs (they are the report) or before exec; failed when exec failed.
    std::optional<RunOutcome> outcome;
};
/// From the command's `exit`, the interrupt `signal` seen after the wait (0: none) and how many
/// runs completed before this one.
WaitEnd end_of_wait(const ExitStatus& exit, int signal, int completed_runs);

/// Why counters that read "not counted" were never enabled, where the run says: served markers
/// (`marked_intervals`: how many the command opened) that opened none, or a --delay of
/// `delay_ms` that the command did not outlive (`delay_elapsed` false). None otherwise: then
/// the PMU never scheduled them.
std::optional<EventRefusal> never_enabled_refusal(std::optional<long> marked_intervals,
                                                  std::optional<long> delay_ms, bool delay_elapsed);

/// The notes a run's markers call for: the command ended inside a marked interval (`depth`
/// starts still open), stops without a start, requests that are not markers.
std::vector<std::string> marker_notes(long depth, long unmatched_stops, long unknown_requests);

/// Adds one run's `deltas` to the samples of `events` (one per slot of `slots`), or says why an
/// opened event counted nothing: the run was `cut_short` before it was scheduled, it was
/// `never_enabled`, or it was never scheduled (all counters busy). Events that did not open
/// keep their refusal.
void add_run_counts(std::vector<StatEventResult>& events, std::span<const pmu::EventSlot> slots,
                    std::span<const pmu::ScaledCount> deltas, bool cut_short,
                    const std::optional<EventRefusal>& never_enabled);

}  // namespace perfgauge::harness
