// compare --floor on a thousand seeded synthetic pairs of runs whose between-run noise is
// known: identical work is called different no more often than alpha allows and a change
// several times the floor is found. Statistical trials: they run in the release build
// (test/CMakeLists.txt, perfgauge_trials_tests); no time is measured here.
#include "perfgauge/harness/compare.hpp"

#include <gtest/gtest.h>

#include "floor_synthetic.hpp"

#include <cstdint>

namespace perfgauge::harness {
namespace {

using namespace floor_synthetic;

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

TEST(CompareFloorTrials, AaCalledRarelyAndTenPercentFoundAtAOnePercentFloor) {
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

TEST(CompareFloorTrials, AaStaysRareAtEveryFloorThatIsTrue) {
    // The floor given is the machine's true one, from quiet to noisy: A/A stays within alpha.
    for (const double floor : {0.002, 0.01, 0.05}) {
        Machine machine;
        machine.run_sd = run_sd_for_floor(floor);
        const Tally aa = compare_pairs(machine, 1.00, floor, 1000, 21);
        EXPECT_LE(aa.called, 50u) << "floor " << floor;
    }
}

}  // namespace
}  // namespace perfgauge::harness
