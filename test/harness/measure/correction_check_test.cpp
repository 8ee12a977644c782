#include "perfgauge/harness/correction_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace perfgauge::harness {
namespace {

TEST(CorrectionCheck, ToleranceIsOneNsForShortIterationsAndTwoPercentForLongOnes) {
    EXPECT_DOUBLE_EQ(correction_target_ns(5), 1.0);     // k = 1: a few ns
    EXPECT_DOUBLE_EQ(correction_target_ns(50), 1.0);    // 2% would be 1 ns: the same
    EXPECT_DOUBLE_EQ(correction_target_ns(500), 10.0);  // k = 100: 2%
    EXPECT_DOUBLE_EQ(correction_target_ns(5e5), 1e4);   // k = 100000
}

// A row whose paired errors are those of its medians.
CorrectionRow row(std::uint64_t k, double reference, double raw, double corrected) {
    return {k, reference, raw, corrected, raw - reference, corrected - reference, 11};
}

TEST(CorrectionCheck, ErrorsAndVerdicts) {
    // k = 1 here: 5 ns an iteration, 35 ns with a pause, 5.6 after correction.
    const CorrectionRow k1 = row(1, 5.0, 35.0, 5.6);
    EXPECT_NEAR(correction_error_share(k1), 0.12, 1e-12);
    EXPECT_TRUE(correction_passes(k1));
    EXPECT_FALSE(correction_passes(row(1, 5.0, 35.0, 3.9)));  // 1.1 ns short
    // k = 1000: 5000 ns; 1.9% off passes, 2.1% does not, either way round.
    EXPECT_TRUE(correction_passes(row(1000, 5000, 5030, 5095)));
    EXPECT_TRUE(correction_passes(row(1000, 5000, 5030, 4905)));
    EXPECT_FALSE(correction_passes(row(1000, 5000, 5030, 5105)));
    EXPECT_FALSE(correction_passes(row(1000, 5000, 5030, 4895)));
}

// Issue 34's quiet selftest: k=1 +5.27 ns, k=100 +5.33 ns, k=1000 +8.44 ns against a reported
// spread of +-4.9 ns; the fixed target failed the first two while the run itself said a pair
// moves that much with the work around it.
TEST(CorrectionCheck, ARowIsHeldToTheReportedSpreadWhereThatIsWider) {
    CorrectionRow k1 = row(1, 2.5, 35.0, 2.5 + 5.27);
    EXPECT_FALSE(correction_passes(k1)) << "no spread reported: the 1 ns target";
    k1.spread_ns = 4.9;
    EXPECT_TRUE(held_to_spread(k1));
    EXPECT_DOUBLE_EQ(correction_tolerance_ns(k1), 4.9);
    EXPECT_FALSE(correction_passes(k1)) << "+5.27 ns is beyond +-4.9 ns too";
    k1.spread_ns = 5.5;
    EXPECT_TRUE(correction_passes(k1));
    k1.corrected_ns = 2.5 - 5.4;
    k1.error_ns = -5.4;
    EXPECT_TRUE(correction_passes(k1)) << "either way round";
    k1.error_ns = -5.6;
    EXPECT_FALSE(correction_passes(k1));
    // k = 1000 (2600 ns): 2% is 52 ns, wider than the spread: the target holds it.
    CorrectionRow k1000 = row(1000, 2600, 2640, 2608.44);
    k1000.spread_ns = 4.9;
    EXPECT_FALSE(held_to_spread(k1000));
    EXPECT_DOUBLE_EQ(correction_tolerance_ns(k1000), 52);
    EXPECT_TRUE(correction_passes(k1000));
    k1000.error_ns = 53;
    EXPECT_FALSE(correction_passes(k1000));
    // A spread that is not a number never widens the target; a NaN error still fails.
    k1000.spread_ns = std::numeric_limits<double>::quiet_NaN();
    EXPECT_DOUBLE_EQ(correction_tolerance_ns(k1000), 52);
    k1.error_ns = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(correction_passes(k1));
}

TEST(CorrectionCheck, ErrorsArePairedByRound) {
    // The machine slows by 10% from round 2 on; each round's paused sample is 1 ns above its
    // reference. Unpaired medians would mix slow and fast rounds; paired, the error is 1 ns.
    const std::vector<std::size_t> rounds = {0, 1, 2, 3, 4};
    const std::vector<double> reference = {100, 100, 110, 110, 110};
    const std::vector<double> paused = {101, 101, 111, 111, 111};
    std::size_t pairs = 0;
    EXPECT_DOUBLE_EQ(paired_difference_ns(rounds, reference, rounds, paused, &pairs), 1.0);
    EXPECT_EQ(pairs, 5u);
    // A disturbed sample re-taken in a later round pairs only where both sides have one.
    EXPECT_DOUBLE_EQ(
        paired_difference_ns({0, 1, 5}, {100, 100, 110}, {0, 5, 6}, {101, 112, 90}, &pairs),
        1.5);  // rounds 0 and 5: differences 1 and 2
    EXPECT_EQ(pairs, 2u);
    EXPECT_TRUE(std::isnan(paired_difference_ns({0}, {1.0}, {1}, {2.0}, &pairs)));
    EXPECT_EQ(pairs, 0u);
}

TEST(CorrectionCheck, MissingNumbersFail) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(correction_passes(row(1, nan, 35.0, 5.0)));
    EXPECT_FALSE(correction_passes(row(1, 5.0, 35.0, nan)));  // no clean pair
    EXPECT_TRUE(std::isnan(correction_error_share(row(1, 0.0, 1.0, 1.0))));
    CorrectionCheck check;
    EXPECT_FALSE(check.passes()) << "no rows is no evidence";
    check.rows = {row(1, 5.0, 35.0, 5.5), row(100, 500, 530, 505)};
    EXPECT_TRUE(check.passes());
    check.rows.push_back(row(1000, 5000, 5030, 5200));
    EXPECT_FALSE(check.passes());
}

}  // namespace
}  // namespace perfgauge::harness
