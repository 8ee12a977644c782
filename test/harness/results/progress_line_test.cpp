// The progress line's arithmetic and wording with an injected clock: a total that never moves
// (no "round 106/105"), the time left from the rate so far, across measuring processes.
#include <gtest/gtest.h>

#include <string>

#include "perfgauge/harness/progress_line.hpp"

namespace perfgauge::harness {
namespace {

TEST(ProgressLine, TimeLeftFollowsTheRateSoFar) {
    EXPECT_FALSE(seconds_left(3, 0, 10));  // nothing finished: no rate yet
    EXPECT_DOUBLE_EQ(*seconds_left(10, 1, 10), 90);
    EXPECT_DOUBLE_EQ(*seconds_left(30, 6, 10), 20);
    EXPECT_FALSE(seconds_left(30, 10, 10));
    EXPECT_FALSE(seconds_left(30, 11, 10));
}

TEST(ProgressLine, TimeLeftIsSaidCoarsely) {
    EXPECT_EQ(time_left_text(0), "under 5 s");
    EXPECT_EQ(time_left_text(4.9), "under 5 s");
    EXPECT_EQ(time_left_text(41), "about 40 s");
    EXPECT_EQ(time_left_text(90), "about 1 min 30 s");
    EXPECT_EQ(time_left_text(121), "about 2 min");
    EXPECT_EQ(time_left_text(200), "about 3 min 20 s");
    EXPECT_EQ(time_left_text(3900), "about 1 h 5 min");
}

TEST(ProgressLine, PlannedRoundsHaveAStableTotalAndAnEstimate) {
    double t = 100;
    ProgressMeter meter([&] { return t; });
    EXPECT_EQ(meter.line("sizing", 0, 78), "sizing batches 1/78");
    t = 104;
    EXPECT_EQ(meter.line("sizing", 77, 78), "sizing batches 78/78");
    t = 105;
    EXPECT_EQ(meter.line("repetition", 0, 10), "round 1/10");
    t = 115;  // a round took 10 s: nine to go
    EXPECT_EQ(meter.line("repetition", 1, 10), "round 2/10, about 1 min 30 s left");
    t = 185;
    EXPECT_EQ(meter.line("repetition", 8, 10), "round 9/10, about 20 s left");
    // Beyond the plan: how many benchmarks are still short, never a round beyond the total.
    t = 200;
    const std::string extra = meter.line("extra", 12, 78);
    EXPECT_EQ(extra,
              "more samples for 12 of 78 benchmarks (short of clean samples or of the precision "
              "target)");
    EXPECT_EQ(meter.line("repetition", 10, 10), "round 10/10");
}

TEST(ProgressLine, TheEstimateCarriesAcrossMeasuringProcesses) {
    double t = 0;
    ProgressMeter second([&] { return t; }, ProcessPlace{1, 3});
    t = 10;  // 10 s of sizing
    EXPECT_EQ(second.line("repetition", 0, 5), "process 2/3, round 1/5");
    t = 20;  // a round took 10 s: 40 s left here, and this process takes 60 s in all;
             // the third one as long again
    EXPECT_EQ(second.line("repetition", 1, 5),
              "process 2/3, round 2/5, about 1 min 40 s left in all");
    ProgressMeter last([&] { return t; }, ProcessPlace{2, 3});
    t = 30;
    last.line("repetition", 0, 5);
    t = 40;
    EXPECT_EQ(last.line("repetition", 1, 5), "process 3/3, round 2/5, about 40 s left in all");
}

}  // namespace
}  // namespace perfgauge::harness
