// The regression gate on series of known truth: exact series, steps, their persistence, the
// baseline an acceptance moves, pending and inconclusive newest runs, practical significance,
// throughput, and relative intervals that stay above -100%.
#include "perfgauge/harness/regression_gate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "perfgauge/harness/gate_trials.hpp"

namespace perfgauge::harness {
namespace {

using Kind = GateVerdict::Kind;

std::vector<Kind> after_each_run(const std::vector<RunPoint>& runs, std::size_t first = 0,
                                 const GateOptions& options = {}) {
    std::vector<Kind> out;
    for (std::size_t n = 1; n <= runs.size(); ++n)
        out.push_back(judge_series(std::span(runs).first(n), first, options).kind);
    return out;
}

// `n` runs with 1% log-normal noise, multiplied by `factor` from `at` on.
std::vector<RunPoint> noisy(std::size_t n, std::size_t at, double factor, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto runs = synthetic_series(n, n, 0, 0.01, rng);
    for (std::size_t i = at; i < n; ++i) {
        runs[i].value *= factor;
        runs[i].spread *= factor;
    }
    return runs;
}

TEST(RegressionGate, AnExactSeriesRegressesAtTheRunThatChangesAndStaysSo) {
    std::vector<RunPoint> runs;
    for (int i = 0; i < 12; ++i)
        runs.push_back({i < 6 ? 500.0 : 550.0, 0});
    const auto kinds = after_each_run(runs);
    EXPECT_EQ(kinds[0], Kind::too_short);
    for (std::size_t i = 1; i < 6; ++i)
        EXPECT_EQ(kinds[i], Kind::unchanged) << "run " << i + 1;
    for (std::size_t i = 6; i < 12; ++i)
        EXPECT_EQ(kinds[i], Kind::regression) << "run " << i + 1;
    const auto v = judge_series(runs, 0, {});
    EXPECT_TRUE(v.exact);
    EXPECT_NEAR(v.size, 0.1, 1e-12);
    EXPECT_EQ(v.current_first, 6U);
}

// Seen in a real history: five runs of 31.6806240063593 instructions per item average to a
// mean 3.6e-15 below the sixth. Rounding is no change; 0.1% is, and the minimum change decides.
TEST(RegressionGate, ExactRepeatsAreUnchangedWhateverTheRounding) {
    for (const double value : {31.6806240063593, 0.1, 1e-7, 3e9}) {
        std::vector<RunPoint> runs(12, RunPoint{value, 0});
        runs[11].value = value * (1 + 1e-12);
        EXPECT_EQ(judge_series(runs, 0, {}).kind, Kind::unchanged) << value;
        runs[11].value = value * 1.001;
        EXPECT_EQ(judge_series(runs, 0, {}).kind, Kind::regression) << value;
        EXPECT_EQ(judge_series(runs, 0, {.min_change = 0.005}).kind, Kind::unchanged) << value;
    }
}

TEST(RegressionGate, ANoisyStepIsFoundWithinThreeRunsAndStandsOnEveryLaterRun) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const auto runs = noisy(30, 10, 1.10, seed);  // +10% in 1% noise
        const auto kinds = after_each_run(runs);
        for (std::size_t i = 0; i < 10; ++i)
            EXPECT_NE(kinds[i], Kind::regression) << "seed " << seed << " run " << i + 1;
        for (std::size_t i = 12; i < 30; ++i)
            EXPECT_EQ(kinds[i], Kind::regression) << "seed " << seed << " run " << i + 1;
        const auto v = judge_series(runs, 0, {});
        EXPECT_NEAR(static_cast<double>(v.current_first), 10, 1) << seed;
        EXPECT_LT(v.size_low, 0.10);
        EXPECT_GT(v.size_high, 0.10);
    }
}

TEST(RegressionGate, AChangeBackEndsTheRegressionAndAnAcceptanceMovesTheBaseline) {
    auto runs = noisy(40, 10, 1.20, 3);
    for (std::size_t i = 25; i < 40; ++i)
        runs[i].value /= 1.20;  // reverted at run 26
    const auto kinds = after_each_run(runs);
    EXPECT_EQ(kinds[20], Kind::regression);
    EXPECT_EQ(kinds[39], Kind::unchanged);
    // Accepted at the step: the slower level is the baseline, and the change back an
    // improvement against it.
    EXPECT_EQ(judge_series(std::span(runs).first(25), 10, {}).kind, Kind::unchanged);
    EXPECT_EQ(judge_series(runs, 10, {}).kind, Kind::improvement);
}

TEST(RegressionGate, ANewestRunBeyondTheBandIsPendingNotYetARegression) {
    auto runs = noisy(15, 15, 1, 4);
    runs.push_back({runs.back().value * 3, runs.back().spread * 3});  // 3x slower, once
    const auto v = judge_series(runs, 0, {});
    EXPECT_EQ(v.kind, Kind::pending);
    EXPECT_GT(v.newest_size, 1.5);
    EXPECT_GT(v.band, 0);
    EXPECT_LT(v.band, 0.10);
}

TEST(RegressionGate, ANoisyNewestRunIsInconclusiveNeverUnchanged) {
    auto runs = noisy(15, 15, 1, 5);
    runs.back().spread = 0.5 * runs.back().value;  // its own interval: +-50%
    const auto v = judge_series(runs, 0, {});
    EXPECT_EQ(v.kind, Kind::inconclusive);
    EXPECT_GT(v.newest_spread, v.band);
}

TEST(RegressionGate, AChangeBelowTheMinimumIsNoRegression) {
    const auto runs = noisy(30, 10, 1.05, 6);  // +5% in 1% noise: significant
    EXPECT_EQ(judge_series(runs, 0, {}).kind, Kind::regression);
    EXPECT_EQ(judge_series(runs, 0, {.min_change = 0.08}).kind, Kind::unchanged);
}

TEST(RegressionGate, ThroughputIsWorseDown) {
    const auto slower = noisy(30, 10, 0.8, 7);
    EXPECT_EQ(judge_series(slower, 0, {.worse = Worse::down}).kind, Kind::regression);
    EXPECT_EQ(judge_series(slower, 0, {}).kind, Kind::improvement);
}

TEST(RegressionGate, RelativeIntervalsStayAboveMinusOneHundredPercent) {
    const auto runs = noisy(30, 10, 0.05, 8);  // 20x faster
    const auto v = judge_series(runs, 0, {});
    EXPECT_EQ(v.kind, Kind::improvement);
    EXPECT_GT(v.size_low, -1);
    EXPECT_NEAR(v.size, -0.95, 0.01);
    for (const auto& c : detect_change_points(runs))
        EXPECT_GT(c.size_low, -1);
}

TEST(RegressionGate, ValuesThatAreNotAllPositiveAreJudgedOnTheirOwnScale) {
    std::mt19937_64 rng(9);
    std::normal_distribution<double> z(0, 1);
    std::vector<RunPoint> runs;
    for (int i = 0; i < 30; ++i)
        runs.push_back({(i < 10 ? 0.0 : 5.0) + z(rng), 0.1});
    const auto v = judge_series(runs, 0, {});
    EXPECT_EQ(v.kind, Kind::regression);
    EXPECT_NEAR(static_cast<double>(v.current_first), 10, 1);
}

TEST(RegressionGate, ShowAndPlotMarkTheChangePointsTheGateConfirms) {
    auto runs = noisy(60, 20, 1.15, 10);
    for (std::size_t i = 40; i < 60; ++i)
        runs[i].value *= 0.7;
    const auto steps = replay_steps(runs, 0, {});
    const auto changes = detect_change_points(runs);
    ASSERT_EQ(steps.size(), 2U);
    ASSERT_EQ(changes.size(), steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i)
        EXPECT_EQ(changes[i].index, steps[i].index);
    EXPECT_TRUE(changes[0].regression);
    EXPECT_FALSE(changes[1].regression);
}

TEST(RegressionGate, TooFewRunsAreNotJudged) {
    const std::vector<RunPoint> one{{5, 0.1}}, five(5, RunPoint{5, 0.1});
    EXPECT_EQ(judge_series(one, 0, {}).kind, Kind::too_short);
    EXPECT_EQ(judge_series(five, 0, {}).kind, Kind::too_short);
}

}  // namespace
}  // namespace perfgauge::harness
