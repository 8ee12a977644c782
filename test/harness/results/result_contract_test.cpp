// The result contract (docs/result-format.md): every JSON file says which schema version it
// follows, readers accept the versions they know (a file without the field is version 1) and
// refuse newer ones; and a result whose benchmark names collide is refused, not merged.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

using nlohmann::json;

std::string error_of(const std::function<void()>& read) {
    try {
        read();
        return "";
    } catch (const ResultFileError& e) {
        return e.what();
    }
}

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(PERFGAUGE_RESULTS_FIXTURES) + "/" + name);
    EXPECT_TRUE(in) << name;
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

BenchmarkResult benchmark(const std::string& name, std::vector<double> ns) {
    BenchmarkResult b;
    b.name = name;
    b.items_per_iteration = 10;
    b.iterations = 100;
    b.rounds.resize(ns.size());
    for (std::size_t i = 0; i < ns.size(); ++i)
        b.rounds[i] = i;
    b.raw_ns_per_item = ns;
    b.cpu_ns_per_item = ns;
    b.ns_per_item = std::move(ns);
    return b;
}

RunResult run_of(std::vector<BenchmarkResult> benchmarks) {
    RunResult r;
    r.repetitions = benchmarks.front().ns_per_item.size();
    r.benchmarks = std::move(benchmarks);
    return r;
}

StatResult stat_of() {
    StatResult s;
    s.command = {"true"};
    s.repetitions = 2;
    s.elapsed_seconds = {0.001, 0.002};
    StatEventResult clock;
    clock.name = "task-clock";
    clock.kind = pmu::EventKind::software;
    clock.source = EventSource::software;
    clock.unit = "ns";
    clock.samples = {9e5, 1e6};
    s.events.push_back(clock);
    return s;
}

json with_version(const std::string& text, const json& version) {
    json j = json::parse(text);
    j[kSchemaVersionKey] = version;
    return j;
}

TEST(ResultSchemaVersion, EveryWriterStatesTheVersionItFollows) {
    const RunResult run = run_of({benchmark("a", {1, 2, 3})});
    const auto version_of = [](const std::string& text) {
        return json::parse(text).at(kSchemaVersionKey).get<int>();
    };
    EXPECT_EQ(version_of(render_run(run, OutputFormat::json)), kResultSchemaVersion);
    EXPECT_EQ(version_of(render_stat(stat_of(), OutputFormat::json)), kResultSchemaVersion);
    const Comparison c = compare_results(run, run, CompareOptions{});
    EXPECT_EQ(version_of(render_comparison(c, OutputFormat::json)), kResultSchemaVersion);
    SideBySideResult side;
    side.commands = {stat_of(), stat_of()};
    side.labels = {"A", "B"};
    const json both = json::parse(render_side_by_side(side, c, OutputFormat::json));
    EXPECT_EQ(both.at(kSchemaVersionKey), kResultSchemaVersion);
    // Only the file says it: its parts are not files.
    EXPECT_FALSE(both.at("commands")[0].contains(kSchemaVersionKey));
}

TEST(ResultSchemaVersion, TheVersionsItKnowsAreRead) {
    const std::string run = render_run(run_of({benchmark("a", {1, 2, 3})}), OutputFormat::json);
    const std::string stat = render_stat(stat_of(), OutputFormat::json);
    for (int version = kUnversionedSchemaVersion; version <= kResultSchemaVersion; ++version) {
        EXPECT_EQ(parse_run_json(with_version(run, version).dump(), "r.json").benchmarks.size(),
                  1u);
        EXPECT_EQ(parse_result_json(with_version(stat, version).dump(), "s.json").kind,
                  ResultKind::stat);
    }
}

// Files written before "schema_version" existed (perfgauge 53c451f and earlier) are version 1.
TEST(ResultSchemaVersion, AFileWithoutTheFieldIsReadAsVersionOne) {
    const std::string run = fixture("run-unversioned.json");
    ASSERT_FALSE(json::parse(run).contains(kSchemaVersionKey));
    const RunResult r = parse_result_json(run, "old-run.json");
    EXPECT_EQ(r.kind, ResultKind::run);
    ASSERT_EQ(r.benchmarks.size(), 1u);
    EXPECT_EQ(r.benchmarks[0].name, "memcpy/log-uniform/hot/64B");
    EXPECT_FALSE(r.benchmarks[0].ns_per_item.empty());
    const std::string stat = fixture("stat-unversioned.json");
    ASSERT_FALSE(json::parse(stat).contains(kSchemaVersionKey));
    const RunResult s = parse_result_json(stat, "old-stat.json");
    EXPECT_EQ(s.kind, ResultKind::stat);
    ASSERT_EQ(s.benchmarks.size(), 1u);
    EXPECT_EQ(s.benchmarks[0].ns_per_item.size(), 3u);
}

TEST(ResultSchemaVersion, ANewerVersionIsRefusedNamingTheFileAndTheVersions) {
    const int newer = kResultSchemaVersion + 1;
    const std::string expected = fmt::format(
        "future.json: written for result schema version {}, newer than this perfgauge reads "
        "(versions 1 to {}); read it with the perfgauge that wrote it, or a newer one",
        newer, kResultSchemaVersion);
    const std::string run = render_run(run_of({benchmark("a", {1, 2, 3})}), OutputFormat::json);
    const std::string stat = render_stat(stat_of(), OutputFormat::json);
    EXPECT_EQ(error_of([&] { parse_run_json(with_version(run, newer).dump(), "future.json"); }),
              expected);
    EXPECT_EQ(error_of([&] { parse_result_json(with_version(run, newer).dump(), "future.json"); }),
              expected);
    EXPECT_EQ(error_of([&] { parse_stat_json(with_version(stat, newer).dump(), "future.json"); }),
              expected);
    // Whatever shape a newer version has, it is refused as newer, not as "not a result".
    EXPECT_EQ(error_of([&] {
                  parse_result_json(json{{kSchemaVersionKey, newer}, {"samples", {}}}.dump(),
                                    "future.json");
              }),
              expected);
}

TEST(ResultSchemaVersion, AVersionThatIsNotAPositiveIntegerIsMalformed) {
    const std::string run = render_run(run_of({benchmark("a", {1, 2, 3})}), OutputFormat::json);
    for (const json& bad : {json(0), json(-1), json(1.5), json("1"), json(nullptr)}) {
        EXPECT_EQ(error_of([&] { parse_result_json(with_version(run, bad).dump(), "x.json"); }),
                  fmt::format("x.json: malformed perfgauge result: 'schema_version' is {}, not a "
                              "version number (a positive integer)",
                              bad.dump()));
    }
}

const std::string kCollision =
    "x.json: two benchmarks are named 'a': their samples cannot be told apart, so the file is "
    "refused rather than merged (measure them under different names)";

TEST(ResultNames, TwoBenchmarksOfOneNameAreRefusedNotMerged) {
    const RunResult twice =
        run_of({benchmark("a", {1, 2, 3}), benchmark("b", {4, 5}), benchmark("a", {7, 8})});
    const std::string text = render_run(twice, OutputFormat::json);
    EXPECT_EQ(error_of([&] { parse_result_json(text, "x.json"); }), kCollision);
    // Without family_index (as a hand-made or older file may be): an entry after its name's
    // aggregate still shows the second benchmark.
    json j = json::parse(text);
    for (auto& e : j["benchmarks"])
        e.erase("family_index");
    EXPECT_EQ(error_of([&] { parse_run_json(j.dump(), "x.json"); }), kCollision);
    // Two benchmarks of one name whose every sample was disturbed: two aggregates.
    RunResult disturbed = run_of({benchmark("a", {}), benchmark("a", {})});
    disturbed.repetitions = 0;
    EXPECT_EQ(
        error_of([&] { parse_run_json(render_run(disturbed, OutputFormat::json), "x.json"); }),
        kCollision);
    // Distinct names, and one benchmark's several samples, are read as before.
    const RunResult fine = run_of({benchmark("a", {1, 2, 3}), benchmark("b", {4, 5})});
    EXPECT_EQ(parse_run_json(render_run(fine, OutputFormat::json), "x.json").benchmarks.size(), 2u);
}

// A benchmark whose every sample was disturbed has no spread to speak of: every output that
// states stability says unstable (JSON aggregate, CSV), next to one that is stable.
TEST(ResultStability, ABenchmarkWithoutUndisturbedSamplesIsNotCalledStable) {
    RunResult r = run_of({benchmark("steady", {100, 100, 101}), benchmark("lost", {})});
    r.benchmarks[1].disturbed.push_back({0, 500, 5000, 100, 7, 1, 0});
    const json j = json::parse(render_run(r, OutputFormat::json));
    std::map<std::string, bool> unstable;
    for (const auto& e : j["benchmarks"]) {
        if (e["run_type"] == "aggregate")
            unstable[e["run_name"].get<std::string>()] = e["perfgauge_unstable"].get<bool>();
    }
    EXPECT_EQ(unstable, (std::map<std::string, bool>{{"lost", true}, {"steady", false}}));
    const auto cells_of = [](const std::string& line) {
        std::vector<std::string> cells;
        std::istringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');)
            cells.push_back(cell);
        return cells;
    };
    std::istringstream lines(render_run(r, OutputFormat::csv));
    std::string line;
    std::getline(lines, line);
    const auto header = cells_of(line);
    const auto column = static_cast<std::size_t>(
        std::find(header.begin(), header.end(), "unstable") - header.begin());
    ASSERT_LT(column, header.size()) << line;
    int rows = 0;
    while (std::getline(lines, line)) {
        const auto cells = cells_of(line);
        ASSERT_GT(cells.size(), column) << line;
        EXPECT_EQ(cells[column], cells[0] == "lost" ? "true" : "false") << line;
        ++rows;
    }
    EXPECT_EQ(rows, 2);
    // Read back, the flag is recomputed from the samples: still unstable.
    EXPECT_TRUE(summarize(parse_run_json(j.dump(), "x.json").benchmarks[1].ns_per_item).unstable);
}

TEST(ResultNames, GoogleBenchmarkEntriesOfTwoBenchmarksUnderOneNameAreRefused) {
    const auto entry = [](int family, int repetition) {
        return json{{"name", "BM_x"},
                    {"run_name", "BM_x"},
                    {"run_type", "iteration"},
                    {"family_index", family},
                    {"per_family_instance_index", 0},
                    {"repetitions", 2},
                    {"repetition_index", repetition},
                    {"threads", 1},
                    {"iterations", 10},
                    {"real_time", 5.0},
                    {"cpu_time", 5.0},
                    {"time_unit", "ns"}};
    };
    json gb = {{"context", {{"date", "today"}}}, {"benchmarks", {entry(0, 0), entry(0, 1)}}};
    EXPECT_EQ(parse_result_json(gb.dump(), "gb.json").benchmarks.at(0).ns_per_item.size(), 2u);
    gb["benchmarks"].push_back(entry(1, 0));
    const std::string refused =
        "gb.json: two benchmarks are named 'BM_x': their samples cannot be told apart, so the "
        "file is refused rather than merged (give them different names)";
    EXPECT_EQ(error_of([&] { parse_result_json(gb.dump(), "gb.json"); }), refused);
    // Google Benchmark 1.5 writes no family_index: a repetition_index seen twice under one name
    // is a second benchmark, wherever it comes (right after, or after other names).
    for (const auto& order :
         {std::vector<int>{0, 1, 0}, std::vector<int>{0, 0}, std::vector<int>{1, 0, 2, 1}}) {
        SCOPED_TRACE(json(order).dump());
        json v15 = {{"context", {{"date", "today"}}}, {"benchmarks", json::array()}};
        for (const int repetition : order) {
            auto e = entry(0, repetition);
            e.erase("family_index");
            e.erase("per_family_instance_index");
            v15["benchmarks"].push_back(e);
            v15["benchmarks"].push_back(json{{"name", "BM_other"},
                                             {"run_type", "iteration"},
                                             {"iterations", 10},
                                             {"real_time", 1.0},
                                             {"time_unit", "ns"}});
        }
        EXPECT_EQ(error_of([&] { parse_result_json(v15.dump(), "gb.json"); }), refused);
        v15["benchmarks"].erase(v15["benchmarks"].end() - 2);  // the repeated entry
        EXPECT_EQ(error_of([&] { parse_result_json(v15.dump(), "gb.json"); }), "");
    }
    // Before 1.5 Google Benchmark wrote repetitions as entries with a name only (its own
    // compare.py reads them so, /usr/share/benchmark/gbench/Inputs/test3_run0.json): one
    // benchmark's samples, as every reader takes them.
    json v14 = {{"context", {{"date", "today"}}}, {"benchmarks", json::array()}};
    for (const double time : {5.0, 6.0, 7.0}) {
        v14["benchmarks"].push_back(json{{"name", "BM_x"},
                                         {"iterations", 10},
                                         {"real_time", time},
                                         {"cpu_time", time},
                                         {"time_unit", "ns"}});
    }
    const auto read = parse_result_json(v14.dump(), "gb.json");
    ASSERT_EQ(read.benchmarks.size(), 1u);
    EXPECT_EQ(read.benchmarks[0].ns_per_item, (std::vector<double>{5, 6, 7}));
}

}  // namespace
}  // namespace perfgauge::harness
