// What a pausing batch's untimed pauses saw, read per pause where its snapshots are system
// calls (issue 34): the thread's usage is injected, so what is summed is known exactly.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "perfgauge/harness/runner.hpp"

namespace perfgauge::harness {
namespace {

// Scripted readings: every call returns the next one; how many calls were made is kept.
std::vector<ThreadCpu> script;
std::size_t calls = 0;
ThreadCpu scripted_usage() {
    return calls < script.size() ? script[calls++] : ThreadCpu{};
}

TEST(PauseAccounting, SumsWhatEachPauseSawBetweenItsOwnReadings) {
    pmu::CounterSet counters = pmu::open_self_monitoring("task-clock");
    if (counters.group_count() == 0)
        GTEST_SKIP() << "software counters do not open here";
    counters.enable();
    NativeBatchState state(Clock::steady(), counters, &scripted_usage);
    // Three pairs: at pause and at resume, CPU time and involuntary switches so far.
    script = {{1000, 10}, {1600, 12}, {5000, 12}, {5100, 12}, {9000, 20}, {9900, 23}};
    calls = 0;
    state.set_snapshots(true);
    state.set_pause_accounting(true);
    state.reset(3);
    for (int i = 0; i < 3; ++i) {
        state.pause();
        state.resume();
    }
    EXPECT_EQ(calls, 6u) << "one reading at each pause and at each resume";
    const PausedUsage& paused = state.paused_usage();
    EXPECT_EQ(paused.pauses, 3u);
    EXPECT_DOUBLE_EQ(paused.cpu_ns, 600 + 100 + 900);
    EXPECT_EQ(paused.involuntary_switches, 2u + 0u + 3u);
    // Wall time from the clock, bracketing the same interval: at least 0, and it grows.
    EXPECT_GE(paused.wall_ns, 0);
    EXPECT_EQ(state.pauses(), 3u);

    // reset() starts a batch afresh.
    state.reset(1);
    EXPECT_EQ(state.paused_usage().pauses, 0u);
    EXPECT_EQ(state.paused_usage().involuntary_switches, 0u);
}

TEST(PauseAccounting, NeverReadsOnAPairThatReadsOnlyTheClockOrWithAccountingOff) {
    pmu::CounterSet counters = pmu::open_self_monitoring("task-clock");
    if (counters.group_count() == 0)
        GTEST_SKIP() << "software counters do not open here";
    counters.enable();
    NativeBatchState state(Clock::steady(), counters, &scripted_usage);
    script = std::vector<ThreadCpu>(8, ThreadCpu{1, 1});
    calls = 0;
    // Clock-only pairs: accounting asked for, but these pairs make no system call to hide
    // two more behind, and what they cost is calibrated without them.
    state.set_snapshots(false);
    state.set_pause_accounting(true);
    state.reset(2);
    state.pause();
    state.resume();
    // Snapshots, accounting off (a snapshot that is no system call, e.g. rdpmc).
    state.set_snapshots(true);
    state.set_pause_accounting(false);
    state.pause();
    state.resume();
    EXPECT_EQ(calls, 0u);
    EXPECT_EQ(state.paused_usage().pauses, 0u);
    EXPECT_EQ(state.pauses(), 2u);
}

TEST(PauseAccounting, TheCountedBatchIsBoundedToTheTimedBatchsWallTime) {
    // Issue 34: 20 ms timed work in a ~150 ms clock-only batch, 2.5 s with snapshots.
    EXPECT_EQ(counted_iterations_for(1'000'000, 1'000'000, 150e6, 2.5e9), 60'000u);
    // From there, a counted batch that took 160 ms for 60000: scaled to 150 ms.
    EXPECT_EQ(counted_iterations_for(1'000'000, 60'000, 150e6, 160e6), 56'250u);
    // Shorter than the timed batch: grown back, never beyond the timed batch's iterations.
    EXPECT_EQ(counted_iterations_for(1'000'000, 56'250, 150e6, 75e6), 112'500u);
    EXPECT_EQ(counted_iterations_for(1'000, 900, 150e6, 100e6), 1'000u);
    // At least one iteration; nothing measured (0 ns): as it was.
    EXPECT_EQ(counted_iterations_for(1'000, 1'000, 1, 1e12), 1u);
    EXPECT_EQ(counted_iterations_for(1'000, 700, 0, 5e6), 700u);
    EXPECT_EQ(counted_iterations_for(1'000, 700, 5e6, 0), 700u);
    EXPECT_EQ(counted_iterations_for(0, 0, 5e6, 1e6), 1u);
}

}  // namespace
}  // namespace perfgauge::harness
