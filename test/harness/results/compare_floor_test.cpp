// Two separate runs compared with the machine's between-run floor (compare --floor): on seeded
// synthetic pairs of runs whose between-run noise is known, identical work is called different
// no more often than alpha allows and a change several times the floor is found, while the
// machine probes' drift - a proxy that jumps between runs without the work moving - no longer
// widens the times. No time is measured here.
#include "perfgauge/harness/compare.hpp"

#include <gtest/gtest.h>

#include "../../support/seeded_normal.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace perfgauge::harness {
namespace {

using Normal = test::SeededNormal;

// The machine's noise between two separate runs, known: each run's times scale by a factor
// exp(run_sd x N(0,1)), each sample by exp(sample_sd x N(0,1)); the probes mostly agree, but in
// a third of the runs jump by 5% either way while the work does not (as the chain probe's
// quantised readings do on this project's VMs).
struct Machine {
    double run_sd = 0;
    double sample_sd = 0.01;
    std::size_t samples = 30;
};

// The run_sd whose two runs' medians differ by `floor` in the median (|N(0, sqrt(2) sd)|).
double run_sd_for_floor(double floor) {
    return floor * kFloorToSd / std::numbers::sqrt2;
}

RunResult synthetic_run(Normal& normal, const Machine& machine, double factor) {
    RunResult r;
    r.kind = ResultKind::run;
    const double run_factor = std::exp(machine.run_sd * normal());
    BenchmarkResult b;
    b.name = "chain";
    for (std::size_t i = 0; i < machine.samples; ++i) {
        b.ns_per_item.push_back(1000 * factor * run_factor *
                                std::exp(machine.sample_sd * normal()));
        b.rounds.push_back(i);
    }
    b.raw_ns_per_item = b.ns_per_item;
    r.benchmarks.push_back(std::move(b));
    const double jump = normal.uniform() < 1.0 / 3 ? (normal.uniform() < 0.5 ? 0.95 : 1.05) : 1;
    r.machine_probe_ns = 4000 * jump;
    r.machine_copy_probe_ns = 1000;
    return r;
}

struct Tally {
    std::size_t called = 0, found = 0, trials = 0;
};

// `trials` pairs of runs: the contender's work `factor` times the baseline's.
Tally compare_pairs(const Machine& machine, double factor, double floor, std::size_t trials,
                    std::uint64_t seed) {
    Normal normal(seed);
    CompareOptions options;
    options.between_run_floor = floor;
    Tally t;
    for (std::size_t i = 0; i < trials; ++i) {
        const RunResult a = synthetic_run(normal, machine, 1);
        const RunResult b = synthetic_run(normal, machine, factor);
        // A copy: a reference into the temporary comparison would dangle (ASan caught it).
        const MetricComparison m = compare_results(a, b, options).benchmarks.at(0).metrics.at(0);
        ++t.trials;
        t.called += m.verdict == Verdict::lower || m.verdict == Verdict::higher;
        t.found += m.verdict == Verdict::higher;
    }
    return t;
}

TEST(CompareFloor, HalfWidthsAddInQuadrature) {
    EXPECT_DOUBLE_EQ(across_half_width(0.01, 0, 1.96), 0.01);
    EXPECT_NEAR(across_half_width(0.03, 0.02, 2), 0.05, 1e-15);
    EXPECT_NEAR(across_half_width(0, 0.01, 1.96), 0.0196, 1e-15);
    // The floor's median |difference| is 0.6745 standard deviations of a normal difference.
    EXPECT_NEAR(kFloorToSd * 0.6744897501960817, 1, 1e-15);
}

TEST(CompareFloor, AaCalledRarelyAndTenPercentFoundAtAOnePercentFloor) {
    Machine machine;
    machine.run_sd = run_sd_for_floor(0.01);
    const std::size_t kTrials = 1000;
    const Tally aa = compare_pairs(machine, 1.00, 0.01, kTrials, 9);
    const Tally ten = compare_pairs(machine, 1.10, 0.01, kTrials, 10);
    const Tally five = compare_pairs(machine, 1.05, 0.01, kTrials, 11);
    EXPECT_LE(aa.called, kTrials * 5 / 100) << aa.called << " of " << kTrials;
    EXPECT_GE(ten.found, kTrials * 95 / 100) << ten.found << " of " << kTrials;
    RecordProperty("aa_called", static_cast<int>(aa.called));
    RecordProperty("plus10_found", static_cast<int>(ten.found));
    RecordProperty("plus5_found", static_cast<int>(five.found));
    // Without the floor the same pairs lose most of the +10% to the probes' jumps...
    const Tally ten_bare = compare_pairs(machine, 1.10, 0, kTrials, 10);
    EXPECT_LT(ten_bare.found, ten.found);
    // ...and identical work, whose between-run noise nothing in one run shows, is called
    // different far more often than alpha (the blocks see no run's own factor).
    const Tally aa_bare = compare_pairs(machine, 1.00, 0, kTrials, 9);
    EXPECT_GT(aa_bare.called, aa.called);
    RecordProperty("aa_called_without_floor", static_cast<int>(aa_bare.called));
    RecordProperty("plus10_found_without_floor", static_cast<int>(ten_bare.found));
}

TEST(CompareFloor, AaStaysRareAtEveryFloorThatIsTrue) {
    // The floor given is the machine's true one, from quiet to noisy: A/A stays within alpha.
    for (const double floor : {0.002, 0.01, 0.05}) {
        Machine machine;
        machine.run_sd = run_sd_for_floor(floor);
        const Tally aa = compare_pairs(machine, 1.00, floor, 1000, 21);
        EXPECT_LE(aa.called, 50u) << "floor " << floor;
    }
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
