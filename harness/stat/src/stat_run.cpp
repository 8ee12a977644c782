#include "perfgauge/harness/stat_run.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfgauge::harness {

WaitEnd end_of_wait(const ExitStatus& exit, int signal, int completed_runs) {
    WaitEnd end;
    end.cut_short = signal != 0 && (exit.signaled || exit.exec_failed);
    if (end.cut_short && (completed_runs > 0 || exit.exec_failed))
        end.outcome = RunOutcome::interrupted;  // the completed runs are the report
    else if (exit.exec_failed)
        end.outcome = RunOutcome::failed;  // not a run: nothing was counted, and the runs say so
    return end;
}

std::optional<EventRefusal> never_enabled_refusal(std::optional<long> marked_intervals,
                                                  std::optional<long> delay_ms,
                                                  bool delay_elapsed) {
    if (marked_intervals && *marked_intervals == 0) {
        return EventRefusal{
            "not counted", "no marked interval: the command never called perfgauge_marker_start()",
            "mark the work with perfgauge_marker_start()/perfgauge_marker_stop() from "
            "<perfgauge/marker.h>, or drop --markers"};
    }
    if (delay_ms && !delay_elapsed) {
        return EventRefusal{
            "not counted",
            fmt::format("the command ended before --delay {} ms had passed", *delay_ms),
            "use a shorter --delay"};
    }
    return std::nullopt;
}

std::vector<std::string> marker_notes(long depth, long unmatched_stops, long unknown_requests) {
    std::vector<std::string> notes;
    if (depth > 0)
        notes.push_back(
            "the command ended inside a marked interval (perfgauge_marker_start() without "
            "its stop): counted until it ended");
    if (unmatched_stops > 0)
        notes.push_back(
            fmt::format("{} perfgauge_marker_stop() without a start ignored", unmatched_stops));
    if (unknown_requests > 0)
        notes.push_back(fmt::format("{} unknown request{} on PERFGAUGE_MARKER_FD ignored",
                                    unknown_requests, unknown_requests == 1 ? "" : "s"));
    return notes;
}

void add_run_counts(std::vector<StatEventResult>& events, std::span<const pmu::EventSlot> slots,
                    std::span<const pmu::ScaledCount> deltas, bool cut_short,
                    const std::optional<EventRefusal>& never_enabled) {
    for (std::size_t i = 0; i < deltas.size(); ++i) {
        auto& e = events[i];
        if (!slots[i].opened)
            continue;
        if (cut_short && !deltas[i].counted) {
            // Counted with no value would read as a count of nothing (and not read back).
            e.counted = false;
            e.refusal = {"not counted", "the command was stopped before the event was scheduled",
                         ""};
            continue;
        }
        if (!deltas[i].counted && never_enabled) {
            e.counted = false;
            e.refusal = *never_enabled;
            continue;
        }
        if (!deltas[i].counted) {
            e.counted = false;
            e.refusal = {
                "not counted",
                "the event was opened but never scheduled on the PMU (all counters busy)",
                "count fewer events at once, or free counters (other profilers, NMI watchdog)"};
            continue;
        }
        e.samples.push_back(deltas[i].value);
        e.running_fraction = std::min(e.running_fraction, deltas[i].running_fraction);
    }
}

}  // namespace perfgauge::harness
