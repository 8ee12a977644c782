// End-to-end: perfgauge compare and export on results of a small perfgauge run, and
// scripts/plot_sweep.py drawing one.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

// One small run shared by the tests of this file (two sizes, hot and cold, three variants),
// read from a committed file (fixtures/README.md says how it was made): what these tests check
// of compare and export must not depend on how many samples a loaded machine keeps.
const std::string& small_result() {
    static const std::string json =
        read_file(PERFGAUGE_SOURCE_DIR "/test/e2e/fixtures/small-run.json");
    return json;
}

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
    const auto path = dir.path() / name;
    std::ofstream(path) << text;
    return path.string();
}

// The times of small_result() replaced by tight known ones (1.000 and 1.005 ns alternating:
// no drift from one sample to the next), times `scale`, and every benchmark given its six
// samples, rounds 0-2 in process 0 and 3-5 in process 1 as the run took them (a side of fewer
// than five is "too few samples"). `date`, when given, is the run's.
std::string with_known_times(double scale, const std::string& date = "") {
    constexpr int kSamples = 6;
    auto j = nlohmann::json::parse(small_result());
    nlohmann::json benchmarks = nlohmann::json::array();
    std::map<std::string, int> taken;
    for (const auto& e : j["benchmarks"]) {
        if (e["run_type"] != "iteration") {
            benchmarks.push_back(e);
            continue;
        }
        if (taken[e["name"].get<std::string>()]++ > 0)
            continue;  // its first sample stands for all six
        for (int i = 0; i < kSamples; ++i) {
            auto sample = e;
            sample["repetition_index"] = i;
            sample["perfgauge_process"] = i < kSamples / 2 ? 0 : 1;
            sample["perfgauge_ns_per_item"] = scale * (1.0 + 0.005 * (i % 2));
            benchmarks.push_back(std::move(sample));
        }
    }
    j["benchmarks"] = std::move(benchmarks);
    if (!date.empty())
        j["context"]["date"] = date;
    return j.dump();
}

// A --filter that keeps nothing is said, with names it could have matched, not an empty table.
TEST(CliExport, AFilterThatMatchesNothingIsAnErrorNamingTheBenchmarks) {
    TempDir dir;
    const auto file = write(dir, "r.json", small_result());
    const auto r = perfgauge({"export", file, "--format", "table", "--filter", "nomatch"});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("--filter 'nomatch' matches none of the "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("varint/branchy/"), std::string::npos) << r.err;
}

TEST(CliExport, CsvMarkdownJsonAndFilter) {
    TempDir dir;
    const auto file = write(dir, "r.json", small_result());
    const auto csv = perfgauge({"export", file, "--format", "csv"});
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_EQ(csv.out.substr(0, 5), "name,");
    EXPECT_NE(csv.out.find("varint/bmi2/log-uniform/end-on-end/cold/16K,"), std::string::npos)
        << csv.out;
    const auto md = perfgauge({"export", file, "--format", "md", "--filter", "cold/16K$"});
    ASSERT_EQ(md.exit_code, 0) << md.err;
    EXPECT_NE(md.out.find("| varint/branchy/log-uniform/end-on-end/cold/16K |"), std::string::npos)
        << md.out;
    // No row of another benchmark (the run's warnings, listed below the answer, may still name
    // one the machine disturbed).
    std::istringstream rows(md.out);
    for (std::string row; std::getline(rows, row);) {
        if (row.rfind("| ", 0) == 0) {
            EXPECT_EQ(row.find("/hot/"), std::string::npos) << md.out;
        }
    }
    const auto out = dir.path() / "filtered.json";
    const auto json =
        perfgauge({"export", file, "--format", "json", "--filter", "^memcpy/", "-o", out.string()});
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto j = nlohmann::json::parse(read_file(out));
    // 4 memcpy benchmarks: a median each, and the 6 samples each that the fixture holds.
    const auto aggregates =
        std::count_if(j["benchmarks"].begin(), j["benchmarks"].end(),
                      [](const auto& e) { return e["run_type"] == "aggregate"; });
    EXPECT_EQ(aggregates, 4);
    EXPECT_EQ(j["benchmarks"].size(), 4u * (6 + 1));
    EXPECT_TRUE(j["context"].contains("perfgauge"));

    EXPECT_EQ(perfgauge({"export", file, "--filter", "(("}).exit_code, 2);
    EXPECT_EQ(perfgauge({"export", file, "--format", "xml"}).exit_code, 2);
    const auto unwritable = perfgauge({"export", file, "-o", "/nonexistent-dir/out.csv"});
    EXPECT_EQ(unwritable.exit_code, 2);
    EXPECT_NE(unwritable.err.find("/nonexistent-dir"), std::string::npos) << unwritable.err;
    EXPECT_EQ(perfgauge({"export", "/no/such.json"}).exit_code, 2);
    const auto not_result = perfgauge({"export", write(dir, "x.json", "{\"a\": 1}")});
    EXPECT_EQ(not_result.exit_code, 2);
    EXPECT_NE(not_result.err.find("not a benchmark result"), std::string::npos);
}

TEST(CliCompare, VariantsInOneFile) {
    TempDir dir;
    const auto file = write(dir, "r.json", small_result());
    const auto r = perfgauge({"compare", file, "--baseline", "branchy", "--contender", "bmi2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("varint/log-uniform/end-on-end/cold/16K"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("task-clock/item"), std::string::npos);
    EXPECT_NE(r.out.find("VERDICT"), std::string::npos);
    const auto j = nlohmann::json::parse(perfgauge({"compare", file, "--baseline", "branchy",
                                                    "--contender", "bmi2", "--format", "json"})
                                             .out);
    EXPECT_EQ(j["benchmarks"].size(), 4u);  // 2 sizes x 2 cache states
    EXPECT_EQ(
        perfgauge({"compare", file, "--baseline", "branchy", "--contender", "nope"}).exit_code, 2);
}

// The same file on both sides is compared (an A/A check of compare), and said: by mistake it
// would read like a comparison of two runs.
TEST(CliCompare, AFileAgainstItselfIsSaid) {
    TempDir dir;
    const auto file = write(dir, "r.json", small_result());
    const auto r = perfgauge({"compare", file, file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("VERDICT"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("both sides are " + file + ": its samples compared with themselves"),
              std::string::npos)
        << r.err;
    const auto two = perfgauge({"compare", file, write(dir, "copy.json", small_result())});
    EXPECT_EQ(two.err.find("both sides are"), std::string::npos) << two.err;
}

TEST(CliCompare, TwoFilesAndFailOnRegression) {
    TempDir dir;
    // Known tight times: this test is about the regression gate, not about the times the
    // fixture's run measured.
    const auto base = write(dir, "base.json", with_known_times(1.0));
    const auto same = perfgauge({"compare", base, base, "--fail-on-regression", "5"});
    EXPECT_EQ(same.exit_code, 0) << same.err;
    EXPECT_EQ(same.out.find("slower\n"), std::string::npos);
    // A contender twice as slow everywhere.
    const auto slow = write(dir, "slow.json", with_known_times(2.0));
    const auto r = perfgauge({"compare", base, slow, "--fail-on-regression", "50"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("regression: varint/branchy/log-uniform/end-on-end/hot/1K: +100.0%"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(perfgauge({"compare", base, slow, "--fail-on-regression", "150"}).exit_code, 0);
    EXPECT_EQ(perfgauge({"compare", base}).exit_code, 2);
    EXPECT_EQ(perfgauge({"compare", base, slow, "--alpha", "2"}).exit_code, 2);
    EXPECT_EQ(perfgauge({"compare", base, slow, "--format", "xml"}).exit_code, 2);
    const auto unwritable = perfgauge({"compare", base, slow, "-o", "/nonexistent-dir/c.md"});
    EXPECT_EQ(unwritable.exit_code, 2);
    EXPECT_TRUE(unwritable.out.empty()) << "nothing is compared when the output cannot be written";
    const auto written = dir.path() / "c.md";
    ASSERT_EQ(
        perfgauge({"compare", base, slow, "--format", "md", "-o", written.string()}).exit_code, 0);
    EXPECT_NE(read_file(written).find("**slower**"), std::string::npos);
}

TEST(CliCompare, AFloorWidensEachTimeByTheNoiseItStandsFor) {
    TempDir dir;
    const auto base = write(dir, "base.json", with_known_times(1.0));
    const auto slow = write(dir, "slow.json", with_known_times(1.10));
    const auto r = perfgauge({"compare", base, slow, "--floor", "1", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_DOUBLE_EQ(j["thresholds"]["between_run_floor"].get<double>(), 0.01);
    const auto& time = j["benchmarks"][0]["metrics"][0];
    EXPECT_NEAR(time["between_run_sd"].get<double>(), 0.01 / 0.6744897501960817, 1e-12);
    // The interval holds at least the floor's noise: 1.96 x 1% / 0.6745 = 2.9% on the log
    // scale below +10%, so its lower end is at most 1.1 x exp(-0.029) - 1 = +6.85%; the samples'
    // own interval (two blocks a side) adds a little to that, in quadrature.
    const double low = time["ci_low"].get<double>() / time["baseline_median"].get<double>();
    EXPECT_LT(low, 0.0685);
    EXPECT_GT(low, 0.04);
    EXPECT_EQ(time["verdict"], "slower");
    bool said = false;
    for (const auto& note : j["notes"])
        said = said || note.get<std::string>().find("between-run floor 1.00% (--floor)") !=
                           std::string::npos;
    EXPECT_TRUE(said) << j["notes"];
    const auto bare =
        nlohmann::json::parse(perfgauge({"compare", base, slow, "--format", "json"}).out);
    EXPECT_TRUE(bare["thresholds"]["between_run_floor"].is_null());
    EXPECT_TRUE(bare["benchmarks"][0]["metrics"][0]["between_run_sd"].is_null());
}

TEST(CliCompare, RunsJoinedWithCommasAreOneSide) {
    TempDir dir;
    const auto a1 = write(dir, "a1.json", with_known_times(1.0));
    const auto b1 = write(dir, "b1.json", with_known_times(1.04));
    const std::string row = "varint/branchy/log-uniform/end-on-end/hot/1K";
    // One run a side: +4% with tight samples is slower.
    auto r = perfgauge({"compare", a1, b1, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto verdict_of = [&](const std::string& out) {
        const auto parsed = nlohmann::json::parse(out);
        for (const auto& b : parsed["benchmarks"]) {
            if (b["name"] == row)
                return b["metrics"][0]["verdict"].get<std::string>();
        }
        return std::string("missing");
    };
    EXPECT_EQ(verdict_of(r.out), "slower");
    // A second run of each that ran 8% slower than the first: joined, the runs disagree by
    // more than the change, and the interval shows it.
    const auto a2 = write(dir, "a2.json", with_known_times(1.08));
    const auto b2 = write(dir, "b2.json", with_known_times(1.08 * 1.04));
    r = perfgauge({"compare", a1 + "," + a2, b1 + "," + b2, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(verdict_of(r.out), "inconclusive") << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GE(j["benchmarks"][0]["metrics"][0]["baseline_blocks"].get<int>(), 2);
    // Refused with the reason: a missing run, an empty name, runs of different benchmarks.
    r = perfgauge({"compare", a1 + "," + (dir.path() / "missing.json").string(), b1});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
    r = perfgauge({"compare", a1 + ",", b1});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("empty file name"), std::string::npos) << r.err;
    auto fewer = nlohmann::json::parse(small_result());
    auto& entries = fewer["benchmarks"];
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const auto& e) { return e["run_name"] == row; }),
                  entries.end());
    const auto other = write(dir, "other.json", fewer.dump());
    r = perfgauge({"compare", a1 + "," + other, b1});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot join the runs"), std::string::npos) << r.err;
    // A file whose own name has a comma is read as it is.
    const auto comma = write(dir, "a,1.json", with_known_times(1.0));
    EXPECT_EQ(perfgauge({"compare", comma, b1}).exit_code, 0);
}

TEST(CliCompare, RunsTakenInTurnArePairedRunByRun) {
    // Three runs a side, taken A B B A A B; the machine ran 8% slower in the second pair and 5%
    // faster in the third; the contender is 4% slower within each pair.
    TempDir dir;
    const auto at = [](int m) {  // minute m + 5 of an hour, m <= 54
        return "2026-11-25T07:" + std::string(m + 5 < 10 ? "0" : "") + std::to_string(m + 5) +
               ":00+0000";
    };
    const double drift[] = {1.0, 1.08, 0.95};
    const int a_at[] = {0, 30, 40}, b_at[] = {10, 20, 50};
    std::string a, b, b_late;
    for (int i = 0; i < 3; ++i) {
        const auto n = std::to_string(i + 1);
        a +=
            (i ? "," : "") + write(dir, "a" + n + ".json", with_known_times(drift[i], at(a_at[i])));
        b += (i ? "," : "") +
             write(dir, "b" + n + ".json", with_known_times(1.04 * drift[i], at(b_at[i])));
        // The same contender runs, all taken after the baseline's: nothing to pair.
        b_late += (i ? "," : "") +
                  write(dir, "late" + n + ".json", with_known_times(1.04 * drift[i], at(41 + i)));
    }
    auto r = perfgauge({"compare", a, b, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["paired_runs"], 3);
    const auto& time = j["benchmarks"][0]["metrics"][0];
    EXPECT_EQ(time["method"], "paired-runs");
    EXPECT_EQ(time["run_pairs"], 3);
    EXPECT_EQ(time["verdict"], "slower") << time;
    r = perfgauge({"compare", a, b});
    EXPECT_NE(r.out.find("3 runs were taken in turn"), std::string::npos) << r.out;
    // Not in turn: compared as blocks, where the runs' disagreement swamps the 4%, and said.
    r = perfgauge({"compare", a, b_late, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["paired_runs"], 0);
    EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["method"], "independent");
    EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["verdict"], "inconclusive");
    EXPECT_NE(r.out.find("not paired (not taken in turn"), std::string::npos) << r.out;
}

TEST(PlotSweep, DrawsAPng) {
    TempDir dir;
    const auto file = write(dir, "r.json", small_result());
    const auto png = dir.path() / "sweep.png";
    const auto r = run_process({"/usr/bin/python3", PERFGAUGE_SOURCE_DIR "/scripts/plot_sweep.py",
                                file, "-o", png.string(), "--counters", "task-clock"});
    if (r.exit_code != 0 && r.err.find("No module named 'matplotlib'") != std::string::npos)
        GTEST_SKIP() << "python3-matplotlib is not installed";
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto bytes = read_file(png);
    EXPECT_GT(bytes.size(), 10000u);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_NE(r.err.find("2 cache states, 3 lines, rows: time, task-clock"), std::string::npos)
        << r.err;
    const auto bad = run_process({"/usr/bin/python3", PERFGAUGE_SOURCE_DIR "/scripts/plot_sweep.py",
                                  file, "-o", png.string(), "--counters", "cycles"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("cycles not counted"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace perfgauge::test
