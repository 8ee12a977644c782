// perfgauge export --format bmf: Bencher Metric Format from run, stat and Google Benchmark
// results, checked against BMF's structure.
#include "perfgauge/harness/bmf.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../../support/bmf_schema.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

RunResult run_result() {
    RunResult r;
    r.events = {
        native_column("instructions", pmu::EventKind::hardware, true),
        {"branch-misses", pmu::EventKind::hardware, EventSource::simulated, true, {}},
        native_column("cycles", pmu::EventKind::hardware, false, {"not supported", "", ""})};
    BenchmarkResult b;
    b.name = "varint/bmi2/log-uniform/end-on-end/hot/4K";
    b.ns_per_item = {2.9, 2.8, 3.1, 2.85, 2.95, 3.0, 2.7, 2.9, 2.88, 2.92};
    b.counters_per_item = {std::vector<double>(10, 24.0), std::vector<double>(10, 0.001),
                           std::vector<double>(10, 0.0)};
    r.benchmarks.push_back(b);
    BenchmarkResult disturbed;  // every sample disturbed: nothing to report
    disturbed.name = "memcpy/hot/4K";
    disturbed.counters_per_item.resize(3);
    r.benchmarks.push_back(disturbed);
    return r;
}

TEST(Bmf, RunResultMediansWithTheirIntervals) {
    const RunResult r = run_result();
    const auto j = nlohmann::json::parse(render_bmf(r));
    EXPECT_EQ(test::bmf_schema_problem(j), "") << j.dump(2);
    ASSERT_EQ(j.size(), 1u) << "a benchmark without samples is left out";
    const auto& m = j["varint/bmi2/log-uniform/end-on-end/hot/4K"];
    ASSERT_EQ(m.size(), 3u) << m.dump();  // latency, instructions, branch-misses [sim]; no cycles
    const auto& ns = r.benchmarks[0].ns_per_item;
    const Interval ci = median_interval(ns, 0.95);
    EXPECT_DOUBLE_EQ(m["latency"]["value"].get<double>(), median(ns));
    EXPECT_DOUBLE_EQ(m["latency"]["lower_value"].get<double>(), ci.low);
    EXPECT_DOUBLE_EQ(m["latency"]["upper_value"].get<double>(), ci.high);
    EXPECT_LT(ci.low, ci.high);
    EXPECT_EQ(m["instructions"],
              (nlohmann::json{{"value", 24.0}, {"lower_value", 24.0}, {"upper_value", 24.0}}));
    EXPECT_TRUE(m.contains("branch-misses [sim]")) << m.dump();
}

TEST(Bmf, StatAndGoogleBenchmarkResultsToo) {
    StatResult s;
    s.command = {"./branchy", "data"};
    s.repetitions = 5;
    s.elapsed_seconds = {0.010, 0.011, 0.012, 0.010, 0.013};
    StatEventResult faults;
    faults.name = "page-faults";
    faults.samples = {100, 101, 100, 102, 100};
    s.events.push_back(faults);
    const auto stat = nlohmann::json::parse(
        render_bmf(parse_result_json(render_stat(s, OutputFormat::json), "s")));
    EXPECT_EQ(test::bmf_schema_problem(stat), "") << stat.dump(2);
    EXPECT_DOUBLE_EQ(stat["./branchy data"]["latency"]["value"].get<double>(), 0.011e9);
    // Five runs are too few for a 95% interval of the median: [min, max].
    EXPECT_DOUBLE_EQ(stat["./branchy data"]["latency"]["lower_value"].get<double>(), 0.010e9);
    EXPECT_DOUBLE_EQ(stat["./branchy data"]["latency"]["upper_value"].get<double>(), 0.013e9);
    EXPECT_EQ(stat["./branchy data"]["page-faults"]["value"], 100.0);

    const auto gbench = nlohmann::json::parse(render_bmf(parse_result_json(R"({
      "context": {"date": "x"},
      "benchmarks": [
        {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "iterations": 10,
         "real_time": 2, "cpu_time": 2, "time_unit": "ms", "C": 1},
        {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "iterations": 10,
         "real_time": 3, "cpu_time": 3, "time_unit": "ms", "C": 2},
        {"name": "BM_a_cv", "run_name": "BM_a", "run_type": "aggregate", "aggregate_name": "cv",
         "iterations": 2, "real_time": 0.3, "cpu_time": 0.3, "time_unit": "ms", "C": NaN}]})",
                                                                           "gb.json")));
    EXPECT_EQ(test::bmf_schema_problem(gbench), "") << gbench.dump(2);
    EXPECT_DOUBLE_EQ(gbench["BM_a"]["latency"]["value"].get<double>(), 2.5e6);
    EXPECT_EQ(gbench["BM_a"]["C"]["upper_value"], 2.0);
}

TEST(Bmf, SchemaCheckFindsWhatBencherWouldRefuse) {
    using nlohmann::json;
    const auto ok =
        json{{"b", {{"latency", {{"value", 2}, {"lower_value", 1}, {"upper_value", 3}}}}}};
    EXPECT_EQ(test::bmf_schema_problem(ok), "");
    EXPECT_NE(test::bmf_schema_problem(json::array()), "");
    EXPECT_NE(test::bmf_schema_problem(json{{"b", 1}}), "");
    EXPECT_NE(test::bmf_schema_problem(json{{"b", json::object()}}), "");
    auto bad = ok;
    bad["b"]["latency"]["lower_value"] = 2.5;
    EXPECT_NE(test::bmf_schema_problem(bad).find("not lower_value <= value"), std::string::npos);
    bad = ok;
    bad["b"]["latency"]["value"] = "2";
    EXPECT_NE(test::bmf_schema_problem(bad).find("'value' missing or not a finite number"),
              std::string::npos);
    bad = ok;
    bad["b"]["latency"]["extra"] = 1;
    EXPECT_NE(test::bmf_schema_problem(bad).find("unexpected key 'extra'"), std::string::npos);
}

}  // namespace
}  // namespace perfgauge::harness
