// perfgauge run --against's stopping rule without the binary: pairs of one-benchmark results,
// built here, decide when a benchmark has pairs enough.
#include <gtest/gtest.h>

#include <vector>

#include "perfgauge/harness/against_pairs.hpp"
#include "perfgauge/harness/compare.hpp"

namespace perfgauge::harness {
namespace {

RunResult one_benchmark(std::vector<double> ns_per_item) {
    RunResult r;
    BenchmarkResult b;
    b.name = "varint/branchy";
    b.ns_per_item = std::move(ns_per_item);
    r.benchmarks.push_back(b);
    return r;
}

// `n` pairs: the other build at `base` ns per item, this one `ratio(i)` times that.
template <typename Ratio>
void pairs_of(std::size_t n, double base, Ratio ratio, std::vector<RunResult>& other,
              std::vector<RunResult>& own) {
    for (std::size_t i = 0; i < n; ++i) {
        other.push_back(one_benchmark({base, base, base}));
        own.push_back(one_benchmark({base * ratio(i), base * ratio(i), base * ratio(i)}));
    }
}

const std::size_t kEnough = min_sign_test_pairs(0.95);

TEST(AgainstPairs, SteadyRatiosAreEnoughOnceTheSignTestHasPairs) {
    std::vector<RunResult> other, own;
    pairs_of(
        kEnough - 1, 10, [](std::size_t) { return 1.02; }, other, own);
    EXPECT_FALSE(pairs_precise_enough(other, own, 0.01)) << "too few pairs for an interval";
    pairs_of(
        1, 10, [](std::size_t) { return 1.02; }, other, own);
    EXPECT_TRUE(pairs_precise_enough(other, own, 0.01));
}

TEST(AgainstPairs, ScatteredRatiosAreNotEnough) {
    std::vector<RunResult> other, own;
    pairs_of(
        kEnough + 4, 10, [](std::size_t i) { return i % 2 == 0 ? 0.8 : 1.25; }, other, own);
    EXPECT_FALSE(pairs_precise_enough(other, own, 0.01));
    EXPECT_TRUE(pairs_precise_enough(other, own, 0.5)) << "within +-50% they are";
}

TEST(AgainstPairs, APairWithoutSamplesOnOneSideIsNoPair) {
    std::vector<RunResult> other, own;
    pairs_of(
        kEnough - 1, 10, [](std::size_t) { return 1.0; }, other, own);
    other.push_back(one_benchmark({10}));
    own.push_back(one_benchmark({}));  // every sample of this side was disturbed
    EXPECT_FALSE(pairs_precise_enough(other, own, 0.01));
}

TEST(AgainstPairs, ZeroTimesAreComparedAsDifferencesOfTheBaselinesMedian) {
    // A time of 0 has no logarithm: differences, within precision * |median of the baseline|.
    // Differences -100 (once), then 0 and 1 in turn: the interval is [0, 1], half width 0.5.
    std::vector<RunResult> other, own;
    for (std::size_t i = 0; i < 12; ++i) {
        other.push_back(one_benchmark({100}));
        own.push_back(one_benchmark({i == 0 ? 0.0 : i % 2 == 1 ? 100.0 : 101.0}));
    }
    EXPECT_TRUE(pairs_precise_enough(other, own, 0.01));    // 0.5 <= 1
    EXPECT_FALSE(pairs_precise_enough(other, own, 0.004));  // 0.5 > 0.4
}

TEST(AgainstPairs, MorePairsStopOnlyAfterTheFirstAndBeforeACouple) {
    std::vector<RunResult> other, own;
    pairs_of(
        kEnough + 2, 10, [](std::size_t) { return 1.0; }, other, own);
    ASSERT_TRUE(pairs_precise_enough(other, own, 0.01));
    const std::size_t pairs = kEnough + 2;
    for (std::size_t i = 0; i < pairs; ++i)
        EXPECT_FALSE(pairs_done(i, pairs, other, own, 0.01)) << "the first --pairs always";
    EXPECT_TRUE(pairs_done(pairs, pairs, other, own, 0.01));
    EXPECT_FALSE(pairs_done(pairs + 1, pairs, other, own, 0.01)) << "B A completes A B";
    EXPECT_TRUE(pairs_done(pairs + 2, pairs, other, own, 0.01));
    std::vector<RunResult> scattered_other, scattered_own;
    pairs_of(
        pairs, 10, [](std::size_t i) { return i % 2 == 0 ? 0.8 : 1.25; }, scattered_other,
        scattered_own);
    EXPECT_FALSE(pairs_done(pairs, pairs, scattered_other, scattered_own, 0.01));
}

}  // namespace
}  // namespace perfgauge::harness
