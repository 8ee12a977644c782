#include "perfgauge/harness/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace perfgauge::harness {
namespace {

// Every reference value below was computed independently with SciPy 1.10.1 and NumPy 1.24.2
// (Debian 12's python3-scipy / python3-numpy), e.g.
//   np.percentile(x, [25, 50, 75, 90, 99.9]); scipy.stats.median_abs_deviation(x)
//   scipy.stats.mannwhitneyu(a, b, alternative="two-sided", method="exact" | "asymptotic")
//   np.median([y - x for x in a for y in b])          # Hodges-Lehmann

TEST(Statistics, QuantilesMatchNumpyLinear) {
    const std::vector<double> x = {10, 2, 4, 1, 3};
    EXPECT_DOUBLE_EQ(quantile(x, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(quantile(x, 0.25), 2.0);
    EXPECT_DOUBLE_EQ(quantile(x, 0.5), 3.0);
    EXPECT_DOUBLE_EQ(quantile(x, 0.9), 7.6);
    EXPECT_DOUBLE_EQ(quantile(x, 1.0), 10.0);
    EXPECT_DOUBLE_EQ(median(std::vector<double>{1, 2, 3, 4}), 2.5);
    EXPECT_DOUBLE_EQ(median_absolute_deviation(x), 1.0);
    EXPECT_TRUE(std::isnan(median(std::vector<double>{})));
}

TEST(Statistics, SummaryMatchesNumpy) {
    const std::vector<double> x = {1, 2, 3, 4, 100, 5, 6, 7, 8, 9};
    const auto s = summarize(x);
    EXPECT_EQ(s.count, 10u);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.p25, 3.25);
    EXPECT_DOUBLE_EQ(s.median, 5.5);
    EXPECT_DOUBLE_EQ(s.p75, 7.75);
    EXPECT_NEAR(s.p90, 18.1, 1e-12);
    EXPECT_NEAR(s.p999, 99.181, 1e-9);
    EXPECT_DOUBLE_EQ(s.max, 100);
    EXPECT_DOUBLE_EQ(s.iqr, 4.5);
    EXPECT_DOUBLE_EQ(s.mad, 2.5);
    EXPECT_NEAR(s.cv, 2.0794752226809425, 1e-12);
    EXPECT_TRUE(s.unstable);  // IQR/median = 0.82
}

TEST(Statistics, StableWhenTheIqrIsSmall) {
    const std::vector<double> x = {100, 101, 100, 99, 100, 102, 100};
    const auto s = summarize(x);
    EXPECT_FALSE(s.unstable);
    EXPECT_LT(s.relative_spread, 0.05);
}

// Stability is claimed only when the spread is known and small: no sample (a benchmark whose
// every sample was disturbed), or a zero median with a spread, is unstable.
TEST(Statistics, UnstableWhenTheSpreadIsNotKnown) {
    const auto none = summarize(std::vector<double>{});
    EXPECT_EQ(none.count, 0u);
    EXPECT_TRUE(std::isnan(none.relative_spread));
    EXPECT_TRUE(none.unstable);
    EXPECT_TRUE(summarize(std::vector<double>{-1, 0, 1}).unstable);
    EXPECT_FALSE(summarize(std::vector<double>{0, 0, 0}).unstable);  // no spread at all
    EXPECT_FALSE(summarize(std::vector<double>{7}).unstable);
}

TEST(MannWhitney, ExactSmallSamplesMatchScipy) {
    const std::vector<double> a = {1.1, 2.2, 3.3, 4.4, 5.5}, b = {6.6, 7.7, 8.8, 9.9, 11.0, 12.1};
    const auto r = mann_whitney_u(a, b);
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.u, 0.0);
    EXPECT_NEAR(r.p_value, 0.004329004329004329, 1e-12);

    const std::vector<double> a3 = {3.1, 2.9, 3.5, 3.3, 2.8, 3.0, 3.2};
    const std::vector<double> b3 = {3.0 + 1e-9, 3.4, 3.6, 3.9, 3.7, 3.8, 4.0, 3.3 + 1e-9};
    // b3 is nudged off a3's values so there are no ties; scipy on these exact lists:
    // U = 6, p = 0.009324009324009324.
    const auto r3 = mann_whitney_u(a3, b3);
    EXPECT_TRUE(r3.exact);
    EXPECT_DOUBLE_EQ(r3.u, 6.0);
    EXPECT_NEAR(r3.p_value, 0.009324009324009324, 1e-12);
}

TEST(MannWhitney, NormalApproximationWithTiesMatchesScipy) {
    const std::vector<double> a = {10, 12, 11, 14, 13, 15, 16, 12, 11, 13, 14, 12};
    const std::vector<double> b = {14, 15, 13, 16, 17, 15, 18, 16, 14, 15, 17, 16};
    const auto r = mann_whitney_u(a, b);
    EXPECT_FALSE(r.exact);
    EXPECT_DOUBLE_EQ(r.u, 17.0);
    EXPECT_NEAR(r.p_value, 0.0015020742387734864, 1e-12);
}

TEST(MannWhitney, IdenticalSamplesShowNoDifference) {
    const std::vector<double> a = {5, 5, 5, 5}, b = {5, 5, 5};
    EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).p_value, 1.0);
    const std::vector<double> c = {1, 2, 3, 4, 5, 6};
    EXPECT_DOUBLE_EQ(mann_whitney_u(c, c).p_value, 1.0);
    EXPECT_DOUBLE_EQ(mann_whitney_u(c, {}).p_value, 1.0);
}

TEST(HodgesLehmann, MedianOfPairwiseDifferences) {
    const std::vector<double> a = {3.1, 2.9, 3.5, 3.3, 2.8, 3.0, 3.2};
    const std::vector<double> b = {3.0, 3.4, 3.6, 3.9, 3.7, 3.8, 4.0, 3.3};
    EXPECT_NEAR(hodges_lehmann_shift(a, b), 0.5, 1e-12);
    EXPECT_DOUBLE_EQ(hodges_lehmann_shift(std::vector<double>{1, 2}, std::vector<double>{11, 12}),
                     10.0);
}

}  // namespace
}  // namespace perfgauge::harness

namespace perfgauge::harness {
namespace {

TEST(Intervals, MedianIntervalUsesBinomialOrderStatistics) {
    // n = 10 at 95%: the 2nd and 9th order statistics, coverage 1 - 2 * P(B(10, .5) <= 1).
    const std::vector<double> x = {10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
    const auto ci = median_interval(x, 0.95);
    EXPECT_DOUBLE_EQ(ci.low, 2);
    EXPECT_DOUBLE_EQ(ci.high, 9);
    EXPECT_NEAR(ci.confidence, 1 - 2 * 11.0 / 1024, 1e-12);
    // Too few samples for 95%: [min, max] and the lower coverage it has.
    const auto small = median_interval(std::vector<double>{3, 1, 2}, 0.95);
    EXPECT_DOUBLE_EQ(small.low, 1);
    EXPECT_DOUBLE_EQ(small.high, 3);
    EXPECT_NEAR(small.confidence, 0.75, 1e-12);
}

TEST(Intervals, ShiftIntervalMatchesTheMannWhitneyCriticalValue) {
    // 10 vs 10 at 95%: P(U <= 23) = 0.0216 <= 0.025 < P(U <= 24), so the 24th smallest and
    // 24th largest of the 100 differences.
    std::vector<double> a, b;
    for (int i = 0; i < 10; ++i) {
        a.push_back(i);
        b.push_back(100 + 10 * i);
    }
    std::vector<double> d;
    for (double x : a)
        for (double y : b)
            d.push_back(y - x);
    std::sort(d.begin(), d.end());
    const auto ci = shift_interval(a, b, 0.95);
    EXPECT_DOUBLE_EQ(ci.low, d[23]);
    EXPECT_DOUBLE_EQ(ci.high, d[76]);
    EXPECT_GT(ci.confidence, 0.95);
    EXPECT_LT(ci.confidence, 0.96);
    // Large samples take the normal approximation; the interval still holds the HL estimate.
    std::vector<double> big_a, big_b;
    for (int i = 0; i < 40; ++i) {
        big_a.push_back(i % 7);
        big_b.push_back(2 + i % 5);
    }
    const auto big = shift_interval(big_a, big_b, 0.95);
    EXPECT_LE(big.low, hodges_lehmann_shift(big_a, big_b));
    EXPECT_GE(big.high, hodges_lehmann_shift(big_a, big_b));
}

TEST(Intervals, NormalQuantile) {
    EXPECT_NEAR(normal_quantile(0.975), 1.959964, 1e-5);
    EXPECT_NEAR(normal_quantile(0.5), 0, 1e-9);
}

TEST(Intervals, StudentTQuantile) {
    // scipy.stats.t.ppf(0.975, 1) = 12.706204736, (0.975, 10) = 2.228138852.
    EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706204736, 1e-6);
    EXPECT_NEAR(student_t_quantile(0.975, 10), 2.228138852, 1e-6);
}

TEST(Intervals, BlockShiftIntervalIsWelchOnTheBlockMedians) {
    // Blocks {1,2,3},{3,4,5} (medians 2, 4) against {11,12,13},{15,16,17} (medians 12, 16):
    // the means of the block medians are 3 and 14, shift 11; variances of the means 2/2 = 1 and
    // 8/2 = 4, se = sqrt(5), Welch df = 25 / (1 + 16) = 1.4706.
    const std::vector<double> a = {1, 2, 3, 3, 4, 5}, b = {11, 12, 13, 15, 16, 17};
    const std::vector<std::size_t> blocks = {0, 0, 0, 1, 1, 1};
    const auto ma = block_means(a, blocks), mb = block_means(b, blocks);
    ASSERT_TRUE(ma && mb);
    EXPECT_EQ(ma->blocks, 2u);
    EXPECT_DOUBLE_EQ(ma->mean, 3);
    EXPECT_NEAR(ma->spread, std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(mb->spread, std::sqrt(8.0), 1e-12);
    const Interval r = block_shift_interval(*ma, *mb, 0.95);
    const double half = student_t_quantile(0.975, 25.0 / 17.0) * std::sqrt(5.0);
    EXPECT_NEAR(r.low, 11 - half, 1e-9);
    EXPECT_NEAR(r.high, 11 + half, 1e-9);
    // One block shows no drift between blocks; a non-finite value gives no estimate.
    EXPECT_FALSE(block_means(a, std::vector<std::size_t>(6, 0)));
    EXPECT_FALSE(block_means(std::vector<double>{1, 2, 3, NAN, NAN, NAN}, blocks));
    // Steady blocks: a zero-width interval at the shift.
    const auto flat = block_means(std::vector<double>(6, 2.0), blocks);
    ASSERT_TRUE(flat);
    const Interval steady = block_shift_interval(*flat, *flat, 0.95);
    EXPECT_EQ(steady.low, 0);
    EXPECT_EQ(steady.high, 0);
}

TEST(Drift, MannKendallByHandOverBlockMedians) {
    using Series = std::vector<std::vector<double>>;
    // Nine samples: three blocks of three, medians 1, 2, 3 - every later block above every
    // earlier one, S = 3, Var S = 3*2*11/18.
    auto d = drift_over_time(Series{{1, 0.9, 1.1, 2, 2.1, 1.9, 3, 3, 3}});
    ASSERT_TRUE(d);
    EXPECT_NEAR(d->p_value, std::erfc((3 - 1) / std::sqrt(66.0 / 18) / std::sqrt(2.0)), 1e-12);
    EXPECT_NEAR(d->change, 2.0, 1e-12);  // the last third's median (3) against the first's (1)
    EXPECT_EQ(d->direction, 1);
    EXPECT_EQ(d->best_p_value, d->p_value);  // as monotone as three blocks can be
    // Block medians 1, 1, 2, 2, 3 (ties): S = 8, Var S = (5*4*15 - 2 * (2*1*9)) / 18.
    d = drift_over_time(Series{{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3}});
    ASSERT_TRUE(d);
    EXPECT_NEAR(d->p_value, std::erfc(7 / std::sqrt(264.0 / 18) / std::sqrt(2.0)), 1e-12);
    // Falling: the same p-value, the change below 0.
    d = drift_over_time(Series{{3, 3, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1}});
    ASSERT_TRUE(d);
    EXPECT_NEAR(d->p_value, std::erfc(7 / std::sqrt(264.0 / 18) / std::sqrt(2.0)), 1e-12);
    EXPECT_NEAR(d->change, -2.0 / 3, 1e-12);
    EXPECT_EQ(d->direction, -1);
    // Five blocks without ties could reach S = 10, Var S = 5*4*15/18.
    EXPECT_NEAR(d->best_p_value, std::erfc(9 / std::sqrt(300.0 / 18) / std::sqrt(2.0)), 1e-12);
    // 1, 2, 3 is one block: no trend to test, whatever its values, and it says so.
    d = drift_over_time(Series{{1, 2, 3}});
    ASSERT_TRUE(d);
    EXPECT_EQ(d->p_value, 1.0);
    EXPECT_EQ(d->best_p_value, 1.0);
    // Constant: no trend at all.
    d = drift_over_time(Series{{4, 4, 4, 4, 4, 4}});
    ASSERT_TRUE(d);
    EXPECT_EQ(d->p_value, 1.0);
    EXPECT_EQ(d->change, 0.0);
    // Too short, none at all, or not finite: nothing to say.
    EXPECT_FALSE(drift_over_time(Series{{1, 2}}));
    EXPECT_FALSE(drift_over_time(Series{}));
    EXPECT_FALSE(drift_over_time(Series{{1, NAN, 3}}));
}

TEST(Drift, LearningIsFoundWithinProcessesAndAStepBetweenThemIsNot) {
    // Two processes whose times fall as a branch predictor learns repeated data (4.8 to 1.3 ns).
    std::vector<std::vector<double>> learning(2);
    for (int i = 0; i < 30; ++i) {
        learning[0].push_back(4.8 - 0.12 * i + 0.01 * (i % 3));
        learning[1].push_back(5.0 - 0.1 * i + 0.01 * (i % 2));
    }
    const auto d = drift_over_time(learning);
    ASSERT_TRUE(d);
    EXPECT_LT(d->p_value, 1e-4);
    EXPECT_LT(d->change, -0.4);
    // Two steady processes, the second twice as slow as the first: concatenated they would
    // read as a rise; each alone has none.
    // Each process's block medians go up and down without a trend: 1.00, 1.03, 0.99, 1.02,
    // 1.01, 0.98, 1.04, 0.97, 1.00, 1.02 (S = -3) and twice that in the second.
    const std::vector<double> medians = {1.00, 1.03, 0.99, 1.02, 1.01,
                                         0.98, 1.04, 0.97, 1.00, 1.02};
    std::vector<std::vector<double>> steady(2);
    for (const double m : medians) {
        for (const double spread : {-0.001, 0.0, 0.001}) {
            steady[0].push_back(m + spread);
            steady[1].push_back(2 * m + spread);
        }
    }
    const auto s = drift_over_time(steady);
    ASSERT_TRUE(s);
    EXPECT_GT(s->p_value, 0.5);
    EXPECT_LT(s->best_p_value, 1e-6);  // a trend would have been found
    EXPECT_LT(std::fabs(s->change), 0.03);
    // A burst of slow samples (a busy second) in the middle of a steady series is no trend.
    std::vector<std::vector<double>> burst = {std::vector<double>(30, 1.0)};
    for (int i = 12; i < 17; ++i)
        burst[0][static_cast<std::size_t>(i)] = 1.5;
    const auto b = drift_over_time(burst);
    ASSERT_TRUE(b);
    EXPECT_GT(b->p_value, 0.1);
}

TEST(Drift, ALongRunIsTestedOverTenBlocks) {
    // A run may take -r 1000000: ten blocks of 100000. A slow rise of 1e-9 per sample under a
    // deterministic sawtooth of 1% is found.
    std::vector<std::vector<double>> long_run(1);
    for (std::uint64_t i = 0; i < 1000000; ++i) {
        long_run[0].push_back(1 + 1e-9 * static_cast<double>(i) +
                              0.01 * static_cast<double>((i * 7919) % 101) / 100.0);
    }
    const auto d = drift_over_time(long_run);
    ASSERT_TRUE(d);
    EXPECT_LT(d->p_value, 1e-3);
    EXPECT_GT(d->change, 0);
}

TEST(Intervals, MeanIntervalIsStudentsT) {
    // scipy.stats.t.interval(0.95, 2, loc=2, scale=1/sqrt(3)) = (-0.4841377, 4.4841377)
    const std::vector<double> three = {1, 2, 3};
    const Interval r = mean_interval(three, 0.95);
    EXPECT_NEAR(r.low, -0.4841377, 1e-6);
    EXPECT_NEAR(r.high, 4.4841377, 1e-6);
    // All equal: no spread, the mean at both ends.
    const std::vector<double> equal = {0.5, 0.5, 0.5};
    EXPECT_EQ(mean_interval(equal).low, 0.5);
    EXPECT_EQ(mean_interval(equal).high, 0.5);
    // One value, or one not finite: no interval.
    const std::vector<double> one = {1};
    EXPECT_TRUE(std::isnan(mean_interval(one).low));
    const std::vector<double> nan = {1, 2, std::nan("")};
    EXPECT_TRUE(std::isnan(mean_interval(nan).high));
}

TEST(Intervals, RunMedianPairsPairRunsPresentOnBothSides) {
    // a: run 0 {1, 2, 9} (median 2), run 1 {4}, run 2 {7}; b: run 0 {3}, run 2 {8, 10}, run 5
    // {1}. Runs 0 and 2 are on both sides, in run order; 1 and 5 have no partner.
    const std::vector<double> a = {1, 9, 2, 4, 7};
    const std::vector<std::size_t> a_run = {0, 0, 0, 1, 2};
    const std::vector<double> b = {8, 3, 10, 1};
    const std::vector<std::size_t> b_run = {2, 0, 2, 5};
    const auto pairs = run_median_pairs(a, a_run, b, b_run);
    EXPECT_EQ(pairs.a, (std::vector<double>{2, 7}));
    EXPECT_EQ(pairs.b, (std::vector<double>{3, 9}));
}

TEST(Intervals, PairChangesAreLogRatiosUnlessAMedianIsNotPositive) {
    // A pair run twice as slow shows the same ratio: its log ratio equals the others'.
    const auto times = pair_changes({{2, 4, 3}, {2.2, 4.4, 3.3}}, true);
    EXPECT_TRUE(times.logarithmic);
    ASSERT_EQ(times.values.size(), 3u);
    for (const double v : times.values)
        EXPECT_NEAR(v, std::log(1.1), 1e-12);
    // Counts: differences; and a time of 0 has no logarithm.
    EXPECT_FALSE(pair_changes({{2, 4, 3}, {2.2, 4.4, 3.3}}, false).logarithmic);
    const auto zero = pair_changes({{0, 1}, {2, 4}}, true);
    EXPECT_FALSE(zero.logarithmic);
    EXPECT_EQ(zero.values, (std::vector<double>{2, 3}));
    EXPECT_TRUE(pair_changes({}, true).values.empty());
}

}  // namespace
}  // namespace perfgauge::harness
