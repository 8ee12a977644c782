// perfgauge selftest's arithmetic on known answers: rates, the power search, the spread of
// medians, the verdict's wording, and the trials compared as the command compares them, on
// seeded synthetic runs whose differences are known exactly (no time measured here).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "../../support/seeded_normal.hpp"
#include "perfgauge/harness/selftest.hpp"
#include "perfgauge/harness/selftest_chain.hpp"
#include "perfgauge/harness/selftest_figures.hpp"
#include "perfgauge/harness/selftest_processes.hpp"

namespace perfgauge::harness {
namespace {

TEST(SelftestRate, ShareAndWilsonInterval) {
    const Rate none{};
    EXPECT_TRUE(std::isnan(none.share()));
    EXPECT_TRUE(std::isnan(none.low()));
    const Rate five{5, 100};
    EXPECT_DOUBLE_EQ(five.share(), 0.05);
    // The Wilson score interval of 5/100 at 95% (textbook value: 2.15% to 11.18%).
    EXPECT_NEAR(five.low(), 0.0215, 0.0001);
    EXPECT_NEAR(five.high(), 0.1118, 0.0001);
    const Rate all{20, 20};
    EXPECT_DOUBLE_EQ(all.high(), 1.0);
    EXPECT_NEAR(all.low(), 0.8389, 0.0001);  // 20 of 20 still allows a rate of 84%
}

TEST(SelftestRate, FalsePositivesAreCallsEitherWayDetectionsOnlySlower) {
    const std::vector<Verdict> v = {Verdict::lower,           Verdict::higher,
                                    Verdict::equivalent,      Verdict::inconclusive,
                                    Verdict::too_few_samples, Verdict::higher};
    const Rate fp = false_positive_rate(v);
    EXPECT_EQ(fp.hits, 3u);
    EXPECT_EQ(fp.trials, 6u);
    const Rate found = detection_rate(v);
    EXPECT_EQ(found.hits, 2u);  // "faster" for more work is a wrong answer, not a detection
    EXPECT_EQ(found.trials, 6u);
}

TEST(SelftestPower, SmallestChangeDetectedAtPowerWithEveryLargerOne) {
    const std::vector<PowerPoint> points = {
        {20, {20, 20}}, {2, {6, 20}}, {5, {19, 20}}, {10, {20, 20}}, {3, {18, 20}}};
    EXPECT_EQ(smallest_resolved_change(points, 0.95), 5.0);  // 19/20 = 95% reaches it, 18 not
    EXPECT_EQ(smallest_resolved_change(points, 0.9), 3.0);
    // A miss at a larger change makes a hit below it luck.
    const std::vector<PowerPoint> gap = {{5, {20, 20}}, {10, {17, 20}}, {20, {20, 20}}};
    EXPECT_EQ(smallest_resolved_change(gap, 0.95), 20.0);
    const std::vector<PowerPoint> missed = {{5, {20, 20}}, {50, {3, 20}}};
    EXPECT_FALSE(smallest_resolved_change(missed, 0.95));
    const std::vector<PowerPoint> untried = {{5, {0, 0}}};
    EXPECT_FALSE(smallest_resolved_change(untried, 0.95));
    EXPECT_FALSE(smallest_resolved_change({}, 0.95));
}

TEST(SelftestSpread, DistanceOfRatiosFromOne) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> ratios = {1.01, 0.98, 1.0, 1.03, nan};
    const Spread s = relative_spread(ratios);
    EXPECT_EQ(s.count, 4u);
    EXPECT_NEAR(s.median, 0.015, 1e-12);  // of 0, 0.01, 0.02, 0.03
    EXPECT_GE(s.p90, 0.02);
    EXPECT_LE(s.p90, 0.03 + 1e-12);
    const Spread empty = relative_spread({});
    EXPECT_EQ(empty.count, 0u);
    EXPECT_TRUE(std::isnan(empty.median));
}

TEST(SelftestVerdict, Wording) {
    const auto line = [](std::optional<double> in_turn, std::optional<double> across,
                         double too_few = 0) {
        const std::vector<VerdictPart> parts = {{in_turn, "measured in turn", true, "in turn"},
                                                {across, "across separate runs", true, "across"}};
        return verdict_line(parts, 50, too_few);
    };
    EXPECT_EQ(line(3.0, 15.0),
              "this machine resolves 3% changes measured in turn, 15% changes across separate "
              "runs");
    EXPECT_EQ(line(2.0, std::nullopt),
              "this machine resolves 2% changes measured in turn, no change up to 50% across "
              "separate runs");
    EXPECT_EQ(line(3.0, 15.0, 0.1), line(3.0, 15.0));  // at the limit
    EXPECT_EQ(line(std::nullopt, std::nullopt, 0.23),
              "this machine resolves no change up to 50% measured in turn, no change up to 50% "
              "across separate runs (busy: 23% of the trials kept too few clean samples)");
    const std::vector<VerdictPart> four = {{5.0, "a", true, "A"},
                                           {10.0, "b", true, "B"},
                                           {20.0, "c", true, "C"},
                                           {{}, "d", true, "D"}};
    EXPECT_EQ(verdict_line(four, 50),
              "this machine resolves 5% changes a, 10% changes b, 20% changes c, no change up to "
              "50% d");
    // A claim resting on fewer trials than a 95% rate needs says how many.
    const std::vector<VerdictPart> few = {{5.0, "in pairs", true, "run --against", 2},
                                          {{}, "side by side", true, "stat", 1},
                                          {3.0, "in turn", true, "in turn", 20}};
    EXPECT_EQ(verdict_line(few, 50),
              "this machine resolves 5% changes in pairs (from 2 trials, too few for a 95% rate), "
              "no change up to 50% side by side (from 1 trial, too few for a 95% rate), 3% "
              "changes in turn");
    // A way that made no trial resolves nothing: it is named as not measured.
    const std::vector<VerdictPart> some = {{{}, "measured in turn", false, "in turn"},
                                           {10.0, "b", true, "stat side by side"}};
    EXPECT_EQ(verdict_line(some, 50), "this machine resolves 10% changes b; not measured: in turn");
    const std::vector<VerdictPart> none = {{{}, "measured in turn", false, "in turn"},
                                           {{}, "across", false, "across separate runs"}};
    EXPECT_EQ(verdict_line(none, 50, 0.5), "nothing was measured: in turn, across separate runs");
    EXPECT_EQ(change_label(5), "+5%");
    EXPECT_EQ(change_label(2.5), "+2.5%");
}

TEST(SelftestPlan, DepthsGrow) {
    const auto quick = plan_for(SelftestDepth::quick);
    const auto standard = plan_for(SelftestDepth::standard);
    const auto thorough = plan_for(SelftestDepth::thorough);
    EXPECT_LT(quick.runs, standard.runs);
    EXPECT_LT(standard.runs, thorough.runs);
    EXPECT_GE(plan_for(SelftestDepth::tiny).runs, 2u);  // one trial across runs at least
    EXPECT_EQ(standard.changes_pct, (std::vector<double>{2, 3, 5, 10, 20, 50}));
    EXPECT_EQ(std::string(depth_name(SelftestDepth::thorough)), "thorough");
    const Benchmark b = chain_benchmark("+5%", 1050);
    EXPECT_EQ(b.name, "chain/+5%");
    ASSERT_EQ(b.params.size(), 1u);
    EXPECT_EQ(b.params[0].first, kWorkParam);
    EXPECT_EQ(b.params[0].second, "+5%");
    EXPECT_EQ(chain_benchmark("same", 10, "same").name, "same");
    // Trials across processes grow with the depth too; tiny's pairs are the fewest compare
    // pairs runs by.
    EXPECT_LT(quick.processes.side_by_side_trials, standard.processes.side_by_side_trials);
    EXPECT_LT(standard.processes.against_trials, thorough.processes.against_trials);
    EXPECT_EQ(plan_for(SelftestDepth::tiny).processes.against_pairs, kMinPairedRuns);
}

TEST(SelftestPlan, ChainLengthsKeepTheBasesDigits) {
    // The child processes' argv are of one length only if every chain's length has as many
    // digits as the base's (selftest_plan.hpp).
    for (const auto depth : {SelftestDepth::tiny, SelftestDepth::standard}) {
        const SelftestPlan plan = plan_for(depth);
        const auto digits = std::to_string(plan.base_operations).size();
        for (const double change : plan.changes_pct) {
            const auto operations = chain_operations(plan, change);
            EXPECT_EQ(std::to_string(operations).size(), digits) << change;
            EXPECT_NEAR(static_cast<double>(operations),
                        static_cast<double>(plan.base_operations) * (1 + change / 100), 0.5);
        }
    }
}

TEST(SelftestChain, RunsTheChainItsLengthAndIterationsSay) {
    // The chain's value follows x = x * m + k exactly: two runs of one length agree, and the
    // iterations chain on (x carries over), so 2 x 3 steps differ from 1 x 3.
    EXPECT_EQ(run_chain(3, 2), run_chain(3, 2));
    EXPECT_NE(run_chain(3, 2), run_chain(3, 1));
    EXPECT_EQ(run_chain(5, 0), 1u);
}

TEST(SelftestChildJob, RoundTripsAndRefusesWhatIsNotAJob) {
    ChainJob job;
    job.result_path = "/tmp/x y/r.json";
    job.chains = {{"chain/base", "base", 1000}, {"+5%", "+5%", 1050}};
    job.sampling.repetitions = 2;
    job.sampling.seed = 1u << 31;
    job.sampling.precision = 0.01;
    job.sampling.max_time_s = 0.0166;
    job.sampling.min_sample_time_s = 0.002;
    job.sampling.warmup_time_s = 0.02;
    const ChainJob back = chain_job_from_json(chain_job_to_json(job));
    EXPECT_EQ(back.result_path, job.result_path);
    ASSERT_EQ(back.chains.size(), 2u);
    EXPECT_EQ(back.chains[1].name, "+5%");
    EXPECT_EQ(back.chains[1].work, "+5%");
    EXPECT_EQ(back.chains[1].operations, 1050u);
    EXPECT_EQ(back.sampling.repetitions, job.sampling.repetitions);
    EXPECT_EQ(back.sampling.seed, job.sampling.seed);
    EXPECT_DOUBLE_EQ(back.sampling.max_time_s, job.sampling.max_time_s);
    EXPECT_DOUBLE_EQ(back.sampling.warmup_time_s, job.sampling.warmup_time_s);
    EXPECT_EQ(chain_job_to_json(back), chain_job_to_json(job));
    ChainJob unseeded = job;  // a seed left to the child's Runner stays unset
    unseeded.sampling.seed.reset();
    EXPECT_FALSE(chain_job_from_json(chain_job_to_json(unseeded)).sampling.seed.has_value());
    ChainJob plain;  // stat's: no result file, the chain `iterations` times
    plain.operations = 1000;
    plain.iterations = 20000;
    EXPECT_EQ(chain_job_from_json(chain_job_to_json(plain)).iterations, 20000u);
    for (const char* bad : {"", "{}", "[1]", "not json"})
        EXPECT_THROW(chain_job_from_json(bad), std::invalid_argument) << bad;
    plain.operations = 0;
    EXPECT_THROW(chain_job_from_json(chain_job_to_json(plain)), std::invalid_argument);
    ChainJob unnamed = job;
    unnamed.chains[0].name = "";
    EXPECT_THROW(chain_job_from_json(chain_job_to_json(unnamed)), std::invalid_argument);
    ChainJob no_chains = job;
    no_chains.chains.clear();
    EXPECT_THROW(chain_job_from_json(chain_job_to_json(no_chains)), std::invalid_argument);
}

TEST(SelftestChildJob, ARunsChainsAreBaseSameAndEachChange) {
    const SelftestPlan plan = plan_for(SelftestDepth::tiny);  // base 200, changes 5% and 50%
    const auto chains = run_chains(plan);
    ASSERT_EQ(chains.size(), 4u);
    EXPECT_EQ(chains[0].name, "chain/base");
    EXPECT_EQ(chains[1].work, kSameWork);
    EXPECT_EQ(chains[1].operations, 200u);
    EXPECT_EQ(chains[2].work, "+5%");
    EXPECT_EQ(chains[2].operations, 210u);
    EXPECT_EQ(chains[3].operations, 300u);
}

TEST(SelftestChildJob, IterationsLastTheTimeAsked) {
    EXPECT_EQ(iterations_lasting(0.02, 250.0, 1000), 80000u);  // 20 ms / 250 ns
    EXPECT_EQ(iterations_lasting(1e-9, 250.0, 1000), 1u);      // never none
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(iterations_lasting(0.001, nan, 1000), 1000u);  // 1 ns per operation assumed
    EXPECT_EQ(iterations_lasting(0.001, 0, 1000), 1000u);
}

// A comparison as compare_side_by_side and compare_results give one: a benchmark per name, time
// first.
Comparison comparison_of(const std::vector<std::pair<std::string, Verdict>>& verdicts) {
    Comparison c;
    for (const auto& [name, verdict] : verdicts) {
        BenchmarkComparison b;
        b.name = name;
        MetricComparison time;
        time.is_time = true;
        time.verdict = verdict;
        time.method = Method::paired;
        b.metrics.push_back(time);
        c.benchmarks.push_back(b);
    }
    return c;
}

TEST(SelftestTrials, ProcessTrialsFileEachVerdictUnderItsWork) {
    ComparisonTrials trials;
    trials.changes.resize(2);
    const std::vector<std::string> names = {"same", "+5%", "+50%"};
    add_trial(trials,
              comparison_of({{"+50%", Verdict::higher},
                             {"same", Verdict::equivalent},
                             {"+5%", Verdict::inconclusive}}),
              names);
    // The second trial's +5% never ran (its rounds stopped): it adds nothing there.
    add_trial(trials, comparison_of({{"same", Verdict::lower}, {"+50%", Verdict::higher}}), names);
    EXPECT_EQ(trials.aa, (std::vector<Verdict>{Verdict::equivalent, Verdict::lower}));
    EXPECT_EQ(trials.changes[0], (std::vector<Verdict>{Verdict::inconclusive}));
    EXPECT_EQ(trials.changes[1], (std::vector<Verdict>{Verdict::higher, Verdict::higher}));
    EXPECT_EQ(trials.methods, (std::vector<std::string>{method_name(Method::paired)}));
    // A benchmark whose first row is not a time is not a time verdict.
    Comparison counts = comparison_of({{"same", Verdict::higher}});
    counts.benchmarks[0].metrics[0].is_time = false;
    add_trial(trials, counts, names);
    EXPECT_EQ(trials.aa.size(), 2u);
}

TEST(SelftestProcesses, AChildThatFailsEndsTheTrialsAndSaysWhy) {
    // /bin/false as every child: the first trial of each way stops, nothing is called.
    SelftestPlan plan = plan_for(SelftestDepth::tiny);
    const ChainArgv fails = [](const ChainJob&) { return std::vector<std::string>{"/bin/false"}; };
    const ProcessTrials side = side_by_side_trials(plan, 1, fails);
    EXPECT_NE(side.failure.find("trial 1 of 1"), std::string::npos) << side.failure;
    EXPECT_NE(side.failure.find("exit"), std::string::npos) << side.failure;
    EXPECT_TRUE(side.trials.aa.empty());
    const SeparateRuns runs = measure_separate_runs(plan, fails);
    EXPECT_EQ(runs.failure.find("run 1 of 2: its process exit"), 0u) << runs.failure;
    EXPECT_TRUE(runs.runs.empty());
    const ProcessTrials against = against_trials(plan, fails);
    EXPECT_NE(against.failure.find("trial 1 of 1"), std::string::npos) << against.failure;
    EXPECT_TRUE(against.trials.aa.empty());
    ASSERT_EQ(against.trials.changes.size(), plan.changes_pct.size());
}

// Seeded synthetic runs of the selftest's benchmarks: each sample of `work` is
// base_ns x (1 + change) x the run's own factor x noise, noise log-normal with `noise` sigma
// (Box-Muller on mt19937_64, so the series is the same with any standard library).
struct Synthetic {
    double noise = 0.002;
    double run_sigma = 0;  ///< each run's factor: log-normal with this sigma (drift between runs)
    std::size_t samples = 15;
};

using Normal = test::SeededNormal;

std::vector<RunResult> synthetic_runs(std::size_t count, std::span<const double> changes,
                                      const Synthetic& how, std::uint64_t seed) {
    Normal normal(seed);
    std::vector<std::string> works = {kBaseWork, kSameWork};
    std::vector<double> factors = {1, 1};
    for (const double c : changes) {
        works.push_back(change_label(c));
        factors.push_back(1 + c / 100);
    }
    std::vector<RunResult> runs;
    for (std::size_t r = 0; r < count; ++r) {
        RunResult run;
        run.date = "2026-11-27T12:00:" + std::to_string(10 + r) + ".000+0000";
        const double run_factor = std::exp(how.run_sigma * normal());
        for (std::size_t w = 0; w < works.size(); ++w) {
            BenchmarkResult b;
            b.name = "chain/" + works[w];
            b.params = {{kWorkParam, works[w]}};
            for (std::size_t i = 0; i < how.samples; ++i) {
                b.ns_per_item.push_back(1000 * factors[w] * run_factor *
                                        std::exp(how.noise * normal()));
                b.rounds.push_back(i);
            }
            b.raw_ns_per_item = b.ns_per_item;
            run.benchmarks.push_back(std::move(b));
        }
        runs.push_back(std::move(run));
    }
    return runs;
}

const std::vector<double> kChanges = {2, 3, 5, 10, 20, 50};

TEST(SelftestTrials, QuietMachineResolvesTwoPercentBothWays) {
    const auto runs = synthetic_runs(20, kChanges, {}, 1);
    const TrialEvidence e = compare_trials(runs, kChanges);
    ASSERT_EQ(e.in_turn.aa.size(), 20u);
    ASSERT_EQ(e.across.aa.size(), 10u);
    EXPECT_EQ(e.within_run_ratios.size(), 20u);
    EXPECT_EQ(e.between_run_ratios.size(), 10u);
    EXPECT_EQ(e.in_turn.methods, std::vector<std::string>{"paired"});
    EXPECT_EQ(e.across.methods, std::vector<std::string>{"independent"});
    const auto in_turn = resolution(e.in_turn, kChanges);
    const auto across = resolution(e.across, kChanges);
    // 0.2% noise against compare's 1% threshold: identical work is never called, 2% always.
    EXPECT_EQ(in_turn.false_positives.hits, 0u);
    EXPECT_EQ(across.false_positives.hits, 0u);
    EXPECT_EQ(in_turn.smallest_change_pct, 2.0);
    EXPECT_EQ(across.smallest_change_pct, 2.0);
    EXPECT_LT(relative_spread(e.within_run_ratios).p90, 0.005);
}

TEST(SelftestTrials, DriftBetweenRunsCancelsInTurnOnly) {
    // Every run 5% faster or slower as a whole (sigma): pairs within a run do not see it,
    // comparisons of separate runs do.
    Synthetic how;
    how.run_sigma = 0.05;
    const auto runs = synthetic_runs(40, kChanges, how, 7);
    const TrialEvidence e = compare_trials(runs, kChanges);
    const auto in_turn = resolution(e.in_turn, kChanges);
    const auto bare = resolution(e.across_without_floor, kChanges);
    const auto across = resolution(e.across, kChanges);
    EXPECT_EQ(in_turn.false_positives.hits, 0u);
    EXPECT_EQ(in_turn.smallest_change_pct, 2.0);
    // Across runs, identical work differs by the runs' factors, which no run shows: compared
    // bare, it is called different often, and small changes drown in them.
    EXPECT_GT(bare.false_positives.share(), 0.3) << bare.false_positives.hits;
    EXPECT_TRUE(!bare.smallest_change_pct || *bare.smallest_change_pct >= 10)
        << *bare.smallest_change_pct;
    // With the floor the other trials measured, the intervals hold the runs' factors: identical
    // work is called far less often - not never: a floor estimated from 19 other trials is
    // itself noisy, which lets through about 5.7% at this noise (a simulation of the median of
    // 19 |N(0, 7.1%)| against one more: 5.65%; 3.8% with 199 others), 3 of these 20 - and only
    // changes far beyond a 5% noise are found.
    EXPECT_LE(across.false_positives.hits, 3u);
    EXPECT_LT(2 * across.false_positives.hits, bare.false_positives.hits);
    EXPECT_TRUE(!across.smallest_change_pct || *across.smallest_change_pct >= 20)
        << *across.smallest_change_pct;
    EXPECT_GT(relative_spread(e.between_run_ratios).median, 0.01);
    EXPECT_LT(relative_spread(e.within_run_ratios).median, 0.005);
}

TEST(SelftestTrials, AcrossRunsTheFloorFindsTenPercentAtAOnePercentFloor) {
    // Each run's factor log-normal with sigma 1.05%: two runs' medians move 1% apart in the
    // median (|N(0, 1.48%)|), the floor of a quiet VM. 200 trials across runs, seeded.
    Synthetic how;
    how.run_sigma = 0.0105;
    how.noise = 0.005;
    const auto runs = synthetic_runs(400, kChanges, how, 17);
    const TrialEvidence e = compare_trials(runs, kChanges);
    const Spread floor = relative_spread(e.between_run_ratios);
    EXPECT_GT(floor.median, 0.008);
    EXPECT_LT(floor.median, 0.012);
    ASSERT_EQ(e.across_floors.size(), 200u);
    for (const double f : e.across_floors)  // each the other 199 trials' floor
        EXPECT_NEAR(f, floor.median, 0.001);
    const auto across = resolution(e.across, kChanges);
    const auto bare = resolution(e.across_without_floor, kChanges);
    EXPECT_LE(across.false_positives.share(), 0.05) << across.false_positives.hits;
    ASSERT_EQ(across.power[3].change_pct, 10);
    EXPECT_GE(across.power[3].detected.share(), 0.95) << across.power[3].detected.hits;
    EXPECT_LE(across.smallest_change_pct.value_or(100), 10);
    // Bare, nothing in a run shows its own factor (no probes here): identical work is called
    // different well beyond 5%.
    EXPECT_GT(bare.false_positives.share(), 0.05) << bare.false_positives.hits;
}

TEST(SelftestTrials, FloorLeavesTheTrialOutAndNeedsFiveOthers) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> ratios = {1.5, 1.01, 0.98, nan, 1.02, 0.99, 1.03};
    // Without trial 0 (its own 50%): the others' |r - 1| are 0.01 0.02 0.02 0.01 0.03.
    EXPECT_NEAR(floor_without(ratios, 0), 0.02, 1e-12);
    // Without trial 1, only four others with a ratio besides trial 0's... five with it.
    EXPECT_NEAR(floor_without(ratios, 1), 0.02, 1e-12);
    const std::vector<double> few = {1.01, 1.02, 1.03, 1.04, 1.05};
    EXPECT_EQ(floor_without(few, 2), 0);  // four others: no floor
}

TEST(SelftestTrials, BenchmarkWithoutCleanSampleFindsNothingAndDisturbedAreCounted) {
    auto runs = synthetic_runs(4, kChanges, {}, 3);
    // Run 1's +5% kept no clean sample: every one disturbed.
    for (auto& b : runs[1].benchmarks) {
        if (b.name == "chain/+5%") {
            for (std::size_t i = 0; i < b.ns_per_item.size(); ++i)
                b.disturbed.push_back({i, b.ns_per_item[i], 0, 0, 1, 1, 0});
            b.ns_per_item.clear();
            b.raw_ns_per_item.clear();
            b.rounds.clear();
        }
    }
    // Run 2's A/A twin kept none either.
    for (auto& b : runs[2].benchmarks) {
        if (b.name == "chain/same") {
            b.ns_per_item.clear();
            b.raw_ns_per_item.clear();
            b.rounds.clear();
        }
    }
    const TrialEvidence e = compare_trials(runs, kChanges);
    EXPECT_EQ(e.in_turn.aa.size(), 4u);
    EXPECT_EQ(e.within_run_ratios.size(), 3u);  // not run 2's: no median to compare
    // Still a trial, as a user would get it: too few samples, nothing found.
    ASSERT_EQ(e.in_turn.changes[2].size(), 4u);
    EXPECT_EQ(e.in_turn.changes[2][1], Verdict::too_few_samples);
    EXPECT_EQ(detection_rate(e.in_turn.changes[2]).hits, 3u);
    ASSERT_EQ(e.across.changes[2].size(), 2u);  // pairs (0, 1) and (2, 3)
    EXPECT_EQ(e.across.changes[2][0], Verdict::too_few_samples);
    EXPECT_EQ(detection_rate(e.across.changes[2]).hits, 1u);
    EXPECT_EQ(detection_rate(e.in_turn.changes[3]).hits, 4u);
    const auto in_turn = resolution(e.in_turn, kChanges);
    EXPECT_EQ(in_turn.too_few_samples.trials, 4u * 7u);  // A/A and six changes, four runs
    EXPECT_EQ(in_turn.too_few_samples.hits, 2u);         // +5% in run 1, A/A in run 2
    // Across, run 2 gives only its base (against run 3): +5% of pair (0, 1) alone.
    EXPECT_EQ(resolution(e.across, kChanges).too_few_samples.hits, 1u);
    EXPECT_EQ(e.disturbed, 15u);
    EXPECT_EQ(e.samples, 4u * 8u * 15u - 15u);  // run 2's A/A twin: none kept
}

TEST(SelftestTrials, SummaryOfEvidence) {
    const auto runs = synthetic_runs(20, kChanges, {}, 11);
    SelftestReport report;
    report.plan = plan_for(SelftestDepth::standard);
    report.evidence = compare_trials(runs, report.plan.changes_pct);
    summarize_evidence(report);
    EXPECT_EQ(report.verdict,
              "this machine resolves 2% changes measured in turn, 2% changes across separate "
              "runs with compare --floor 0.09 (from 10 trials, too few for a 95% rate); not "
              "measured: stat side by side, "
              "run --against");
    EXPECT_EQ(report.disturbed.hits, 0u);
    EXPECT_EQ(report.disturbed.trials, 20u * 8u * 15u);
    EXPECT_EQ(report.within_run.count, 20u);
    // Ways across processes planned but without a trial are not measured: never "no change".
    EXPECT_EQ(
        report.not_measured,
        (std::vector<std::string>{"stat side by side and run --against: no trial completed"}));
    EXPECT_TRUE(report.not_covered.empty());  // nothing measured in part

    // With trials across processes (here the in-turn evidence again, standing in for them),
    // the verdict names those ways too; one that stopped early says why.
    report.side_by_side.measured.trials = report.evidence.in_turn;
    report.against.measured.trials = report.evidence.in_turn;
    report.against.measured.failure = "trial 3 of 6: a child failed";
    summarize_evidence(report);
    EXPECT_TRUE(report.not_measured.empty());
    EXPECT_EQ(report.verdict,
              "this machine resolves 2% changes measured in turn, 2% changes across separate "
              "runs with compare --floor 0.09 (from 10 trials, too few for a 95% rate), 2% changes "
              "side by side in "
              "processes (stat), 2% changes in pairs of processes (run --against)");
    report.runs_failure = "run 7 of 40: its process exited with 1";
    summarize_evidence(report);
    ASSERT_EQ(report.not_covered.size(), 2u);
    EXPECT_EQ(report.not_covered[0],
              "the separate runs stopped early: run 7 of 40: its process exited with 1");
    EXPECT_EQ(report.not_covered[1], "run --against stopped early: trial 3 of 6: a child failed");
}

TEST(SelftestTrials, WaysWithoutATrialAreNotMeasuredAndSayWhy) {
    SelftestReport report;
    report.plan = plan_for(SelftestDepth::standard);
    report.evidence = compare_trials({}, report.plan.changes_pct);
    report.runs_failure = "run 1 of 40: its process exited with 1";
    report.side_by_side.measured.trials.changes.resize(report.plan.changes_pct.size());
    report.side_by_side.measured.failure = "trial 1 of 6: a chain process exited with 1";
    report.against.measured.trials = report.side_by_side.measured.trials;
    report.against.measured.failure = "trial 1 of 2: cannot create a directory";
    summarize_evidence(report);
    EXPECT_EQ(report.verdict,
              "nothing was measured: in turn, across separate runs, stat side by side, run "
              "--against");
    EXPECT_EQ(report.not_measured,
              (std::vector<std::string>{
                  "in turn and across separate runs: the separate runs: run 1 of 40: its "
                  "process exited with 1",
                  "stat side by side: trial 1 of 6: a chain process exited with 1",
                  "run --against: trial 1 of 2: cannot create a directory"}));
    EXPECT_TRUE(report.not_covered.empty()) << "said once, as not measured";
    // At --quick, run --against is not planned: not covered, as before, and not "not measured".
    report.plan = plan_for(SelftestDepth::quick);
    summarize_evidence(report);
    EXPECT_EQ(report.not_measured.size(), 2u);
    EXPECT_EQ(report.verdict,
              "nothing was measured: in turn, across separate runs, stat side by side");
}

TEST(SelftestProcesses, ARunThatCannotMakeItsScratchDirectoryMeasuresNothing) {
    const char* saved = std::getenv("TMPDIR");
    const std::string before = saved ? saved : "";
    ::setenv("TMPDIR", "/nonexistent-perfgauge-tmpdir", 1);
    const SeparateRuns runs = measure_separate_runs(
        plan_for(SelftestDepth::tiny),
        [](const ChainJob&) { return std::vector<std::string>{"/bin/true"}; });
    saved ? ::setenv("TMPDIR", before.c_str(), 1) : ::unsetenv("TMPDIR");
    EXPECT_TRUE(runs.runs.empty());
    EXPECT_NE(runs.failure.find("cannot create a directory for the separate runs' results in "
                                "/nonexistent-perfgauge-tmpdir ($TMPDIR)"),
              std::string::npos)
        << runs.failure;
}

}  // namespace
}  // namespace perfgauge::harness
