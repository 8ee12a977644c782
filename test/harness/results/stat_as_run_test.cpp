// Stat results in the result model, side-by-side labels and statuses, and the rule for which
// constant counts compare exactly.
#include <gtest/gtest.h>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/stat_as_run.hpp"

namespace perfgauge::harness {
namespace {

StatEventResult event(std::string name, EventSource source, std::vector<double> samples) {
    StatEventResult e;
    e.name = std::move(name);
    e.source = source;
    e.counted = true;
    e.samples = std::move(samples);
    return e;
}

StatResult command(std::vector<std::string> line, std::vector<double> elapsed) {
    StatResult s;
    s.command = std::move(line);
    s.repetitions = static_cast<int>(elapsed.size());
    s.elapsed_seconds = std::move(elapsed);
    return s;
}

TEST(SideBySide, RepeatedCommandLinesGetNumberedLabels) {
    EXPECT_EQ(side_by_side_labels({{"./a", "x"}, {"./b"}, {"./a", "x"}, {"./a", "x"}}),
              (std::vector<std::string>{"./a x", "./b", "./a x #2", "./a x #3"}));
    // A command line that reads like a generated name never shares it.
    EXPECT_EQ(side_by_side_labels({{"x"}, {"x"}, {"x", "#2"}}),
              (std::vector<std::string>{"x", "x #2", "x #2 #2"}));
    EXPECT_EQ(side_by_side_labels({{"x", "#2"}, {"x"}, {"x"}}),
              (std::vector<std::string>{"x #2", "x", "x #3"}));
}

TEST(SideBySide, CompleteRoundsAndExitStatusFollowTheFirstFailure) {
    SideBySideResult r;
    r.commands = {command({"a"}, {1, 1, 1}), command({"b"}, {1, 1})};
    EXPECT_EQ(r.complete_rounds(), 2u);
    EXPECT_EQ(r.exit_status(), 0);
    r.commands[1].exit.code = 3;
    r.failed_command = 1;
    EXPECT_EQ(r.exit_status(), 3);
    ExitStatus prepare;
    prepare.code = 4;
    r.failed_prepare = prepare;
    EXPECT_EQ(r.exit_status(), 4);
}

TEST(StatAsRun, OneBenchmarkPerCommandWithCpuTimeAndSimulatedCountsInEveryRun) {
    StatResult a = command({"./a"}, {0.5, 0.25});
    a.user_seconds = {0.25, 0.125};
    a.system_seconds = {0.25, 0.125};
    a.events = {event("instructions", EventSource::simulated, {1000}),
                event("page-faults", EventSource::software, {10, 12})};
    StatResult b = a;
    b.command = {"./b"};
    const RunResult r = stat_as_run_result({a, b}, {"./a", "./b"});
    EXPECT_EQ(r.kind, ResultKind::stat);
    ASSERT_EQ(r.benchmarks.size(), 2u);
    EXPECT_EQ(r.benchmarks[1].name, "./b");
    EXPECT_EQ(r.benchmarks[1].params.front(),
              std::make_pair(std::string(kCommandParam), std::string("./b")));
    EXPECT_EQ(r.benchmarks[0].ns_per_item, (std::vector<double>{0.5e9, 0.25e9}));
    EXPECT_EQ(r.benchmarks[0].cpu_ns_per_item, (std::vector<double>{0.5e9, 0.25e9}));
    // One simulated run: its count is every run's.
    EXPECT_EQ(r.benchmarks[0].counters_per_item[0], (std::vector<double>{1000, 1000}));
    EXPECT_EQ(r.benchmarks[0].counters_per_item[1], (std::vector<double>{10, 12}));
}

TEST(StatAsRun, AnEventOneCommandDidNotCountIsNotCountedAndSaysForWhich) {
    StatResult a = command({"./a"}, {1});
    a.events = {event("page-faults", EventSource::software, {10})};
    StatResult b = command({"./b"}, {1});
    b.events = {event("page-faults", EventSource::software, {})};
    b.events[0].counted = false;
    b.events[0].refusal = {"not counted", "no marked interval", "", {}};
    const RunResult r = stat_as_run_result({a, b}, {"./a", "./b"});
    EXPECT_FALSE(r.events[0].counted);
    EXPECT_EQ(r.events[0].refusal.reason, "for './b': no marked interval");
}

TEST(SideBySide, ComparisonsArePairedByRoundAndSkipACommandThatNeverRan) {
    SideBySideResult r;
    r.labels = {"a", "b", "c"};
    r.commands = {command({"a"}, {1, 2, 3, 4, 5, 6}),
                  command({"b"}, {1.25, 2.5, 3.75, 5, 6.25, 7.5}), command({"c"}, {})};
    const Comparison c = compare_side_by_side(r, CompareOptions{});
    ASSERT_EQ(c.benchmarks.size(), 1u);
    EXPECT_EQ(c.benchmarks[0].name, "b");
    const MetricComparison& time = c.benchmarks[0].metrics.front();
    EXPECT_EQ(time.method, Method::paired);
    // Every round 25% slower, however slow the round: the paired ratio is exactly 1.25 (0.25 of
    // the baseline's median, 3.5 s), though the samples overlap.
    EXPECT_TRUE(time.log_ratio_pairs);
    EXPECT_NEAR(time.shift, 0.25 * 3.5e9, 1);
    EXPECT_NEAR(time.ci_low, time.shift, 1);
    EXPECT_EQ(time.verdict, Verdict::higher);
    ASSERT_EQ(c.notes.size(), 1u);
    EXPECT_EQ(c.notes[0], "c: not compared: the rounds stopped before it ran");
}

TEST(Compare, OnlySimulatedOrAmplySampledConstantCountsAreExactAndTimesNever) {
    const CompareOptions o;
    // One run each: a time is too few samples, never "exact".
    EXPECT_EQ(compare_samples("time", true, {5}, {4}, o).verdict, Verdict::too_few_samples);
    EXPECT_EQ(compare_samples("time", true, {5, 5, 5, 5, 5}, {4, 4, 4, 4, 4}, o).method,
              Method::independent);
    // A constant hardware count from two runs proves nothing; from five it is what it is.
    EXPECT_EQ(compare_samples("instructions", false, {7, 7}, {9, 9}, o).verdict,
              Verdict::too_few_samples);
    EXPECT_EQ(compare_samples("instructions", false, {7, 7, 7, 7, 7}, {9, 9, 9, 9, 9}, o).method,
              Method::deterministic);
    // A simulated count (the caller says so) is exact from one run.
    const auto sim = compare_samples("instructions", false, {7}, {9}, o, Method::deterministic);
    EXPECT_EQ(sim.method, Method::deterministic);
    EXPECT_EQ(sim.verdict, Verdict::higher);
    EXPECT_FALSE(sim.p_value.has_value());
}

}  // namespace
}  // namespace perfgauge::harness
