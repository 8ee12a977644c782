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

TEST(ProgressLine, ARangeWhenTheEndIsUncertain) {
    EXPECT_EQ(time_range_text(40, 45), "about 45 s");  // close: the middle
    EXPECT_EQ(time_range_text(30, 130), "30 s to 2 min 10 s");
    EXPECT_EQ(time_range_text(1, 60), "at most 1 min");
    EXPECT_EQ(time_range_text(0, 3), "under 5 s");
}

TEST(ProgressLine, TheSimulationEstimateScalesWithItsJobs) {
    EXPECT_DOUBLE_EQ(simulation_seconds_per_benchmark(2), 0.54);
    EXPECT_DOUBLE_EQ(simulation_seconds_per_benchmark(1), 1.08);
    EXPECT_DOUBLE_EQ(simulation_seconds_per_benchmark(0), 1.08);  // no jobs read as one
}

// Rounds beyond the plan: retakes (up to as many rounds again) and precision rounds (until each
// benchmark's budget is spent) make the planned estimate the low end of a range.
TEST(ProgressLine, ExtraRoundsWidenTheEstimateToARange) {
    double t = 0;
    ProgressMeter meter([&] { return t; }, {}, ProgressOutlook{true, 2, 0});
    for (std::size_t b = 0; b < 10; ++b)
        meter.line("sizing", b, 10);
    t = 10;
    EXPECT_EQ(meter.line("repetition", 0, 5), "round 1/5");
    t = 20;  // a round took 10 s, 1 s per benchmark: 4 rounds left, up to 5 more each (retakes)
    EXPECT_EQ(meter.line("repetition", 1, 5), "round 2/5, 40 s to 1 min 30 s left");
    t = 60;  // 3 still short after the plan, each at most 5 more rounds of 1 s
    EXPECT_EQ(meter.line("extra", 3, 10), "more samples for 3 of 10 benchmarks, at most 15 s left");
    t = 62;  // one left, with 4 retake rounds at most
    EXPECT_EQ(meter.line("extra", 1, 10), "more samples for 1 of 10 benchmarks, under 5 s left");

    // A larger budget outlasts the retakes: 20 s each, 5 of them spent in the planned rounds.
    t = 0;
    ProgressMeter patient([&] { return t; }, {}, ProgressOutlook{true, 20, 0});
    patient.line("sizing", 0, 10);
    t = 10;
    patient.line("repetition", 0, 5);
    t = 20;
    EXPECT_EQ(patient.line("repetition", 1, 5), "round 2/5, 40 s to 3 min 10 s left");
}

TEST(ProgressLine, TheSimulationAndLaterProcessesAreInTheEstimate) {
    double t = 0;
    ProgressMeter first([&] { return t; }, ProcessPlace{0, 2}, ProgressOutlook{true, 0, 0.5});
    for (std::size_t b = 0; b < 10; ++b)
        first.line("sizing", b, 10);
    t = 10;
    first.line("repetition", 0, 3);
    // 20 s of rounds left (low) plus up to 3 retake rounds of 10 s (high); the second process
    // repeats the 40 s of sizing and rounds, and up to its retakes; then 10 x 0.5 s simulated.
    t = 20;
    EXPECT_EQ(first.line("repetition", 1, 3),
              "process 1/2, round 2/3, 1 min 10 s to 2 min 10 s left in all");
}

}  // namespace
}  // namespace perfgauge::harness
