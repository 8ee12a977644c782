// selftest --counters' judging on fake counts: what a right counter, a wrong one and a missing
// one come out as. No PMU needed.
#include <gtest/gtest.h>

#include <vector>

#include "perfgauge/harness/counter_judging.hpp"

namespace perfgauge::harness {
namespace {

// 3 n + b for every n, `repeats` times, with `extra` added to the count of `bent_n`.
std::vector<LoopCount> line(double b, double extra = 0, std::uint64_t bent_n = 0) {
    std::vector<LoopCount> out;
    for (int r = 0; r < 3; ++r) {
        for (const std::uint64_t n : {10000u, 100000u, 1000000u, 10000000u})
            out.push_back({n, 3.0 * static_cast<double>(n) + b + (n == bent_n ? extra : 0)});
    }
    return out;
}

TEST(CounterJudging, FitLineFindsSlopeAndIntercept) {
    const auto fit = fit_line(line(10369));
    ASSERT_TRUE(fit);
    EXPECT_NEAR(fit->a, 3.0, 1e-9);
    EXPECT_NEAR(fit->b, 10369, 1e-3);
    EXPECT_FALSE(fit_line({{100, 300}, {100, 301}})) << "one size: no slope";
    EXPECT_FALSE(fit_line({}));
}

TEST(CounterJudging, ExactInstructionsPassOnOneInterceptForEverySize) {
    const auto c = judge_exact_instructions(line(10369), 3);
    EXPECT_EQ(c.verdict, CheckVerdict::pass) << c.detail;
    EXPECT_EQ(c.name, "instructions");
    EXPECT_NEAR(*c.measured, 3.0, 1e-9);
    EXPECT_EQ(*c.expected, 3.0);
    EXPECT_NE(c.detail.find("3 n + 10369"), std::string::npos) << c.detail;
}

TEST(CounterJudging, ExactInstructionsToleratesTwoAndOnePerMillion) {
    // 2 + 1e-6 * 3e7 = 32 at n = 1e7; 2 at n = 1e4 (the count 40369: 2.04).
    EXPECT_EQ(judge_exact_instructions(line(10369, 30, 10000000), 3).verdict, CheckVerdict::pass);
    EXPECT_EQ(judge_exact_instructions(line(10369, 40, 10000000), 3).verdict, CheckVerdict::fail);
    EXPECT_EQ(judge_exact_instructions(line(10369, 2, 10000), 3).verdict, CheckVerdict::pass);
    const auto c = judge_exact_instructions(line(10369, 3, 10000), 3);
    EXPECT_EQ(c.verdict, CheckVerdict::fail);
    EXPECT_NE(c.detail.find("not 3 n + b"), std::string::npos) << c.detail;
}

TEST(CounterJudging, ExactInstructionsFailsOnAWrongSlope) {
    // A counter that counts 3.01 per iteration: b grows with n.
    std::vector<LoopCount> counts;
    for (const std::uint64_t n : {10000u, 1000000u})
        counts.push_back({n, 3.01 * static_cast<double>(n) + 100});
    const auto c = judge_exact_instructions(counts, 3);
    EXPECT_EQ(c.verdict, CheckVerdict::fail);
    EXPECT_NEAR(*c.measured, 3.01, 1e-9);
}

TEST(CounterJudging, ExactInstructionsWithOneSizeIsUnavailable) {
    const auto c = judge_exact_instructions({{1000, 3100}}, 3);
    EXPECT_EQ(c.verdict, CheckVerdict::unavailable);
    EXPECT_FALSE(c.measured);
}

TEST(CounterJudging, CyclesPlausibleBetweenAnEighthAndFifty) {
    EXPECT_EQ(judge_cycles(3e6, 3e6).verdict, CheckVerdict::pass);  // the guest: cycles = ins
    EXPECT_EQ(judge_cycles(3e6, 1.1e6).verdict, CheckVerdict::pass);
    EXPECT_EQ(judge_cycles(3e6, 3e6 / 9).verdict, CheckVerdict::fail) << "9 per cycle";
    EXPECT_EQ(judge_cycles(3e6, 0).verdict, CheckVerdict::fail);
    EXPECT_EQ(judge_cycles(3e6, 3e6 * 51).verdict, CheckVerdict::fail);
    EXPECT_EQ(judge_cycles(0, 1e6).verdict, CheckVerdict::unavailable);
    EXPECT_NEAR(*judge_cycles(2e6, 1e6).measured, 0.5, 1e-12);
}

TEST(CounterJudging, BranchMissesNearTheirExpectedRate) {
    const std::uint64_t n = 1 << 20;
    EXPECT_EQ(judge_branch_misses("p", 30, n, 0, kPredictableMissTolerance).verdict,
              CheckVerdict::pass);
    EXPECT_EQ(judge_branch_misses("p", 0.05 * n, n, 0, kPredictableMissTolerance).verdict,
              CheckVerdict::fail);
    EXPECT_EQ(judge_branch_misses("r", 0.49 * n, n, 0.5, kRandomMissTolerance).verdict,
              CheckVerdict::pass);
    EXPECT_EQ(judge_branch_misses("r", 0.02 * n, n, 0.5, kRandomMissTolerance).verdict,
              CheckVerdict::fail)
        << "a counter that misses nothing on random branches counts something else";
    EXPECT_EQ(judge_branch_misses("r", 10, 0, 0.5, kRandomMissTolerance).verdict,
              CheckVerdict::unavailable);
}

TEST(CounterJudging, MultiplexedWithinOnePercentPasses) {
    const double exact = 300010369;
    const auto c =
        judge_multiplexed({{exact * 1.0004, 0.5, true}, {exact * 0.9995, 0.5, true}}, exact);
    EXPECT_EQ(c.verdict, CheckVerdict::pass) << c.detail;
    EXPECT_NEAR(*c.measured, exact * 0.9995, 1);
    EXPECT_EQ(*c.expected, exact);
}

TEST(CounterJudging, MultiplexedOffByMoreThanOnePercentOrUncountedFails) {
    const double exact = 3e8;
    EXPECT_EQ(judge_multiplexed({{exact * 1.02, 0.5, true}, {exact, 0.5, true}}, exact).verdict,
              CheckVerdict::fail);
    const auto never = judge_multiplexed({{0, 0, false}, {exact, 0.5, true}}, exact);
    EXPECT_EQ(never.verdict, CheckVerdict::fail);
    EXPECT_NE(never.detail.find("never ran"), std::string::npos) << never.detail;
}

TEST(CounterJudging, NothingMultiplexedIsUnavailable) {
    const auto c = judge_multiplexed({{3e8, 1, true}, {3e8, 1, true}}, 3e8);
    EXPECT_EQ(c.verdict, CheckVerdict::unavailable);
    EXPECT_NE(c.detail.find("nothing was multiplexed"), std::string::npos) << c.detail;
}

TEST(CounterJudging, UserReadsEqualToReadCallsPass) {
    // Each path costs its own b; the loop's difference is the same and 3 per iteration.
    const std::vector<LoopCount> user = {{100000, 300040}, {1000000, 3000040}};
    const std::vector<LoopCount> calls = {{100000, 300900}, {1000000, 3000900}};
    const auto c = judge_user_reads(user, calls, 3);
    EXPECT_EQ(c.verdict, CheckVerdict::pass) << c.detail;
    EXPECT_EQ(*c.measured, 2700000);
    EXPECT_EQ(*c.expected, 2700000);
}

TEST(CounterJudging, UserReadsThatMissCountsFail) {
    // A user-space read that races a context switch: one count short by thousands.
    const std::vector<LoopCount> user = {{100000, 300040}, {1000000, 2990040}};
    const std::vector<LoopCount> calls = {{100000, 300900}, {1000000, 3000900}};
    EXPECT_EQ(judge_user_reads(user, calls, 3).verdict, CheckVerdict::fail);
    EXPECT_EQ(judge_user_reads({{100000, 300040}}, calls, 3).verdict, CheckVerdict::unavailable);
}

TEST(CounterJudging, RegionsWithinTheirToleranceOfTheirWork) {
    const std::vector<RegionCount> good = {{"outer", 0, 1500064, 1500000},
                                           {"inner", 1, 300017.5, 300000}};
    const auto c = judge_regions(good);
    EXPECT_EQ(c.verdict, CheckVerdict::pass) << c.detail;
    EXPECT_EQ(*c.measured, 1500064) << "the region farthest off";
    EXPECT_NE(c.detail.find("inner (depth 1) +17.5"), std::string::npos) << c.detail;
    const std::vector<RegionCount> bad = {{"outer", 0, 1500000, 1500000},
                                          {"inner", 1, 299000, 300000}};
    EXPECT_EQ(judge_regions(bad).verdict, CheckVerdict::fail);
    EXPECT_EQ(judge_regions({}).verdict, CheckVerdict::unavailable);
}

TEST(CounterJudging, VerdictNames) {
    EXPECT_STREQ(verdict_name(CheckVerdict::pass), "pass");
    EXPECT_STREQ(verdict_name(CheckVerdict::fail), "fail");
    EXPECT_STREQ(verdict_name(CheckVerdict::unavailable), "unavailable");
}

}  // namespace
}  // namespace perfgauge::harness
