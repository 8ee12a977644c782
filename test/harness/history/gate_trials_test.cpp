// The gate judged as a sceptic judges it: seeded synthetic series of known truth, `check` run
// after every add as a CI job runs it. Deterministic (fixed seeds): these are the figures of
// docs/cli/history.md, and a change to the gate that loses power or raises false alarms fails
// here. The whole power curve: `history_gate_grid` (docs/measurements.md).
#include "perfgauge/harness/gate_trials.hpp"

#include <gtest/gtest.h>

namespace perfgauge::harness {
namespace {

TEST(GateTrials, FewerThanTwoPercentOfAaSeriesEverAlarmOverTwentyRuns) {
    for (const double noise : {0.01, 0.05, 0.20}) {
        const auto aa = aa_false_alarms(1000, 20, noise, {}, 1 + static_cast<int>(noise * 100));
        EXPECT_EQ(aa.series, 1000U);
        EXPECT_LE(aa.rate(), 0.02) << "noise " << noise << ": " << aa.alarmed;
    }
}

// After 15 runs of baseline: a step of 4 noises found within 3 runs in 95% of series, of 3
// within 5 in 90%, and the alarm standing on every later run.
TEST(GateTrials, AfterFifteenRunsStepsOfThreeAndFourNoisesAreFoundAndTheAlarmStands) {
    const auto four = step_power(1000, 15, 8, 4, 0.05, {}, 415);
    EXPECT_GE(four.found_within[2], 0.95);
    EXPECT_GE(four.stood, 0.995);
    const auto three = step_power(1000, 15, 8, 3, 0.05, {}, 315);
    EXPECT_GE(three.found_within[4], 0.90);
    EXPECT_GE(three.stood, 0.995);
}

// After only 10 runs the noise is known to 9 degrees of freedom, and at 2% false alarms the
// same steps need a run or two more (docs/cli/history.md).
TEST(GateTrials, AfterTenRunsTheSameStepsNeedARunOrTwoMore) {
    const auto four = step_power(1000, 10, 8, 4, 0.05, {}, 44);
    EXPECT_GE(four.found_within[2], 0.85);  // within 3 runs
    EXPECT_GE(four.found_within[3], 0.95);  // within 4
    EXPECT_GE(four.stood, 0.995);
    const auto three = step_power(1000, 10, 8, 3, 0.05, {}, 33);
    EXPECT_GE(three.found_within[4], 0.77);  // within 5 runs
    EXPECT_GE(three.found_within[7], 0.85);  // within 8
    EXPECT_GE(three.stood, 0.995);
}

// A whole check over 300 series (100 benchmarks, 3 metrics), run after each of 20 adds, with
// each series' level set so that the check expects at most 0.05 false alarms: at most one of
// the 20 checks (5%) alarms anywhere.
TEST(GateTrials, AWholeStoreOfAaSeriesRarelyAlarmsAnywhere) {
    constexpr std::size_t kSeries = 300, kRuns = 20;
    GateOptions options;
    options.alpha = gate_alpha_for(0.05 / kSeries);
    std::mt19937_64 rng(2026);
    std::vector<std::vector<RunPoint>> store;
    for (std::size_t s = 0; s < kSeries; ++s)
        store.push_back(synthetic_series(kRuns, kRuns, 0, 0.01 + 0.001 * (s % 50), rng));
    std::size_t alarmed_checks = 0;
    for (std::size_t n = 2; n <= kRuns; ++n) {
        bool any = false;
        for (const auto& series : store)
            any = any || judge_series(std::span(series).first(n), 0, options).kind ==
                             GateVerdict::Kind::regression;
        alarmed_checks += any;
    }
    EXPECT_LE(alarmed_checks, 1U);
}

TEST(GateTrials, TheLevelForALifetimeRateNeverExceedsTheDefault) {
    EXPECT_EQ(gate_alpha_for(1), kDefaultGateAlpha);
    EXPECT_NEAR(gate_alpha_for(kGateLifetimeFalseAlarms / 10), kDefaultGateAlpha / 10, 1e-12);
    // Shared across series: never above a series alone, the whole bounded by what was asked.
    EXPECT_EQ(gate_alpha_across(0.05, 1), kDefaultGateAlpha);
    EXPECT_EQ(gate_false_alarms_across(0.05, 1), kGateLifetimeFalseAlarms);
    EXPECT_NEAR(gate_false_alarms_across(0.05, 300), 0.05, 1e-12);
    EXPECT_NEAR(gate_alpha_across(0.05, 300), gate_alpha_for(0.05 / 300), 1e-15);
}

}  // namespace
}  // namespace perfgauge::harness
