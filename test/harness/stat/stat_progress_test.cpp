// stat's progress line, from given steps and elapsed times (no clock, no terminal).
#include <gtest/gtest.h>

#include "perfgauge/harness/stat_progress.hpp"

namespace perfgauge::harness {
namespace {

TEST(StatProgress, NamesTheRunAndTheCommandAndEstimatesFromTheRunsSoFar) {
    // Side by side, 2 commands x 10 rounds: the 5th run (round 3 of B) after 4 runs in 2 s.
    const StatStep step{.done = 4, .total = 20, .run = 3, .runs = 10, .command = 1, .commands = 2};
    // 16 runs left at 0.5 s each: 8 s, said in 5 s steps.
    EXPECT_EQ(stat_progress_text(step, 2.0), "run 3/10 of B, about 10 s left");
    EXPECT_EQ(stat_progress_text(step, 1.0), "run 3/10 of B, under 5 s left");
}

TEST(StatProgress, NoEstimateBeforeARunHasEnded) {
    const StatStep first{.done = 0, .total = 20, .run = 1, .runs = 10, .command = 0, .commands = 2};
    EXPECT_EQ(stat_progress_text(first, 0.0), "run 1/10 of A");
}

TEST(StatProgress, ACommandAloneIsNotNamedAndWarmupsAreSaid) {
    EXPECT_EQ(stat_progress_text({.done = 1, .total = 10, .run = 2, .runs = 10}, 30.0),
              "run 2/10, about 4 min 30 s left");
    EXPECT_EQ(stat_progress_text({.done = 1,
                                  .total = 12,
                                  .run = 1,
                                  .runs = 2,
                                  .warmup = true,
                                  .command = 1,
                                  .commands = 2},
                                 1.0),
              "warmup 1/2 of B, about 10 s left");
}

}  // namespace
}  // namespace perfgauge::harness
