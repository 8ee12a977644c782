#include "perfgauge/harness/overhead.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

// A 33 ns interval read by a clock that steps every 10 ns, at phases spread over the step: 30 ns
// seven times in ten, 40 ns three times in ten.
std::vector<double> quantised_33ns(std::size_t n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = (i * 7 % 10) < 3 ? 40.0 : 30.0;
    return v;
}

TEST(QuantumRobustMean, RecoversTheIntervalAQuantisedMedianRoundsAway) {
    const auto v = quantised_33ns(2000);
    EXPECT_DOUBLE_EQ(median(v), 30.0);  // a whole step: 3 ns short
    EXPECT_NEAR(quantum_robust_mean(v), 33.0, 0.05);
}

TEST(QuantumRobustMean, IgnoresPreemptedSamplesAMeanWouldCarry) {
    auto v = quantised_33ns(2000);
    v[100] = v[900] = v[1500] = 2e6;  // three preemptions of 2 ms
    EXPECT_GT(std::accumulate(v.begin(), v.end(), 0.0) / 2000, 3000.0);
    EXPECT_NEAR(quantum_robust_mean(v), 33.0, 0.3);
}

TEST(QuantumRobustMean, FewSamplesAreTheirOwnGroups) {
    EXPECT_DOUBLE_EQ(quantum_robust_mean(std::vector<double>{}), 0.0);
    EXPECT_DOUBLE_EQ(quantum_robust_mean(std::vector<double>{7}), 7.0);
    // Under five groups' worth, each sample is a group: the median.
    EXPECT_DOUBLE_EQ(quantum_robust_mean(std::vector<double>{1, 100, 2}), 2.0);
    // 64 samples make five groups of 12-13: the middle group means decide.
    std::vector<double> v(64, 10.0);
    v[0] = 1e9;
    EXPECT_DOUBLE_EQ(quantum_robust_mean(v), 10.0);
}

TEST(Overhead, ResistsAPreemptedCalibrationSample) {
    int call = 0;
    const Overhead o = calibrate_overhead(5, 2, [&](double& ns, std::vector<double>& counts) {
        ASSERT_EQ(counts.size(), 2u);
        ns = call == 2 ? 1e6 : 10.0 + call;  // one sample preempted
        counts[0] = 3;
        counts[1] = call == 2 ? 500 : 7;
        ++call;
    });
    EXPECT_EQ(call, 5);
    EXPECT_DOUBLE_EQ(o.ns, 13.0);  // five samples, five groups: median of 10, 11, 1e6, 13, 14
    EXPECT_EQ(o.counts, (std::vector<double>{3, 7}));
}

TEST(PauseDrift, AMachineThatSlowedSincePairCalibrationIsSaidForPausingBenchmarks) {
    // 30% slower, pairs half of the measured time: the pairs' cost moving with the machine
    // leaves 15% of the measured time, 30% of the corrected (the other half).
    const auto slower = pause_drift_warning("parse", 0.3, 0.5, 0.01);
    ASSERT_TRUE(slower.has_value());
    EXPECT_NE(slower->find("parse: the machine ran 30% slower"), std::string::npos) << *slower;
    EXPECT_NE(slower->find("too high by about 30.0%"), std::string::npos) << *slower;
    const auto faster = pause_drift_warning("parse", -0.1, 0.5, 0.01);
    ASSERT_TRUE(faster.has_value());
    EXPECT_NE(faster->find("10% faster"), std::string::npos) << *faster;
    EXPECT_NE(faster->find("too low by about 10.0%"), std::string::npos) << *faster;
    // Pairs that are all of the measured time: nothing is left to be precise about (the
    // runner's own warning says the pairs dominate).
    EXPECT_FALSE(pause_drift_warning("parse", 0.1, 1.0, 0.01));
    // Within the probe's own noise, a small effect, or a benchmark that does not pause.
    EXPECT_FALSE(pause_drift_warning("parse", kProbeDriftNoise / 2, 0.9, 0.001));
    EXPECT_FALSE(pause_drift_warning("parse", 0.3, 0.03, 0.01));  // 0.93% < 1%
    EXPECT_FALSE(pause_drift_warning("parse", 0.3, 0.0, 0.01));
    EXPECT_FALSE(pause_drift_warning("parse", std::nan(""), 0.5, 0.01));
}

TEST(Overhead, PerPauseAndCorrection) {
    const Overhead empty{100, {10, 0}};
    const Overhead with_pauses{300, {50, 4}};
    const Overhead pause = per_pause(with_pauses, empty, 4);
    EXPECT_DOUBLE_EQ(pause.ns, 50);
    EXPECT_EQ(pause.counts, (std::vector<double>{10, 1}));
    // A batch of raw 1000 ns with 3 pauses: 1000 - 100 - 3 * 50.
    EXPECT_DOUBLE_EQ(corrected(1000, empty.ns, pause.ns, 3), 750);
    // Zero pauses in the calibration batch divide by one, not by zero.
    EXPECT_DOUBLE_EQ(per_pause(with_pauses, empty, 0).ns, 200);
}

TEST(Overhead, APairBetweenKindsOfWorkIsTheirMedianOneOddKindMovesLittle) {
    // Five kinds of work around a pair; one (a preempted calibration, or an odd layout) far off.
    const std::vector<Overhead> kinds = {
        {23.6, {4, 0}}, {25.4, {6, 1}}, {24.0, {5, 0}}, {25.8, {7, 0}}, {31.9, {40, 9}}};
    const Overhead middle = median_over_kinds(kinds);
    EXPECT_DOUBLE_EQ(middle.ns, 25.4);  // the midpoint of the range would be 27.75
    EXPECT_EQ(middle.counts, (std::vector<double>{6, 0}));  // per figure, not the ns's kind's
    // What a corrected time may be off per pair: the furthest kind, odd or not.
    EXPECT_DOUBLE_EQ(furthest_kind_ns(kinds, middle.ns), 31.9 - 25.4);
    const std::vector<Overhead> even = {{23.0, {}}, {26.0, {}}};
    EXPECT_DOUBLE_EQ(median_over_kinds(even).ns, 24.5);
    EXPECT_DOUBLE_EQ(furthest_kind_ns(even, 24.5), 1.5);
    EXPECT_DOUBLE_EQ(median_over_kinds({}).ns, 0.0);
    EXPECT_DOUBLE_EQ(furthest_kind_ns({}, 3.0), 0.0);
}

TEST(Overhead, AKindOfWorkNotCalibratedIsPredictedFromTheKindsDispersion) {
    // Six kinds 1 ns apart: mean = median = 22.5, sd = sqrt(17.5 / 5); t(0.975, 5) = 2.570582.
    const std::vector<Overhead> six = {{20, {}}, {21, {}}, {22, {}}, {23, {}}, {24, {}}, {25, {}}};
    EXPECT_NEAR(unseen_kind_ns(six, 22.5), 2.570582 * std::sqrt(3.5) * std::sqrt(7.0 / 6), 1e-4);
    EXPECT_GT(unseen_kind_ns(six, 22.5), furthest_kind_ns(six, 22.5));
    // The subtracted median off the mean (one odd kind): that offset is added. n = 5, mean
    // 26.14, sd = sqrt(44.872 / 4), t(0.975, 4) = 2.776445.
    const std::vector<Overhead> odd = {{23.6, {}}, {25.4, {}}, {24.0, {}}, {25.8, {}}, {31.9, {}}};
    EXPECT_NEAR(unseen_kind_ns(odd, 25.4),
                2.776445 * std::sqrt(44.872 / 4) * std::sqrt(1.2) + (26.14 - 25.4), 1e-4);
    // Many kinds, one far off: the interval is narrower than that kind's distance, which a
    // calibrated kind's pair may still be off by.
    std::vector<Overhead> many(19, Overhead{0, {}});
    many.push_back({10, {}});
    EXPECT_DOUBLE_EQ(unseen_kind_ns(many, 0), 10);
    // Nothing to predict a dispersion from.
    EXPECT_DOUBLE_EQ(unseen_kind_ns(std::vector<Overhead>{{24, {}}}, 24), 0);
    EXPECT_DOUBLE_EQ(unseen_kind_ns({}, 3), 0);
}

}  // namespace
}  // namespace perfgauge::harness
