// End-to-end: perfgauge compare and export --format bmf on perfgauge stat results and on Google
// Benchmark files written by perfgauge-bench-varint, and the refusal to compare kinds that
// cannot be matched.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <tuple>

#include "../support/bmf_schema.hpp"
#include "../support/cli.hpp"
#include "../support/measured_programs.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

// The files the tests share, made once: two stat results (100 and 3000 pages touched per run),
// two Google Benchmark files of one small benchmark; and a small run result.
struct Files {
    TempDir dir;
    std::string stat_a, stat_b, gb1, gb2, run;
};

const Files& files() {
    // Removed (with its directory) when the test program ends.
    static const std::unique_ptr<Files> made = [] {
        auto f = std::make_unique<Files>();
        const auto stat = [&](const std::string& name, const std::string& pages) {
            const std::string out = (f->dir.path() / name).string();
            const auto r = perfgauge({"stat", "-r", "5", "-e", "task-clock,page-faults", "--format",
                                      "json", "-o", out, "--", kStatWorkload, "touch", pages});
            EXPECT_EQ(r.exit_code, 0) << r.err;
            return out;
        };
        f->stat_a = stat("a.json", "100");
        f->stat_b = stat("b.json", "3000");
        const auto gbench = [&](const std::string& name) {
            const std::string out = (f->dir.path() / name).string();
            const auto r =
                run_process({PERFGAUGE_BENCH_VARINT_PATH, "--perfgauge_events=alignment-faults",
                             "--benchmark_repetitions=5",
                             "--benchmark_filter=^varint/branchy/log-uniform/one-shot$",
                             "--benchmark_min_time=0.01", "--benchmark_out=" + out,
                             "--benchmark_out_format=json"});
            EXPECT_EQ(r.exit_code, 0) << r.err;
            return out;
        };
        f->gb1 = gbench("gb1.json");
        f->gb2 = gbench("gb2.json");
        // A run result read from a committed file (fixtures/README.md): live, under the whole
        // suite on 2 vCPUs every sample of three runs in a row was disturbed (2026-12-01, load
        // ~10), and these tests are about the files, not about what a busy machine keeps.
        f->run = PERFGAUGE_SOURCE_DIR "/test/e2e/fixtures/small-run.json";
        return f;
    }();
    return *made;
}

// The line of `text` that contains `what` ("" when none does).
std::string line_with(const std::string& text, const std::string& what) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.find(what) != std::string::npos)
            return line;
    }
    return "";
}

TEST(CliCompareKinds, TwoStatResultsEachRunASample) {
    const auto& f = files();
    const auto r = perfgauge({"compare", f.stat_a, f.stat_b});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("touch 100 vs " + kStatWorkload + " touch 3000"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("time/run"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("task-clock/run [sw]"), std::string::npos) << r.out;
    // ~2900 more faults in every run: the interval lies far beyond any threshold.
    const auto faults = line_with(r.out, "page-faults/run [sw]");
    EXPECT_NE(faults.find(" more"), std::string::npos) << r.out;
    const auto j =
        nlohmann::json::parse(perfgauge({"compare", f.stat_a, f.stat_b, "--format", "json"}).out);
    ASSERT_EQ(j["benchmarks"].size(), 1u);
    EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["metric"], "ns_per_run");
    EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["baseline_samples"], 5);
}

TEST(CliCompareKinds, StatResultsTakenInTurnArePairedByTheirDates) {
    // A stat result records when its runs began; three of each command, their dates set to
    // A B B A A B, are paired run by run - by date, not by the order they are listed in (the
    // baseline's are listed latest first). Pair k's page faults are raised by 100000 k on both
    // sides: paired as taken, the contender has ~2900 more in every pair; paired in the listed
    // order, the differences would be ~2900 - 200000, ~2900 and ~2900 + 200000.
    const auto& f = files();
    const auto a = nlohmann::json::parse(read_file(f.stat_a));
    const auto b = nlohmann::json::parse(read_file(f.stat_b));
    ASSERT_TRUE(a["date"].is_string()) << a;
    EXPECT_EQ(a["date"].get<std::string>().substr(10, 1), "T") << a["date"];
    TempDir dir;
    const auto at = [](int m) {  // minute m + 5 of an hour, m <= 54
        return "2026-11-25T07:" + std::string(m + 5 < 10 ? "0" : "") + std::to_string(m + 5) +
               ":00+0000";
    };
    const int a_at[] = {0, 30, 40}, b_at[] = {10, 20, 50};
    std::string as, bs;
    for (int i = 0; i < 3; ++i) {
        for (auto [side, json, seconds] :
             {std::tuple{&as, a, a_at[i]}, std::tuple{&bs, b, b_at[i]}}) {
            json["date"] = at(seconds);
            for (auto& e : json["events"]) {
                if (e["event"] == "page-faults") {
                    for (auto& v : e["samples"])
                        v = v.get<double>() + 100000.0 * i;
                }
            }
            const auto path = dir.path() / ("s" + std::to_string(seconds) + ".json");
            std::ofstream(path) << json.dump();
            if (side == &as)
                as = path.string() + (i ? "," : "") + as;  // latest first
            else
                bs += (i ? "," : "") + path.string();
        }
    }
    const auto r = perfgauge({"compare", as, bs, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["paired_runs"], 3);
    const auto& metrics = j["benchmarks"][0]["metrics"];
    EXPECT_EQ(metrics[0]["metric"], "ns_per_run");
    EXPECT_EQ(metrics[0]["method"], "paired-runs");
    EXPECT_EQ(metrics[0]["run_pairs"], 3);
    bool faults_seen = false;
    for (const auto& m : metrics) {
        if (m["metric"] != "page-faults")
            continue;
        faults_seen = true;
        EXPECT_EQ(m["method"], "paired-runs") << m;
        EXPECT_EQ(m["verdict"], "more") << m;
        EXPECT_GT(m["ci_low"].get<double>(), 2000) << m;
        EXPECT_LT(m["ci_high"].get<double>(), 4000) << m;
    }
    EXPECT_TRUE(faults_seen) << j;
    // A joined run of another command's events is named by its file.
    auto other = a;
    other["events"].erase(other["events"].begin());
    const auto odd = (dir.path() / "odd.json").string();
    std::ofstream(odd) << other.dump();
    const auto refused = perfgauge({"compare", as + "," + odd, bs});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find(odd + " did not measure the same benchmarks and events as"),
              std::string::npos)
        << refused.err;
}

TEST(CliCompareKinds, TwoGoogleBenchmarkFilesWithNaN) {
    const auto& f = files();
    // What Google Benchmark really wrote: the cv aggregate of an all-zero counter is a bare NaN,
    // which is not JSON. alignment-faults is zero in every repetition (x86 kernels never count
    // it); page-faults, used before, faulted once in a repetition now and then and the cv was a
    // number (a CI failure).
    const std::string text = read_file(f.gb1);
    EXPECT_NE(text.find("\"ALIGNMENT-FAULTS\": NaN"), std::string::npos) << text;
    EXPECT_NE(text.find("\"aggregate_name\": \"cv\""), std::string::npos);
    const auto r = perfgauge({"compare", f.gb1, f.gb2});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("varint/branchy/log-uniform/one-shot"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("time/iteration"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cpu-time/iteration"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ALIGNMENT-FAULTS/iteration [user]"), std::string::npos) << r.out;
    const auto j =
        nlohmann::json::parse(perfgauge({"compare", f.gb1, f.gb2, "--format", "json"}).out);
    ASSERT_EQ(j["benchmarks"].size(), 1u);
    // The 5 repetitions are the samples; mean, median, stddev and cv are not.
    EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["baseline_samples"], 5);
    // Real time, then Google Benchmark's CPU time beside it (as its compare.py reports both).
    EXPECT_EQ(j["benchmarks"][0]["metrics"][1]["metric"], "cpu_ns_per_iteration");
    EXPECT_EQ(j["benchmarks"][0]["metrics"][1]["baseline_samples"], 5);
    EXPECT_EQ(j["benchmarks"][0]["metrics"][2]["metric"], "ALIGNMENT-FAULTS");
}

TEST(CliCompareKinds, MixingKindsIsRefusedWithTheReason) {
    const auto& f = files();
    const auto r = perfgauge({"compare", f.run, f.stat_a});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("cannot compare " + f.run + " with " + f.stat_a +
                         ": the baseline is a perfgauge run result and the contender a "
                         "perfgauge stat result"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty());
    const auto g = perfgauge({"compare", f.stat_a, f.gb1});
    EXPECT_EQ(g.exit_code, 2);
    EXPECT_NE(g.err.find("a Google Benchmark result"), std::string::npos) << g.err;
}

TEST(CliExportBmf, RunStatAndGoogleBenchmarkResultsPassTheSchema) {
    const auto& f = files();
    for (const auto& file : {f.run, f.stat_a, f.gb1}) {
        const auto r = perfgauge({"export", file, "--format", "bmf"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(bmf_schema_problem(j), "") << r.out;
        EXPECT_FALSE(j.empty()) << file;
    }
    const auto stat = nlohmann::json::parse(perfgauge({"export", f.stat_a, "--format", "bmf"}).out);
    const auto& measures = stat[kStatWorkload + " touch 100"];
    EXPECT_TRUE(measures.contains("latency")) << stat.dump(2);
    EXPECT_GE(measures["page-faults"]["value"].get<double>(), 100) << stat.dump(2);
    const auto run = nlohmann::json::parse(perfgauge({"export", f.run, "--format", "bmf"}).out);
    EXPECT_TRUE(run["memcpy/log-uniform/hot/1K"].contains("task-clock")) << run.dump(2);
    // Other formats re-render run results only, and say so.
    const auto csv = perfgauge({"export", f.stat_a, "--format", "csv"});
    EXPECT_EQ(csv.exit_code, 2);
    EXPECT_NE(csv.err.find("is a perfgauge stat result: --format csv re-renders perfgauge run "
                           "results; --format bmf takes this one"),
              std::string::npos)
        << csv.err;
}

}  // namespace
}  // namespace perfgauge::test
