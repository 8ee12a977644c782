#include "perfgauge/harness/sampling_rounds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../../support/text.hpp"
#include "perfgauge/harness/overhead.hpp"
#include "perfgauge/harness/precision.hpp"

namespace perfgauge::harness {
namespace {

using test::contains;

// Five clean samples wanted, retaken within ten rounds, at most twelve taken.
constexpr SamplingPlan kFiveWithinTwelve{5, 10, 12, 0, 0};

TEST(WantsSample, AFixedCountIsTakenAndRetakenWithinItsRounds) {
    const std::vector<double> three(3, 100.0), five(5, 100.0);
    EXPECT_TRUE(wants_sample(kFiveWithinTwelve, 0, {}, 0, 0));
    EXPECT_TRUE(wants_sample(kFiveWithinTwelve, 9, three, 2, 0)) << "short: retaken";
    EXPECT_FALSE(wants_sample(kFiveWithinTwelve, 10, three, 2, 0)) << "the retake rounds are over";
    EXPECT_FALSE(wants_sample(kFiveWithinTwelve, 3, five, 0, 0)) << "the count is reached";
    EXPECT_FALSE(wants_sample(kFiveWithinTwelve, 3, three, 9, 0)) << "no room left";
}

TEST(WantsSample, APrecisionTargetAddsSamplesWithinTheBudget) {
    // One clean sample wanted; then until the median is within 1%, or 1 s was spent.
    const SamplingPlan target{1, 2, 100, 0.01, 1e9};
    const std::vector<double> agreeing(6, 100.0);
    const std::vector<double> spread = {100, 150, 80, 120, 60, 140};
    ASSERT_EQ(median_precision(agreeing), 0.0);
    ASSERT_GT(median_precision(spread), 0.01);
    EXPECT_FALSE(wants_sample(target, 7, agreeing, 0, 0)) << "the target is reached";
    EXPECT_TRUE(wants_sample(target, 7, spread, 0, 0.5e9));
    EXPECT_FALSE(wants_sample(target, 7, spread, 0, 1e9)) << "the budget is spent";
    // Fewer than six samples bound no median: short of any target.
    EXPECT_TRUE(wants_sample(target, 7, {100.0, 100.0}, 0, 0));
    EXPECT_FALSE(wants_sample(target, 7, spread, 94, 0)) << "no room left";
}

TEST(ReserveSamples, EverySeriesHasItsRoomAndEachEventItsColumns) {
    BenchmarkResult apart;
    reserve_samples(apart, 40, 2, true);
    for (const auto* series : {&apart.ns_per_item, &apart.raw_ns_per_item, &apart.cpu_ns_per_item,
                               &apart.snapshot_pause_ns})
        EXPECT_GE(series->capacity(), 40u);
    EXPECT_GE(apart.rounds.capacity(), 40u);
    EXPECT_GE(apart.disturbed.capacity(), 40u);
    ASSERT_EQ(apart.counters_per_item.size(), 2u);
    ASSERT_EQ(apart.raw_counters_per_item.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_TRUE(apart.counters_per_item[i].empty());
        EXPECT_GE(apart.counters_per_item[i].capacity(), 40u);
        EXPECT_GE(apart.raw_counters_per_item[i].capacity(), 40u);
    }
    EXPECT_EQ(apart.running_fraction, std::vector<double>(2, 1.0));
    EXPECT_TRUE(apart.ns_per_item.empty());

    BenchmarkResult together;
    reserve_samples(together, 40, 0, false);
    EXPECT_EQ(together.snapshot_pause_ns.capacity(), 0u) << "no snapshot pairs timed apart";
    EXPECT_TRUE(together.counters_per_item.empty());
    EXPECT_TRUE(together.running_fraction.empty());
}

TEST(NotePauseShares, KeepsTheLargestShareOfASample) {
    SamplingTally tally;
    note_pause_shares(tally, 1000, 10, 30, 2);  // 300 of 1000 ns subtracted, +-20 ns
    EXPECT_DOUBLE_EQ(tally.pause_share, 0.3);
    EXPECT_DOUBLE_EQ(tally.spread_share, 0.02);
    note_pause_shares(tally, 4000, 10, 30, 2);
    EXPECT_DOUBLE_EQ(tally.pause_share, 0.3);
    EXPECT_DOUBLE_EQ(tally.spread_share, 0.02);
    note_pause_shares(tally, 0, 10, 30, 2);  // no time: no share
    EXPECT_DOUBLE_EQ(tally.pause_share, 0.3);
    note_pause_shares(tally, 500, 10, 30, 0.5);
    EXPECT_DOUBLE_EQ(tally.pause_share, 0.6);
    EXPECT_DOUBLE_EQ(tally.spread_share, 0.02);
}

TEST(PauseCorrectionWarnings, SayWhenThePairsDominateOrTheirSpreadIsTooWide) {
    SamplingTally dominated;
    dominated.pause_share = 0.6;
    dominated.spread_share = 0.03;
    const auto too_short = pause_correction_warnings("p", dominated, 1.5, 0.01, std::nullopt);
    ASSERT_EQ(too_short.size(), 1u);
    EXPECT_EQ(too_short[0].rfind("p: the subtracted pause/resume cost is up to 60%", 0), 0u)
        << too_short[0];
    EXPECT_TRUE(contains(too_short[0], "moves by ±1.5 ns with the work around it, up to ±3.0%"))
        << too_short[0];
    EXPECT_TRUE(contains(too_short[0], "too short for this to be precise")) << too_short[0];

    SamplingTally spread;
    spread.pause_share = 0.2;
    spread.spread_share = 0.03;
    const auto off = pause_correction_warnings("s", spread, 1.5, 0.01, std::nullopt);
    ASSERT_EQ(off.size(), 1u);
    EXPECT_EQ(off[0].rfind("s: its corrected time may be off by more than the ±1% precision", 0),
              0u)
        << off[0];
    EXPECT_TRUE(pause_correction_warnings("s", spread, 1.5, 0.05, std::nullopt).empty());
    EXPECT_TRUE(pause_correction_warnings("none", SamplingTally{}, 1.5, 0.01, 0.0).empty());
}

TEST(PauseCorrectionWarnings, AddTheDriftWarningWhenTheRunMeasuredADrift) {
    SamplingTally tally;
    tally.pause_share = 0.2;
    const auto drift = pause_drift_warning("d", 0.3, 0.2, 0.01);
    ASSERT_TRUE(drift.has_value());
    EXPECT_EQ(pause_correction_warnings("d", tally, 1.5, 0.01, 0.3),
              std::vector<std::string>{*drift});
    EXPECT_TRUE(pause_correction_warnings("d", tally, 1.5, 0.01, std::nullopt).empty());
}

TEST(StealWarning, CountsTheSamplesTheHypervisorStoleTimeAround) {
    std::vector<BenchmarkResult> benchmarks(2);
    EXPECT_FALSE(steal_warning(benchmarks).has_value());
    DisturbedSample switched;
    switched.involuntary_switches = 3;
    DisturbedSample stolen;
    stolen.steal_ns = 10e6;
    benchmarks[0].disturbed = {stolen, switched, stolen};
    EXPECT_FALSE(steal_warning({benchmarks[1]}).has_value());
    benchmarks[1].disturbed = {stolen};
    const auto warning = steal_warning(benchmarks);
    ASSERT_TRUE(warning.has_value());
    EXPECT_EQ(warning->rfind("steal: the hypervisor took the CPU around 3 sample(s)", 0), 0u)
        << *warning;
}

}  // namespace
}  // namespace perfgauge::harness
