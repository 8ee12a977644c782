#include "perfgauge/harness/stat_run.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "../../support/exit_statuses.hpp"
#include "../../support/text.hpp"

namespace perfgauge::harness {
namespace {

using test::contains;
using test::exited;
using test::killed;

ExitStatus not_executed() {
    ExitStatus s;
    s.exec_failed = true;
    s.exec_error = 2;
    return s;
}

TEST(EndOfWait, AnEndedRunIsCountedUnlessItNeverExecuted) {
    for (const ExitStatus& status : {exited(0), exited(3), killed(SIGSEGV)}) {
        const WaitEnd end = end_of_wait(status, 0, 2);
        EXPECT_FALSE(end.cut_short);
        EXPECT_FALSE(end.outcome.has_value()) << status.describe();
    }
    const WaitEnd failed = end_of_wait(not_executed(), 0, 2);
    EXPECT_FALSE(failed.cut_short);
    EXPECT_EQ(failed.outcome, RunOutcome::failed);
}

TEST(EndOfWait, ARunAnInterruptEndedIsCutShort) {
    // The only run: its counts until then are the report.
    const WaitEnd only = end_of_wait(killed(SIGINT), SIGINT, 0);
    EXPECT_TRUE(only.cut_short);
    EXPECT_FALSE(only.outcome.has_value());
    // After completed runs, those are the report.
    const WaitEnd later = end_of_wait(killed(SIGINT), SIGINT, 2);
    EXPECT_TRUE(later.cut_short);
    EXPECT_EQ(later.outcome, RunOutcome::interrupted);
    // Kept from starting by the interrupt: nothing ran.
    const WaitEnd unstarted = end_of_wait(not_executed(), SIGTERM, 0);
    EXPECT_TRUE(unstarted.cut_short);
    EXPECT_EQ(unstarted.outcome, RunOutcome::interrupted);
    // A command that exits by itself, whatever signal perfgauge got meanwhile, ran whole.
    const WaitEnd whole = end_of_wait(exited(0), SIGINT, 2);
    EXPECT_FALSE(whole.cut_short);
    EXPECT_FALSE(whole.outcome.has_value());
}

TEST(NeverEnabledRefusal, NamesTheMarkersOrTheDelayThatNeverEnabledTheCounters) {
    EXPECT_FALSE(never_enabled_refusal(std::nullopt, std::nullopt, false).has_value());
    EXPECT_FALSE(never_enabled_refusal(2, std::nullopt, false).has_value());
    const auto unmarked = never_enabled_refusal(0, std::nullopt, false);
    ASSERT_TRUE(unmarked.has_value());
    EXPECT_EQ(unmarked->status, "not counted");
    EXPECT_TRUE(contains(unmarked->reason, "never called perfgauge_marker_start()"));
    EXPECT_TRUE(contains(unmarked->fix, "or drop --markers"));
    const auto early = never_enabled_refusal(std::nullopt, 500, false);
    ASSERT_TRUE(early.has_value());
    EXPECT_EQ(early->reason, "the command ended before --delay 500 ms had passed");
    EXPECT_EQ(early->fix, "use a shorter --delay");
    EXPECT_FALSE(never_enabled_refusal(std::nullopt, 500, true).has_value());
    EXPECT_EQ(never_enabled_refusal(0, 500, false), unmarked) << "the markers are named first";
}

TEST(MarkerNotes, SayWhatTheMarkersLeftUnbalancedOrUnknown) {
    EXPECT_TRUE(marker_notes(0, 0, 0).empty());
    const auto notes = marker_notes(1, 2, 1);
    ASSERT_EQ(notes.size(), 3u);
    EXPECT_TRUE(contains(notes[0], "ended inside a marked interval")) << notes[0];
    EXPECT_EQ(notes[1], "2 perfgauge_marker_stop() without a start ignored");
    EXPECT_EQ(notes[2], "1 unknown request on PERFGAUGE_MARKER_FD ignored");
    EXPECT_EQ(marker_notes(0, 0, 3),
              std::vector<std::string>{"3 unknown requests on PERFGAUGE_MARKER_FD ignored"});
}

// Four events: counted, not opened, opened but not counted, counted at half the time.
struct FourEvents {
    std::vector<StatEventResult> events = std::vector<StatEventResult>(4);
    std::vector<pmu::EventSlot> slots = std::vector<pmu::EventSlot>(4);
    std::vector<pmu::ScaledCount> deltas = {
        {100, 100, 1.0, true}, {0, 0, 0, false}, {0, 0, 0, false}, {50, 25, 0.5, true}};
    FourEvents() {
        slots[0].opened = slots[2].opened = slots[3].opened = true;
        events[1].counted = false;
        events[1].refusal = {"not supported", "no PMU", ""};
    }
};

TEST(AddRunCounts, AddsWhatCountedAndSaysWhyTheRestDidNot) {
    FourEvents run;
    add_run_counts(run.events, run.slots, run.deltas, false, std::nullopt);
    EXPECT_EQ(run.events[0].samples, std::vector<double>{100});
    EXPECT_EQ(run.events[0].running_fraction, 1.0);
    EXPECT_TRUE(run.events[1].samples.empty());
    EXPECT_EQ(run.events[1].refusal.status, "not supported") << "not opened: kept as refused";
    EXPECT_FALSE(run.events[2].counted);
    EXPECT_TRUE(contains(run.events[2].refusal.reason, "never scheduled on the PMU"));
    EXPECT_EQ(run.events[3].samples, std::vector<double>{50});
    EXPECT_EQ(run.events[3].running_fraction, 0.5);
    // A second run adds its samples and keeps the lowest running fraction.
    run.deltas[3] = {80, 80, 1.0, true};
    add_run_counts(run.events, run.slots, run.deltas, false, std::nullopt);
    EXPECT_EQ(run.events[3].samples, (std::vector<double>{50, 80}));
    EXPECT_EQ(run.events[3].running_fraction, 0.5);
}

TEST(AddRunCounts, AnUncountedEventIsBlamedOnTheCutOrTheMarkersBeforeThePmu) {
    const EventRefusal unmarked{"not counted", "no marked interval", "mark it"};
    FourEvents never;
    add_run_counts(never.events, never.slots, never.deltas, false, unmarked);
    EXPECT_EQ(never.events[2].refusal, unmarked);
    EXPECT_EQ(never.events[0].samples, std::vector<double>{100});
    FourEvents cut;
    add_run_counts(cut.events, cut.slots, cut.deltas, true, unmarked);
    EXPECT_FALSE(cut.events[2].counted);
    EXPECT_EQ(cut.events[2].refusal.reason,
              "the command was stopped before the event was scheduled");
    EXPECT_EQ(cut.events[3].samples, std::vector<double>{50});
}

}  // namespace
}  // namespace perfgauge::harness
