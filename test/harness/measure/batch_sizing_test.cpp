#include "perfgauge/harness/batch_sizing.hpp"

#include <gtest/gtest.h>

namespace perfgauge::harness {
namespace {

constexpr double kTwoMs = 2e6;  // the target sample time, in ns

TEST(LongEnoughBatch, ByItsTimedPartOrByItsWallTime) {
    EXPECT_TRUE(long_enough_batch(kTwoMs, kTwoMs, kTwoMs));
    EXPECT_FALSE(long_enough_batch(1.9e6, 30e6, kTwoMs));
    // Paused most of the time: 20x the target in wall time is enough, whatever was timed.
    EXPECT_TRUE(long_enough_batch(1e3, 40e6, kTwoMs));
    EXPECT_FALSE(long_enough_batch(0, 39.9e6, kTwoMs));
}

TEST(GrownIterations, TowardsTheTimedTargetByAtMostTenTimes) {
    // 0.1 ms of 2: 20x short, grown by the most, 10x.
    EXPECT_EQ(grown_iterations(100, 1e5, 1e5, kTwoMs), 1000u);
    // 1 ms of 2: 1.2 x 2 = 2.4x.
    EXPECT_EQ(grown_iterations(100, 1e6, 1e6, kTwoMs), 240u);
    // Nearly there (1.8 ms): by the least, 1.5x.
    EXPECT_EQ(grown_iterations(100, 1.8e6, 1.8e6, kTwoMs), 150u);
}

TEST(GrownIterations, TowardsTheWallTimeLimitWhenThatComesFirst) {
    // Timed 10 us of 2 ms, but 20 ms of wall time (paused the rest): 40 ms of wall time is the
    // limit, 2x away, so 2.4x rather than 10x.
    EXPECT_EQ(grown_iterations(10, 1e4, 20e6, kTwoMs), 24u);
    // Nothing timed (an empty body): by the wall time alone.
    EXPECT_EQ(grown_iterations(1, 0, 50, kTwoMs), 10u);
    EXPECT_EQ(grown_iterations(1, 0, 0, kTwoMs), 10u);
}

TEST(GrownIterations, ByOneIterationAtLeast) {
    EXPECT_EQ(grown_iterations(1, 1.8e6, 1.8e6, kTwoMs), 2u);  // 1.5 x 1 rounds down to 1
    EXPECT_EQ(grown_iterations(3, 1.8e6, 1.8e6, kTwoMs), 4u);  // 4.5 rounds down to 4
}

}  // namespace
}  // namespace perfgauge::harness
