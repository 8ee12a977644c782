// The verdicts on series whose truth is known exactly: a chain of k operations, the same chain
// again (A/A) and 1.1k of them (a known +10%), interleaved in one result's rounds as the runner
// takes them, with what a shared machine does to samples drawn from a seeded generator: a
// drift of the machine's speed that every variant of a round shares, bimodal phases (a
// frequency step for whole rounds), per-sample noise, and preempted samples that slipped
// through as outliers. compare pairs them by round. Whether this machine resolves 10% under
// real timing is `perfgauge selftest`'s question, not a test's: here every answer is fixed by
// the seed.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {
namespace {

struct Machine {
    double drift_per_round = 0.002;  ///< the speed moves steadily by this share a round...
    double phase_step = 0.04;        ///< ...and every 4 rounds steps by this much (bimodal)
    double noise = 0.01;             ///< each sample's own spread (lognormal sigma)
    double outlier_share = 0.05;     ///< preempted samples left in, each 1.3-2x slow
};

// `rounds` interleaved rounds of the three variants of a k = 2000 chain at 1 ns a step.
RunResult scenario(std::uint64_t seed, std::size_t rounds, const Machine& m) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0, m.noise);
    std::uniform_real_distribution<double> unit(0, 1);
    const std::vector<std::pair<std::string, double>> variants = {
        {"k", 2000}, {"k-again", 2000}, {"k+10%", 2200}};
    RunResult r;
    r.repetitions = rounds;
    for (const auto& [variant, ns] : variants) {
        BenchmarkResult b;
        b.name = "chain/" + variant;
        b.params = {{"workload", "chain"}, {"variant", variant}};
        b.iterations = 1000;
        r.benchmarks.push_back(b);
    }
    for (std::size_t round = 0; round < rounds; ++round) {
        const double speed = (1 + m.drift_per_round * static_cast<double>(round)) *
                             ((round / 4) % 2 == 0 ? 1 : 1 + m.phase_step);
        for (std::size_t v = 0; v < variants.size(); ++v) {
            double ns = variants[v].second * speed * std::exp(noise(rng));
            if (unit(rng) < m.outlier_share)
                ns *= 1.3 + 0.7 * unit(rng);
            auto& b = r.benchmarks[v];
            b.rounds.push_back(round);
            b.ns_per_item.push_back(ns);
            b.raw_ns_per_item.push_back(ns);
        }
    }
    return r;
}

TEST(VerdictScenario, AKnownTenPercentIsFoundAndNeverGetsAWrongAnswer) {
    // 50 seeded runs of 15 rounds. A run in which 4 of the 15 baseline samples were preempted
    // (seed 44) may honestly be inconclusive; none may say lower or equivalent.
    int found = 0, covered = 0;
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        const RunResult r = scenario(seed, 15, Machine{});
        const Comparison c = compare_within(r, "variant", "k", "k+10%", {});
        ASSERT_EQ(c.benchmarks.size(), 1u);
        const MetricComparison& time = c.benchmarks[0].metrics.at(0);
        EXPECT_EQ(time.method, Method::paired) << "seed " << seed;
        EXPECT_NE(time.verdict, Verdict::lower) << "seed " << seed;
        EXPECT_NE(time.verdict, Verdict::equivalent) << "seed " << seed;
        found += time.verdict == Verdict::higher;
        // The interval (of contender - baseline per item) holds the true +10% at about its
        // 95%: drift and phases cancel within a round.
        const double truth = 0.1 * time.baseline_median;
        covered += time.ci_low <= truth && truth <= time.ci_high;
    }
    EXPECT_GE(found, 45) << "of 50 runs found the +10%";
    EXPECT_GE(covered, 45) << "of 50 intervals held the true change";
}

TEST(VerdictScenario, IdenticalCodeIsRarelyCalledDifferent) {
    // A/A over 200 seeded runs: at the nominal 5% level, at most 5% called faster or slower.
    int called = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const RunResult r = scenario(seed, 15, Machine{});
        const Comparison c = compare_within(r, "variant", "k", "k-again", {});
        const Verdict v = c.benchmarks.at(0).metrics.at(0).verdict;
        called += v == Verdict::higher || v == Verdict::lower;
        EXPECT_NE(v, Verdict::too_few_samples) << "seed " << seed;
    }
    EXPECT_LE(called, 10) << "of 200 A/A comparisons";
    // On a quiet machine (0.2% noise, nothing preempted) the same code is shown equivalent
    // within the 1% threshold, whatever the drift and phases do between rounds.
    Machine quiet;
    quiet.noise = 0.002;
    quiet.outlier_share = 0;
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        const Comparison c =
            compare_within(scenario(seed, 15, quiet), "variant", "k", "k-again", {});
        EXPECT_EQ(c.benchmarks.at(0).metrics.at(0).verdict, Verdict::equivalent) << "seed " << seed;
    }
}

TEST(VerdictScenario, ANoisyMachineSaysInconclusiveNotAWrongAnswer) {
    // 20% noise per sample and a third of the samples preempted: 10% is not resolved from 15
    // rounds, and no run may call it lower or equivalent.
    Machine loud;
    loud.noise = 0.2;
    loud.outlier_share = 0.33;
    int inconclusive = 0;
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        const Comparison c = compare_within(scenario(seed, 15, loud), "variant", "k", "k+10%", {});
        const Verdict v = c.benchmarks.at(0).metrics.at(0).verdict;
        EXPECT_NE(v, Verdict::lower) << "seed " << seed;
        EXPECT_NE(v, Verdict::equivalent) << "seed " << seed;
        inconclusive += v == Verdict::inconclusive;
    }
    EXPECT_GE(inconclusive, 10) << "a loud machine widens the interval past 10% often";
}

}  // namespace
}  // namespace perfgauge::harness
