// Reading perfgauge stat's and Google Benchmark's JSON into the result model, comparing them,
// and refusing to compare results of different kinds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/stat_report.hpp"

namespace perfgauge::harness {
namespace {

StatEventResult stat_event(const std::string& name, std::vector<double> samples,
                           const std::string& unit = "") {
    StatEventResult e;
    e.name = name;
    e.kind = pmu::EventKind::software;
    e.source = EventSource::software;
    e.samples = std::move(samples);
    e.unit = unit;
    return e;
}

// What perfgauge stat -r 5 -e task-clock,page-faults,cycles writes on a machine without a PMU.
StatResult stat_of(std::vector<std::string> command, double faults) {
    StatResult r;
    r.command = std::move(command);
    r.repetitions = 5;
    r.elapsed_seconds = {0.010, 0.011, 0.012, 0.010, 0.013};
    r.events.push_back(stat_event("task-clock", {9e6, 9.5e6, 1e7, 9e6, 1.1e7}, "ns"));
    r.events.push_back(stat_event("page-faults", {faults, faults + 1, faults, faults + 2, faults}));
    StatEventResult cycles;
    cycles.name = "cycles";
    cycles.kind = pmu::EventKind::hardware;
    cycles.source = EventSource::hardware;
    cycles.counted = false;
    cycles.refusal = {"not supported", "no PMU", "simulate"};
    r.events.push_back(cycles);
    return r;
}

std::string stat_json(std::vector<std::string> command, double faults) {
    return render_stat(stat_of(std::move(command), faults), OutputFormat::json);
}

std::string error_of(const std::function<void()>& read) {
    try {
        read();
        return "";
    } catch (const ResultFileError& e) {
        return e.what();
    }
}

TEST(StatResultFile, EachRunIsASampleOfOneBenchmarkNamedAfterTheCommand) {
    const RunResult r = parse_stat_json(stat_json({"./branchy", "data"}, 100), "a.json");
    EXPECT_EQ(r.kind, ResultKind::stat);
    ASSERT_EQ(r.benchmarks.size(), 1u);
    const auto& b = r.benchmarks[0];
    EXPECT_EQ(b.name, "./branchy data");
    ASSERT_EQ(b.ns_per_item.size(), 5u);
    EXPECT_DOUBLE_EQ(b.ns_per_item[1], 0.011e9);  // elapsed per run, in ns
    ASSERT_EQ(r.events.size(), 3u);
    EXPECT_EQ(r.events[1].name, "page-faults");
    EXPECT_EQ(r.events[1].source, EventSource::software);
    EXPECT_EQ(b.counters_per_item[1], (std::vector<double>{100, 101, 100, 102, 100}));
    EXPECT_FALSE(r.events[2].counted);
    EXPECT_EQ(r.events[2].refusal.status, "not supported");
    EXPECT_EQ(r.events[2].refusal.reason, "no PMU");
    EXPECT_EQ(b.counters_per_item[2], std::vector<double>(5, 0.0));
    EXPECT_EQ(r.repetitions, 5u);
    // The same through the dispatch that compare and export use.
    EXPECT_EQ(parse_result_json(stat_json({"true"}, 1), "a.json").kind, ResultKind::stat);
}

TEST(StatResultFile, AnExecFailureKeepsItsReasonWhenReadBack) {
    // The errno is written only as its description; reading it back must not say "Success".
    auto s = stat_of({"./missing"}, 1);
    s.exit.exec_failed = true;
    s.exit.exec_error = ENOENT;
    const RunResult r = parse_stat_json(render_stat(s, OutputFormat::json), "a.json");
    const auto has = [&](const std::string& text) {
        return std::any_of(r.warnings.begin(), r.warnings.end(),
                           [&](const std::string& w) { return w.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(has("could not be executed: No such file or directory"));
    EXPECT_FALSE(has("Success"));
    // An unknown description (another libc's wording) keeps the fact, not a wrong reason.
    ExitStatus unknown;
    unknown.exec_failed = true;
    EXPECT_EQ(unknown.describe(), "could not be executed");
}

TEST(ExitStatusOf, ExitedWithIsAnExitOfThatCodeOnly) {
    EXPECT_TRUE(ExitStatus{}.exited_with(0));
    EXPECT_TRUE((ExitStatus{false, 0, false, 2, false}.exited_with(2)));
    EXPECT_FALSE((ExitStatus{false, 0, false, 2, false}.exited_with(0)));
    // Killed by signal 2 is no exit with 2; a command that never started exited with nothing.
    EXPECT_FALSE((ExitStatus{false, 0, true, 2, false}.exited_with(2)));
    EXPECT_FALSE((ExitStatus{true, ENOENT, false, 0, false}.exited_with(0)));
}

TEST(StatResultFile, RefusesValuesNoRunProduces) {
    const auto with = [](const std::function<void(nlohmann::json&)>& change) {
        auto j = nlohmann::json::parse(stat_json({"true"}, 100));
        change(j);
        return error_of([&] { parse_result_json(j.dump(), "s.json"); });
    };
    EXPECT_EQ(with([](nlohmann::json&) {}), "");
    EXPECT_EQ(with([](auto& j) { j["elapsed_seconds"][2] = -0.5; }),
              "s.json: impossible value in a perfgauge stat result: run 2: elapsed_seconds is "
              "-0.5; refusing to use the file");
    EXPECT_NE(with([](auto& j) { j["events"][1]["samples"][0] = -3; })
                  .find("s.json: impossible value in a perfgauge stat result: run 0: page-faults "
                        "is -3"),
              std::string::npos);
    EXPECT_NE(with([](auto& j) {
                  j["events"][0]["running_fraction"] = 1.5;
              }).find("task-clock: running_fraction is 1.5"),
              std::string::npos);
    EXPECT_NE(with([](auto& j) { j["events"][1]["samples"].erase(0); })
                  .find("s.json: malformed perfgauge stat result: event 'page-faults' has 4 "
                        "samples for 5 runs"),
              std::string::npos);
    EXPECT_NE(with([](auto& j) { j["events"][1]["samples"][0] = "x"; }).find("not a number"),
              std::string::npos);
}

// Google Benchmark 1.7's JSON as perfgauge-bench-varint --perfgauge_events=page-faults
// --benchmark_repetitions=3 writes it: the all-zero counter's cv is a bare NaN.
const char* kGbench = R"({
  "context": {"date": "2026-11-23T17:00:00+00:00", "host_name": "vm", "executable": "bench",
              "num_cpus": 2, "library_build_type": "release"},
  "benchmarks": [
    {"name": "BM_a", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_a",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 0, "threads": 1,
     "iterations": 1000, "real_time": 1.5, "cpu_time": 1.4, "time_unit": "us",
     "PAGE-FAULTS": 0.0, "items_per_second": 6.6e5, "label": "NaN here is text"},
    {"name": "BM_a", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_a",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 1, "threads": 1,
     "iterations": 1000, "real_time": 1.6, "cpu_time": 1.5, "time_unit": "us",
     "PAGE-FAULTS": 0.0, "items_per_second": 6.2e5},
    {"name": "BM_a", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_a",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 2, "threads": 1,
     "iterations": 1000, "real_time": 1.7, "cpu_time": 1.6, "time_unit": "us",
     "PAGE-FAULTS": 0.0, "items_per_second": 5.9e5},
    {"name": "BM_a_mean", "run_name": "BM_a", "run_type": "aggregate", "aggregate_name": "mean",
     "aggregate_unit": "time", "iterations": 3, "real_time": 1.6, "cpu_time": 1.5,
     "time_unit": "us", "PAGE-FAULTS": 0.0},
    {"name": "BM_a_cv", "run_name": "BM_a", "run_type": "aggregate", "aggregate_name": "cv",
     "aggregate_unit": "percentage", "iterations": 3, "real_time": 0.06, "cpu_time": 0.06,
     "time_unit": "us", "PAGE-FAULTS": NaN, "items_per_second": Infinity},
    {"name": "BM_broken", "run_name": "BM_broken", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 0, "threads": 1, "error_occurred": true,
     "error_message": "disagrees with the reference decoder", "iterations": 0,
     "real_time": 0, "cpu_time": 0, "time_unit": "ns"}
  ]
})";

TEST(GbenchResultFile, NonFiniteTokensAreQuotedOutsideStringsOnly) {
    EXPECT_EQ(quote_non_finite_tokens(R"({"a": NaN, "b": [-Infinity, Infinity, -NaN]})"),
              R"({"a": "NaN", "b": ["-Infinity", "Infinity", "-NaN"]})");
    EXPECT_EQ(quote_non_finite_tokens(R"({"NaN": "x \"NaN\" Infinity", "c": 1e3})"),
              R"({"NaN": "x \"NaN\" Infinity", "c": 1e3})");
    EXPECT_EQ(quote_non_finite_tokens(R"(["a\\", NaN])"), R"(["a\\", "NaN"])");
}

TEST(GbenchResultFile, IterationsAreSamplesAggregatesAreIgnored) {
    const RunResult r = parse_result_json(kGbench, "gb.json");
    EXPECT_EQ(r.kind, ResultKind::google_benchmark);
    ASSERT_EQ(r.benchmarks.size(), 1u) << "BM_broken has no sample";
    const auto& b = r.benchmarks[0];
    EXPECT_EQ(b.name, "BM_a");
    EXPECT_EQ(b.iterations, 1000u);
    ASSERT_EQ(b.ns_per_item.size(), 3u);       // the aggregates are not samples
    EXPECT_DOUBLE_EQ(b.ns_per_item[2], 1700);  // 1.7 us per iteration
    EXPECT_DOUBLE_EQ(b.cpu_ns_per_item[0], 1400);
    // The user counter, as reported; items_per_second restates the time and is left out.
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].name, "PAGE-FAULTS");
    EXPECT_EQ(r.events[0].source, EventSource::reported);
    EXPECT_EQ(b.counters_per_item[0], std::vector<double>(3, 0.0));
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0],
              "BM_broken: left out: Google Benchmark reported disagrees with the reference "
              "decoder");
    EXPECT_EQ(parse_gbench_json(kGbench, "gb.json").benchmarks[0].ns_per_item, b.ns_per_item);
}

TEST(GbenchResultFile, RefusesNonFiniteAndNegativeSamples) {
    const auto with = [](const std::string& from, const std::string& to) {
        std::string text = kGbench;
        text.replace(text.find(from), from.size(), to);
        return error_of([&] { parse_result_json(text, "gb.json"); });
    };
    EXPECT_EQ(with(R"("real_time": 1.6,)", R"("real_time": -1.6,)"),
              "gb.json: impossible value in a Google Benchmark result: 'BM_a' sample 1: "
              "real_time is -1.6; refusing to use the file");
    EXPECT_EQ(with(R"("PAGE-FAULTS": 0.0, "items_per_second": 6.2e5)",
                   R"("PAGE-FAULTS": NaN, "items_per_second": 6.2e5)"),
              "gb.json: impossible value in a Google Benchmark result: 'BM_a' sample 1: "
              "PAGE-FAULTS is NaN; refusing to use the file");
    // A user counter may be negative (whatever the benchmark computes).
    EXPECT_EQ(with(R"("PAGE-FAULTS": 0.0, "items_per_second": 6.2e5)",
                   R"("PAGE-FAULTS": -2, "items_per_second": 6.2e5)"),
              "");
    EXPECT_NE(with(R"("cpu_time": 1.5, "time_unit": "us")",
                   R"("cpu_time": 1.5, "time_unit": "fortnights")")
                  .find("'BM_a' sample 1: time_unit: unknown time_unit 'fortnights'"),
              std::string::npos);
    // Not JSON even with Google Benchmark's words read: still "not JSON".
    EXPECT_NE(error_of([] { parse_result_json("{NaN", "x.json"); }).find("x.json: not JSON"),
              std::string::npos);
    EXPECT_NE(error_of([] {
                  parse_result_json(R"({"a": 1})", "x.json");
              }).find("x.json: not a benchmark result"),
              std::string::npos);
}

TEST(CompareKinds, TwoStatResultsCompareTheirCommandsPerRun) {
    const RunResult a = parse_result_json(stat_json({"./branchy", "d"}, 100), "a.json");
    const RunResult b = parse_result_json(stat_json({"./branchless", "d"}, 3000), "b.json");
    const Comparison c = compare_results(a, b, CompareOptions{});
    ASSERT_EQ(c.benchmarks.size(), 1u);
    EXPECT_EQ(c.benchmarks[0].name, "./branchy d vs ./branchless d");
    ASSERT_EQ(c.benchmarks[0].metrics.size(), 3u);  // time, task-clock, page-faults; not cycles
    const auto& time = c.benchmarks[0].metrics[0];
    EXPECT_TRUE(time.is_time);
    EXPECT_EQ(time.per, "run");
    EXPECT_DOUBLE_EQ(time.baseline_median, 0.011e9);
    const auto& faults = c.benchmarks[0].metrics[2];
    EXPECT_EQ(faults.metric, "page-faults");
    EXPECT_EQ(faults.verdict, Verdict::higher);
    const std::string table = render_comparison(c, OutputFormat::table);
    EXPECT_NE(table.find("time/run"), std::string::npos) << table;
    EXPECT_NE(table.find("page-faults/run [sw]"), std::string::npos) << table;
    EXPECT_NE(table.find("cycles: not counted on either side (not supported: no PMU), not "
                         "compared"),
              std::string::npos)
        << table;
    // Counted on one side only: which one, and why the other did not.
    RunResult counted = a;
    counted.events[2].counted = true;
    counted.events[2].refusal = {};
    const std::string one_side =
        render_comparison(compare_results(b, counted, CompareOptions{}), OutputFormat::table);
    EXPECT_NE(one_side.find("cycles: not counted in the baseline (not supported: no PMU), not "
                            "compared"),
              std::string::npos)
        << one_side;
    EXPECT_NE(render_comparison(c, OutputFormat::json).find("\"ns_per_run\""), std::string::npos);
}

TEST(CompareKinds, GoogleBenchmarkCountersAreComparedAsReported) {
    const RunResult a = parse_result_json(kGbench, "gb1.json");
    std::string text = kGbench;
    for (std::size_t at; (at = text.find("\"PAGE-FAULTS\": 0.0")) != std::string::npos;)
        text.replace(at, 18, "\"PAGE-FAULTS\": 2.0");
    const RunResult b = parse_result_json(text, "gb2.json");
    CompareOptions three;
    three.min_samples = 3;
    const Comparison c = compare_results(a, b, three);
    ASSERT_EQ(c.benchmarks.size(), 1u);
    ASSERT_EQ(c.benchmarks[0].metrics.size(), 3u) << "time, cpu-time, PAGE-FAULTS";
    const auto& faults = c.benchmarks[0].metrics[2];
    EXPECT_EQ(faults.per, "iteration");
    EXPECT_EQ(faults.source, EventSource::reported);
    EXPECT_EQ(faults.method, Method::deterministic);
    EXPECT_EQ(faults.verdict, Verdict::higher);
    EXPECT_NE(render_comparison(c, OutputFormat::table).find("PAGE-FAULTS/iteration [user]"),
              std::string::npos);
}

TEST(CompareKinds, GoogleBenchmarkCpuTimeIsComparedBesideRealTime) {
    // Google Benchmark records real_time and cpu_time per repetition (its compare.py reports
    // both): real time stays `time`, cpu_time is a row of its own, in every format.
    const RunResult a = parse_result_json(kGbench, "gb1.json");
    ASSERT_EQ(a.benchmarks[0].cpu_ns_per_item, (std::vector<double>{1400, 1500, 1600}));
    std::string text = kGbench;
    for (const char* cpu : {"\"cpu_time\": 1.4,", "\"cpu_time\": 1.5,", "\"cpu_time\": 1.6,"}) {
        const auto at = text.find(cpu);
        ASSERT_NE(at, std::string::npos);
        text.replace(at, std::string(cpu).size(), "\"cpu_time\": 3.0,");
    }
    const RunResult b = parse_result_json(text, "gb2.json");
    CompareOptions three;
    three.min_samples = 3;
    const Comparison c = compare_results(a, b, three);
    ASSERT_GE(c.benchmarks[0].metrics.size(), 2u);
    const auto& wall = c.benchmarks[0].metrics[0];
    const auto& cpu = c.benchmarks[0].metrics[1];
    EXPECT_EQ(wall.metric, "time");
    EXPECT_NEAR(wall.ratio, 1, 1e-12) << "real time did not change";
    EXPECT_EQ(cpu.metric, "cpu-time");
    EXPECT_TRUE(cpu.is_time);
    EXPECT_NEAR(cpu.baseline_median, 1500, 1e-9);
    EXPECT_NEAR(cpu.contender_median, 3000, 1e-9);
    const std::string table = render_comparison(c, OutputFormat::table);
    EXPECT_NE(table.find("cpu-time/iteration"), std::string::npos) << table;
    const auto j = nlohmann::json::parse(render_comparison(c, OutputFormat::json));
    EXPECT_EQ(j["benchmarks"][0]["metrics"][1]["metric"], "cpu_ns_per_iteration");
    EXPECT_NE(render_comparison(c, OutputFormat::csv).find(",cpu_ns_per_iteration,"),
              std::string::npos);
    // A file without cpu_time (hand-written, or an old one) has no such row.
    std::string no_cpu = kGbench;
    for (std::size_t at; (at = no_cpu.find("\"cpu_time\"")) != std::string::npos;)
        no_cpu.replace(at, 10, "\"cpu_tim_\"");
    const RunResult plain = parse_result_json(no_cpu, "gb3.json");
    EXPECT_TRUE(plain.benchmarks[0].cpu_ns_per_item.empty());
    const Comparison p = compare_results(plain, plain, three);
    for (const auto& m : p.benchmarks[0].metrics)
        EXPECT_NE(m.metric, "cpu-time");
}

TEST(CompareKinds, ResultsOfDifferentKindsAreNotCompared) {
    const RunResult stat = parse_result_json(stat_json({"true"}, 1), "a.json");
    const RunResult gbench = parse_result_json(kGbench, "gb.json");
    RunResult run;
    run.benchmarks.push_back(stat.benchmarks[0]);
    EXPECT_EQ(mixing_refusal(stat, stat), "");
    const std::string why = mixing_refusal(run, stat);
    EXPECT_EQ(why.rfind("the baseline is a perfgauge run result and the contender a perfgauge "
                        "stat result: ",
                        0),
              0u)
        << why;
    EXPECT_NE(why.find("compare two results of the same kind"), std::string::npos);
    EXPECT_NE(mixing_refusal(gbench, run).find("Google Benchmark times iterations"),
              std::string::npos);
    EXPECT_NE(mixing_refusal(stat, gbench).find("nothing of one matches the other"),
              std::string::npos);
    EXPECT_THROW(compare_results(run, stat, CompareOptions{}), std::invalid_argument);
}

}  // namespace
}  // namespace perfgauge::harness
