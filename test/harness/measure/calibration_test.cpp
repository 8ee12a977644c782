#include "perfgauge/harness/calibration.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace perfgauge::harness {
namespace {

// This VM's TSC: 2.6 GHz nominal (0.385 ns a tick), advancing 26 ticks (10 ns) at a time.
constexpr double kNsPerTick = 10.0 / 26;

TEST(ClockSteps, GranularityIsTheSmallestStepNotOneTick) {
    const std::vector<std::uint64_t> deltas = {0, 26, 0, 26, 52, 26, 0, 26};
    const ClockSteps s = summarize_steps(deltas, kNsPerTick);
    EXPECT_DOUBLE_EQ(s.granularity_ns, 10.0);
    EXPECT_DOUBLE_EQ(s.same_value_share, 3.0 / 8);
    EXPECT_TRUE(s.exact);
    ASSERT_EQ(s.common.size(), 2u);
    EXPECT_DOUBLE_EQ(s.common[0].ns, 10.0);
    EXPECT_DOUBLE_EQ(s.common[0].share, 4.0 / 5);
    EXPECT_DOUBLE_EQ(s.common[1].ns, 20.0);
    EXPECT_DOUBLE_EQ(s.common[1].share, 1.0 / 5);
}

TEST(ClockSteps, ARareOddDifferenceIsNotTheStep) {
    // One 1-tick difference in 1000: 21-tick steps with one hiccup.
    std::vector<std::uint64_t> deltas(1000, 21);
    deltas[500] = 1;
    const ClockSteps s = summarize_steps(deltas, 1.0);
    EXPECT_DOUBLE_EQ(s.granularity_ns, 21.0);
    EXPECT_TRUE(s.exact) << "no read returned the same value, but every step is 21 ticks";
    EXPECT_DOUBLE_EQ(s.common.back().ns, 1.0);  // still shown among the steps seen
}

TEST(ClockSteps, NoRepeatedValueMakesItAnUpperBound) {
    // A fine clock whose reads cost about 20 ns: differences of 20-22, never equal values.
    const std::vector<std::uint64_t> deltas = {21, 20, 20, 22, 21, 20};
    const ClockSteps s = summarize_steps(deltas, 1.0, 2);
    EXPECT_DOUBLE_EQ(s.granularity_ns, 20.0);
    EXPECT_FALSE(s.exact);
    ASSERT_EQ(s.common.size(), 2u);  // capped at two
    EXPECT_DOUBLE_EQ(s.common[0].ns, 20.0);
    EXPECT_DOUBLE_EQ(s.common[1].ns, 21.0);  // seen twice; 22 once
}

TEST(ClockSteps, EmptyAndFrozenInput) {
    EXPECT_DOUBLE_EQ(summarize_steps({}, 1.0).granularity_ns, 0.0);
    const std::vector<std::uint64_t> frozen = {0, 0, 0};
    const ClockSteps s = summarize_steps(frozen, 1.0);
    EXPECT_DOUBLE_EQ(s.same_value_share, 1.0);
    EXPECT_DOUBLE_EQ(s.granularity_ns, 0.0);
    EXPECT_TRUE(s.common.empty());
}

TEST(ClockSteps, ConsecutiveReadsOfARealClock) {
    const Clock clock = Clock::best();
    const auto deltas = consecutive_read_deltas(clock, 1000);
    ASSERT_EQ(deltas.size(), 999u);
    const ClockSteps s = summarize_steps(deltas, clock.ns_per_tick());
    // Whatever the machine, a clock advances in steps no finer than one tick.
    EXPECT_GE(s.granularity_ns, clock.ns_per_tick() * 0.999);
}

}  // namespace
}  // namespace perfgauge::harness
