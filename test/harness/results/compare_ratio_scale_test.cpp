// Relative changes on the ratio scale: no interval compare prints reaches below -100% for values
// that cannot be negative, a paired ratio never stands unexplained beside medians it contradicts,
// and A/A comparisons (seeded synthetic series) are called different no more often than alpha.
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/compare_report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace perfgauge::harness {
namespace {

// The lower end of `m`'s interval as a share of its baseline's median (-1 is -100%).
double relative_low(const MetricComparison& m) {
    return m.ci_low / std::fabs(m.baseline_median);
}

// `n` samples around `centre` in blocks of `per_block` consecutive samples, each block scaled
// by its own factor (a host that changes speed between parts of a run), and each sample by a
// little noise of its own. Seeded: the same series every run.
struct Series {
    std::vector<double> values;
    std::vector<std::size_t> blocks;
};
Series blocked_series(std::mt19937_64& rng, double centre, std::size_t n, std::size_t per_block,
                      double block_sd, double sample_sd) {
    std::normal_distribution<double> block_noise(0, block_sd), sample_noise(0, sample_sd);
    Series s;
    double factor = 1;
    for (std::size_t i = 0; i < n; ++i) {
        if (i % per_block == 0)
            factor = std::exp(block_noise(rng));
        s.values.push_back(centre * factor * std::exp(sample_noise(rng)));
        s.blocks.push_back(i / per_block);
    }
    return s;
}

TEST(CompareRatioScale, AFarFasterTimeWithWideBlocksStaysAboveMinus100Percent) {
    // 19.8x faster with parts of each run 2x apart: the blocks' spread, added to an interval of
    // differences, once made "19.8x faster [-117.3%, -86.1%]".
    std::mt19937_64 rng(48);
    const Series a = blocked_series(rng, 198, 24, 4, 0.5, 0.05);
    const Series b = blocked_series(rng, 10, 24, 4, 0.5, 0.05);
    const SampleBlocks blocks{a.blocks, b.blocks};
    const auto m = compare_samples("time", true, a.values, b.values, CompareOptions{},
                                   Method::independent, &blocks);
    EXPECT_TRUE(m.ratio_scale);
    EXPECT_GT(relative_low(m), -1) << m.ci_low << " of " << m.baseline_median;
    EXPECT_LT(m.ci_high, 0);
    EXPECT_EQ(m.verdict, Verdict::lower);
    // The interval is about the ratio: its bounds, as ratios, hold the ratio of the medians.
    const double medians = m.contender_median / m.baseline_median;
    EXPECT_LE(1 + relative_low(m), medians);
    EXPECT_GE(1 + m.ci_high / m.baseline_median, medians);
}

TEST(CompareRatioScale, PairedCountsWithWildRoundsAreCutAtMinus100Percent) {
    // Counts paired by round are compared by their differences (a count's change is a number of
    // events); a round whose baseline is 5x the others' once gave "1.70x fewer [-305.9%, ...]".
    const std::vector<double> a = {60, 330, 66, 300, 70, 320, 64, 310};
    const std::vector<double> b = {40, 40, 45, 35, 42, 38, 41, 39};
    const auto m = compare_samples("page-faults", false, a, b, CompareOptions{}, Method::paired);
    EXPECT_EQ(m.method, Method::paired);
    EXPECT_FALSE(m.ratio_scale);
    EXPECT_TRUE(m.non_negative);
    EXPECT_GE(relative_low(m), -1) << m.ci_low << " of " << m.baseline_median;
    // Values that can be negative (a user counter) keep their interval whole.
    std::vector<double> negative = b;
    negative[0] = -5;
    const auto signed_counts =
        compare_samples("USER", false, a, negative, CompareOptions{}, Method::paired);
    EXPECT_FALSE(signed_counts.non_negative);
    EXPECT_LT(relative_low(signed_counts), -1);
}

TEST(CompareRatioScale, IndependentCountsWithAZeroAreCutAtMinus100Percent) {
    // A count with a 0 among its samples has no logarithm: compared on differences, the blocks'
    // spread widening them, and cut at -100%.
    std::vector<double> a = {0, 900, 1000, 20, 950, 30, 980, 10, 1000, 5, 990, 15};
    std::vector<double> b = {0, 1, 2, 0, 1, 3, 0, 2, 1, 0, 2, 1};
    const std::vector<std::size_t> ba = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    const SampleBlocks blocks{ba, ba};
    const auto m =
        compare_samples("page-faults", false, a, b, CompareOptions{}, Method::independent, &blocks);
    EXPECT_FALSE(m.ratio_scale);
    EXPECT_GE(relative_low(m), -1);
    const Comparison c{"a", "b", {{"x", "x", "x", {m}}}, {}, CompareOptions{}, {}, 0};
    const auto table = render_comparison(c, OutputFormat::table);
    EXPECT_NE(table.find(" [-100.0%, +"), std::string::npos) << "cut at -100%: " << table;
}

TEST(CompareRatioScale, APairedRatioThatContradictsTheMediansIsMarkedAndExplained) {
    // Rounds differ 5x from one another and in all but one the contender has 2 more: the pairs'
    // change is +2 (+6.7% of the baseline's median, 30), while the sides' medians read 30 -> 12.
    const std::vector<double> a = {10, 50, 10, 50, 10, 50, 10, 50, 30};
    const std::vector<double> b = {12, 52, 12, 52, 12, 52, 12, 52, 12};
    auto m = compare_samples("page-faults", false, a, b, CompareOptions{}, Method::paired);
    m.source = EventSource::software;
    ASSERT_EQ(m.method, Method::paired);
    EXPECT_NEAR(m.shift, 2, 1e-12);
    EXPECT_NEAR(m.contender_median / m.baseline_median, 0.4, 1e-12);
    EXPECT_TRUE(medians_disagree(m));
    const Comparison c{"A", "B", {{"B", "A", "B", {m}}}, {}, CompareOptions{}, {}, 0};
    const auto table = render_comparison(c, OutputFormat::table);
    EXPECT_NE(table.find("1.067^"), std::string::npos) << table;
    EXPECT_NE(table.find("^ paired: RATIO, CHANGE, CI and VERDICT are the pairs' change"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("B page-faults/item [sw] (medians 0.400)"), std::string::npos) << table;
    EXPECT_NE(table.find("not the ratio of the medians"), std::string::npos) << table;
    const auto j = nlohmann::json::parse(render_comparison(c, OutputFormat::json));
    const auto& row = j["benchmarks"][0]["metrics"][0];
    EXPECT_EQ(row["ratio_of"], "rounds");
    EXPECT_NEAR(row["medians_ratio"].get<double>(), 0.4, 1e-12);
    // The same samples as two independent sets: the ratio is the medians', nothing to mark.
    const auto unpaired = compare_samples("page-faults", false, a, b, CompareOptions{});
    EXPECT_FALSE(medians_disagree(unpaired));
    // Paired rows that agree with their medians are not marked.
    const std::vector<double> steady = {100, 101, 99, 100, 102, 98, 100, 101};
    std::vector<double> more = steady;
    for (auto& v : more)
        v *= 1.1;
    EXPECT_FALSE(medians_disagree(
        compare_samples("time", true, steady, more, CompareOptions{}, Method::paired)));
}

// How often A/A comparisons of seeded series are called faster or slower.
struct FalseCalls {
    std::size_t calls = 0, trials = 0;
    double rate() const { return static_cast<double>(calls) / static_cast<double>(trials); }
};

FalseCalls independent_aa(double block_sd, double sample_sd, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    FalseCalls out;
    for (int t = 0; t < 400; ++t) {
        const Series a = blocked_series(rng, 100, 18, 3, block_sd, sample_sd);
        const Series b = blocked_series(rng, 100, 18, 3, block_sd, sample_sd);
        const SampleBlocks blocks{a.blocks, b.blocks};
        const auto m = compare_samples("time", true, a.values, b.values, CompareOptions{},
                                       Method::independent, &blocks);
        out.calls += m.verdict == Verdict::lower || m.verdict == Verdict::higher;
        ++out.trials;
    }
    return out;
}

TEST(CompareRatioScale, AaAcrossResultsIsRarelyCalledDifferent) {
    // Two runs of the same code, blocks of a run apart by 1%, 5% and 20% (log-normal), samples
    // by 1%: at most 5% of comparisons called faster or slower, at every noise level.
    for (const double block_sd : {0.01, 0.05, 0.20}) {
        const FalseCalls f =
            independent_aa(block_sd, 0.01, 4800 + static_cast<int>(100 * block_sd));
        EXPECT_LE(f.rate(), 0.05) << "block sd " << block_sd << ": " << f.calls << " of "
                                  << f.trials;
        RecordProperty("aa_independent_" + std::to_string(static_cast<int>(100 * block_sd)) + "pct",
                       std::to_string(f.calls) + "/" + std::to_string(f.trials));
    }
}

TEST(CompareRatioScale, AaPairedByRoundIsRarelyCalledDifferent) {
    // One result, two identical variants: rounds scale both sides by up to 20%, each sample has
    // 2% of its own. Times (log ratios) and counts (differences) alike.
    std::mt19937_64 rng(4849);
    std::normal_distribution<double> round_noise(0, 0.2), own(0, 0.02);
    FalseCalls times, counts;
    for (int t = 0; t < 400; ++t) {
        std::vector<double> a, b;
        for (int k = 0; k < 15; ++k) {
            const double round = std::exp(round_noise(rng));
            a.push_back(100 * round * std::exp(own(rng)));
            b.push_back(100 * round * std::exp(own(rng)));
        }
        const auto time = compare_samples("time", true, a, b, CompareOptions{}, Method::paired);
        const auto count =
            compare_samples("page-faults", false, a, b, CompareOptions{}, Method::paired);
        times.calls += time.verdict == Verdict::lower || time.verdict == Verdict::higher;
        counts.calls += count.verdict == Verdict::lower || count.verdict == Verdict::higher;
        ++times.trials;
        ++counts.trials;
        EXPECT_GE(relative_low(count), -1);
    }
    EXPECT_LE(times.rate(), 0.05) << times.calls;
    EXPECT_LE(counts.rate(), 0.05) << counts.calls;
    RecordProperty("aa_paired_times", std::to_string(times.calls) + "/400");
    RecordProperty("aa_paired_counts", std::to_string(counts.calls) + "/400");
}

}  // namespace
}  // namespace perfgauge::harness
