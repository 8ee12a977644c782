// Two separate runs compared with the machine's between-run floor (compare --floor): how the
// floor widens a time and where it does not apply, on seeded synthetic runs. Its false-alarm
// rate and power over a thousand pairs are trials: compare_floor_trials_test.cpp. No time is
// measured here.
#include "perfgauge/harness/compare.hpp"

#include <gtest/gtest.h>

#include "floor_synthetic.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace perfgauge::harness {
namespace {

using namespace floor_synthetic;

TEST(CompareFloor, HalfWidthsAddInQuadrature) {
    EXPECT_DOUBLE_EQ(across_half_width(0.01, 0, 1.96), 0.01);
    EXPECT_NEAR(across_half_width(0.03, 0.02, 2), 0.05, 1e-15);
    EXPECT_NEAR(across_half_width(0, 0.01, 1.96), 0.0196, 1e-15);
    // The floor's median |difference| is 0.6745 standard deviations of a normal difference.
    EXPECT_NEAR(kFloorToSd * 0.6744897501960817, 1, 1e-15);
}

TEST(CompareFloor, ABenchmarkWhoseBlocksMoveMoreIsHeldToItsBlocks) {
    // Six blocks of five samples a side, the blocks 1.00, 1.10, 0.90, ...: a spread far beyond
    // what a 1% floor stands for. The interval rests on the blocks, not on the floor.
    std::vector<double> a, b;
    std::vector<std::size_t> blocks;
    const double factors[] = {1.0, 1.1, 0.9, 1.05, 0.95, 1.0};
    for (std::size_t i = 0; i < 30; ++i) {
        a.push_back(1000 * factors[i / 5] * (1 + 0.001 * static_cast<double>(i % 5)));
        b.push_back(1000 * factors[(i / 5 + 3) % 6] * (1 + 0.001 * static_cast<double>(i % 5)));
        blocks.push_back(i / 5);
    }
    CompareOptions options;
    options.between_run_floor = 0.01;
    const SampleBlocks sides{blocks, blocks};
    const auto m = compare_samples("time", true, a, b, options, Method::independent, &sides);
    EXPECT_GT(m.between_run_sd, 0.05);  // the blocks' spread, about 7% on the log scale
    EXPECT_LT(m.ci_low / m.baseline_median, -0.1);
    EXPECT_EQ(m.verdict, Verdict::inconclusive);
}

TEST(CompareFloor, NotAppliedToPairsOrCountsAndRecorded) {
    Normal normal(5);
    Machine machine;
    machine.run_sd = run_sd_for_floor(0.01);
    RunResult a = synthetic_run(normal, machine, 1);
    RunResult b = synthetic_run(normal, machine, 1.1);
    CompareOptions options;
    options.between_run_floor = 0.01;
    const Comparison c = compare_results(a, b, options);
    const MetricComparison& m = c.benchmarks.at(0).metrics.at(0);
    EXPECT_NEAR(m.between_run_sd, 0.01 * kFloorToSd, 1e-15);
    ASSERT_FALSE(c.notes.empty());
    bool said = false;
    for (const auto& n : c.notes)
        said = said || n.find("between-run floor 1.00% (--floor)") != std::string::npos;
    EXPECT_TRUE(said);
    // The interval holds the run-to-run noise: at least z x sd either side of the shift.
    const double z = 1.959963984540054;
    const double low = std::log1p(m.ci_low / m.baseline_median);
    const double high = std::log1p(m.ci_high / m.baseline_median);
    const double shift = std::log1p(m.shift / m.baseline_median);
    EXPECT_GE(shift - low, z * m.between_run_sd - 1e-12);
    EXPECT_GE(high - shift, z * m.between_run_sd - 1e-12);
    // Variants of one result share its runs: the floor is not theirs.
    RunResult both = a;
    both.benchmarks.front().params = {{"v", "x"}};
    BenchmarkResult y = b.benchmarks.front();
    y.name = "chain2";
    y.params = {{"v", "y"}};
    both.benchmarks.push_back(y);
    const Comparison within = compare_within(both, "v", "x", "y", options);
    EXPECT_EQ(within.options.between_run_floor, 0);
    EXPECT_EQ(within.benchmarks.at(0).metrics.at(0).between_run_sd, 0);
    // A count is not scaled by the machine's speed: no floor.
    const auto count = compare_samples("instructions", false, a.benchmarks[0].ns_per_item,
                                       b.benchmarks[0].ns_per_item, options);
    EXPECT_EQ(count.between_run_sd, 0);
}

}  // namespace
}  // namespace perfgauge::harness
