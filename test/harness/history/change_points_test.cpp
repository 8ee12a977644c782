// Change-point detection on seeded synthetic series: exact for deterministic runs, E-divisive
// with a permutation test otherwise, and the latest run judged against its history.
#include "perfgauge/harness/change_points.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace perfgauge::harness {
namespace {

// `n` runs around 100 with relative run-to-run noise `noise`, the value multiplied by
// 1 + `shift` from run index `at` on; each run's spread is `spread` of its value.
std::vector<RunPoint> step_series(std::size_t n, std::size_t at, double shift, double noise,
                                  double spread, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0, 1);
    std::vector<RunPoint> out;
    for (std::size_t i = 0; i < n; ++i) {
        const double level = 100 * (i >= at ? 1 + shift : 1);
        const double value = level * (1 + noise * z(rng));
        out.push_back({value, spread * value});
    }
    return out;
}

std::vector<double> values(const std::vector<RunPoint>& runs) {
    std::vector<double> v;
    for (const auto& r : runs)
        v.push_back(r.value);
    return v;
}

TEST(EnergyStatistic, TheScanFindsTheSplitABruteForceSearchFinds) {
    const auto v = values(step_series(40, 17, 0.05, 0.02, 0.01, 7));
    std::size_t best_at = 0;
    double best = -1;
    for (std::size_t s = 3; s + 3 <= v.size(); ++s) {
        const double q = energy_statistic(v, s);
        if (q > best) {
            best = q;
            best_at = s;
        }
    }
    const auto scan = best_split(v, 3);
    ASSERT_TRUE(scan.has_value());
    EXPECT_EQ(scan->split, best_at);
    EXPECT_NEAR(scan->statistic, best, 1e-9 * best);
}

TEST(EnergyStatistic, IsLargerForASplitAtTheShiftThanBesideIt) {
    const std::vector<double> v{1, 1, 1, 1, 2, 2, 2, 2};
    EXPECT_GT(energy_statistic(v, 4), energy_statistic(v, 3));
    EXPECT_GT(energy_statistic(v, 4), energy_statistic(v, 5));
    EXPECT_FALSE(best_split(std::vector<double>{1, 2, 3, 4, 5}, 3).has_value());
}

TEST(ChangePoints, DeterministicSeriesChangeExactlyWhereTheValueChanges) {
    std::vector<RunPoint> runs;
    for (int i = 0; i < 12; ++i)
        runs.push_back({i < 6 ? 1000.0 : 1100.0, 0});
    runs.push_back({1000.0, 0});  // and back down at index 12
    ASSERT_TRUE(deterministic_series(runs));
    EXPECT_FALSE(deterministic_series({}));  // no run is no evidence (show said so of it)
    const auto changes = detect_change_points(runs);
    ASSERT_EQ(changes.size(), 2U);
    EXPECT_EQ(changes[0].index, 6U);
    EXPECT_NEAR(changes[0].size, 0.1, 1e-12);
    EXPECT_EQ(changes[0].size_low, changes[0].size);
    EXPECT_TRUE(changes[0].regression);
    EXPECT_EQ(changes[1].index, 12U);
    EXPECT_FALSE(changes[1].regression);
}

TEST(ChangePoints, FindsATenPercentShiftInTwoPercentNoiseWithItsSize) {
    const auto runs = step_series(60, 30, 0.10, 0.02, 0.005, 11);
    const auto changes = detect_change_points(runs);
    ASSERT_EQ(changes.size(), 1U);
    EXPECT_NEAR(static_cast<double>(changes[0].index), 30, 1);
    EXPECT_TRUE(changes[0].regression);
    EXPECT_LT(changes[0].size_low, 0.10);
    EXPECT_GT(changes[0].size_high, 0.10);
    EXPECT_LE(changes[0].p_value, 0.01);
}

TEST(ChangePoints, FindsTwoShiftsAndAnImprovement) {
    auto runs = step_series(90, 30, 0.15, 0.02, 0.005, 5);
    for (std::size_t i = 60; i < runs.size(); ++i)
        runs[i].value *= 0.8;  // faster from 60 on
    const auto changes = detect_change_points(runs);
    ASSERT_EQ(changes.size(), 2U);
    EXPECT_NEAR(static_cast<double>(changes[0].index), 30, 1);
    EXPECT_TRUE(changes[0].regression);
    EXPECT_NEAR(static_cast<double>(changes[1].index), 60, 1);
    EXPECT_FALSE(changes[1].regression);
}

TEST(ChangePoints, SeriesWithoutChangeRarelyGetOne) {
    int alarms = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed)
        alarms += !detect_change_points(step_series(50, 50, 0, 0.05, 0.01, seed)).empty();
    EXPECT_LE(alarms, 1);  // alpha 0.01 per test: ~0.2 expected of 20
}

TEST(ChangePoints, AShiftWithinTheRunsOwnSpreadIsNotReported) {
    // 3% shift, visible to the test with 0.5% noise, but each run resolves only 5%.
    const auto runs = step_series(60, 30, 0.03, 0.005, 0.05, 3);
    EXPECT_TRUE(detect_change_points(runs).empty());
    auto resolved = runs;
    for (auto& r : resolved)
        r.spread = 0.001 * r.value;
    EXPECT_EQ(detect_change_points(resolved).size(), 1U);
}

TEST(ChangePoints, TheSameSeedGivesTheSameAnswer) {
    const auto runs = step_series(80, 40, 0.03, 0.03, 0.005, 9);
    const auto a = detect_change_points(runs, {.seed = 4});
    const auto b = detect_change_points(runs, {.seed = 4});
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].index, b[i].index);
        EXPECT_EQ(a[i].p_value, b[i].p_value);
    }
}

// What `history check` does after each run is added: flag the run that brings the shift.
std::vector<LatestVerdict::Kind> verdict_after_each_run(const std::vector<RunPoint>& runs) {
    std::vector<LatestVerdict::Kind> out;
    for (std::size_t n = 1; n <= runs.size(); ++n)
        out.push_back(judge_latest(std::span(runs).first(n)).kind);
    return out;
}

TEST(JudgeLatest, DeterministicTenPercentSlowdownIsFlaggedAtRunSevenAndNoEarlier) {
    std::vector<RunPoint> runs;
    for (int i = 0; i < 12; ++i)
        runs.push_back({i < 6 ? 500.0 : 550.0, 0});
    const auto kinds = verdict_after_each_run(runs);
    using K = LatestVerdict::Kind;
    EXPECT_EQ(kinds[0], K::too_short);
    for (std::size_t i = 1; i < 6; ++i)
        EXPECT_EQ(kinds[i], K::unchanged) << "run " << i + 1;
    EXPECT_EQ(kinds[6], K::regression);
    const auto at7 = judge_latest(std::span(runs).first(7));
    EXPECT_NEAR(at7.size, 0.1, 1e-12);
    EXPECT_LE(at7.allowance, 1e-9);  // rounding only: an exact series has no noise
}

// Seen in a real history: five runs of 31.6806240063593 instructions per item average to a
// mean 3.6e-15 below the sixth, and `check` called that identical sixth run a regression.
TEST(JudgeLatest, DeterministicRepeatsAreUnchangedWhateverTheMeansRounding) {
    for (const double value : {31.6806240063593, 31.07166863705455, 0.1, 1e-7, 3e9}) {
        std::vector<RunPoint> runs(12, RunPoint{value, 0});
        runs[11].value = value * (1 + 1e-12);  // the same count over a different item total
        const auto kinds = verdict_after_each_run(runs);
        for (std::size_t i = 1; i < runs.size(); ++i)
            EXPECT_EQ(kinds[i], LatestVerdict::Kind::unchanged) << value << " run " << i + 1;
        EXPECT_TRUE(detect_change_points(runs).empty()) << value;
        runs[11].value = value * 1.001;  // a real change of 0.1% is still exact and found
        EXPECT_EQ(judge_latest(runs).kind, LatestVerdict::Kind::regression) << value;
        EXPECT_EQ(detect_change_points(runs).size(), 1U) << value;
    }
}

TEST(JudgeLatest, NoisyTenPercentSlowdownIsFlaggedAtRunSevenAndNoEarlier) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const auto runs = step_series(12, 6, 0.10, 0.01, 0.005, seed);
        const auto kinds = verdict_after_each_run(runs);
        for (std::size_t i = 0; i < 6; ++i)
            EXPECT_NE(kinds[i], LatestVerdict::Kind::regression)
                << "seed " << seed << " run " << i + 1;
        EXPECT_EQ(kinds[6], LatestVerdict::Kind::regression) << "seed " << seed;
    }
}

TEST(JudgeLatest, OnceTheChangeIsInTheHistoryTheNewLevelIsTheBaseline) {
    auto runs = step_series(40, 20, 0.10, 0.01, 0.005, 2);
    const auto verdict = judge_latest(runs);
    EXPECT_EQ(verdict.kind, LatestVerdict::Kind::unchanged);
    EXPECT_NEAR(static_cast<double>(verdict.baseline_first), 20, 1);
    runs.push_back({80, 0.4});  // 27% faster than the new level
    EXPECT_EQ(judge_latest(runs).kind, LatestVerdict::Kind::improvement);
}

TEST(JudgeLatest, OneRunIsNoHistory) {
    const std::vector<RunPoint> one{{5, 0.1}}, two{{5, 0.1}, {6, 0.1}};
    EXPECT_EQ(judge_latest(one).kind, LatestVerdict::Kind::too_short);
    EXPECT_EQ(judge_latest(two).kind, LatestVerdict::Kind::too_short);  // noisy: 2 before
}

}  // namespace
}  // namespace perfgauge::harness
