// End-to-end: `perfgauge history report` of a store of 20 runs on 3 machine classes with one
// regression, opened in headless Chromium (test/e2e/report_browser_check.py): the DOM holds
// every series and every change point the detector finds, the regression is listed, the URL
// hash filters hide the other metric's graphs, and the screenshot is not blank. Skipped, saying
// so, only where Chromium is not installed (scripts/install-test-browser.sh installs it).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../harness/history/postgres_server.hpp"
#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"
#include "perfgauge/harness/history_store.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

const char* chromium_path() {
    const char* env = std::getenv("PERFGAUGE_TEST_CHROMIUM");
    return env && *env ? env : "/usr/bin/chromium";
}

// A Google Benchmark result of `host`: BM_decode at `decode` ns and BM_copy at 100 ns, five
// repetitions each with seeded noise of 1%.
std::string gbench_json(const std::string& host, double decode, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0, 0.01);
    nlohmann::json j = {{"context", {{"date", "2026-12-07T12:00:00+00:00"}, {"host_name", host}}},
                        {"benchmarks", nlohmann::json::array()}};
    for (const auto& [name, ns] :
         std::map<std::string, double>{{"BM_decode", decode}, {"BM_copy", 100}})
        for (int rep = 0; rep < 5; ++rep) {
            const double t = ns * (1 + z(rng));
            j["benchmarks"].push_back({{"name", name},
                                       {"run_type", "iteration"},
                                       {"repetitions", 5},
                                       {"repetition_index", rep},
                                       {"iterations", 1000},
                                       {"real_time", t},
                                       {"cpu_time", t * 0.98},
                                       {"time_unit", "ns"}});
        }
    return j.dump();
}

class HistoryReport : public ::testing::Test {
  protected:
    // 20 runs: node-a every other run (10), node-b and node-c 5 each; node-a's BM_decode is
    // 20% slower from its sixth run (run 11, commit c10) on.
    void SetUp() override {
        store_ = (dir_.path() / "h.db").string();
        int a_runs = 0;
        for (int r = 0; r < 20; ++r) {
            const std::string host = r % 2 == 0 ? "node-a" : r % 4 == 1 ? "node-b" : "node-c";
            double decode = host == "node-b" ? 30 : host == "node-c" ? 50 : 40;
            if (host == "node-a" && a_runs++ >= 5)
                decode = 48;
            const auto file = dir_.write("r" + std::to_string(r) + ".json",
                                         gbench_json(host, decode, static_cast<std::uint64_t>(r)));
            const auto added =
                perfgauge({"history", "add", file.string(), "--db", store_, "--commit",
                           "c" + std::to_string(r), "--label", "machine=" + host});
            ASSERT_EQ(added.exit_code, 0) << added.err;
        }
    }
    nlohmann::json browser(const std::vector<std::string>& args) {
        std::vector<std::string> argv = {"/usr/bin/python3", PERFGAUGE_REPORT_BROWSER_CHECK};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto r = run_process(argv);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
    }
    TempDir dir_;
    std::string store_;
};

using Key = std::tuple<std::string, std::string, std::string>;

// Every series' change points as the detector finds them, by run id.
std::map<Key, std::set<std::int64_t>> expected_changes(const std::string& store) {
    auto opened = harness::HistoryStore::open(store);
    std::map<Key, std::set<std::int64_t>> out;
    for (const auto& key : opened->series()) {
        const auto entries = opened->series_runs(key);
        std::vector<harness::RunPoint> pts;
        for (const auto& e : entries)
            pts.push_back(e.point);
        auto& runs = out[{key.benchmark, key.metric, key.machine_class}];
        for (const auto& c : harness::detect_change_points(pts))
            runs.insert(entries[c.index].run_id);
    }
    return out;
}

TEST_F(HistoryReport, ChromiumShowsEverySeriesChangePointAndTheRegression) {
    if (::access(chromium_path(), X_OK) != 0)
        GTEST_SKIP() << chromium_path()
                     << " is not installed (scripts/install-test-browser.sh installs it)";
    const auto out = dir_.path() / "site";
    const auto made = perfgauge({"history", "report", "-o", out.string(), "--db", store_});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const std::string url = "file://" + (out / "index.html").string();
    const auto dom = browser({"dom", url});
    const auto expected = expected_changes(store_);
    ASSERT_EQ(expected.size(), 12U);  // 2 benchmarks x (time, cpu-time) x 3 machines
    ASSERT_EQ(dom["series"].size(), expected.size()) << dom.dump(1);
    std::map<std::string, Key> by_id;
    for (const auto& s : dom["series"]) {
        const Key key{s["benchmark"], s["metric"], s["machine"]};
        EXPECT_TRUE(expected.count(key)) << s.dump();
        EXPECT_TRUE(s["shown"].get<bool>()) << s.dump();
        by_id[s["id"]] = key;
    }
    std::map<Key, std::set<std::int64_t>> drawn;
    for (const auto& c : dom["changes"])
        drawn[by_id.at(c["series"])].insert(c["run"].get<std::int64_t>());
    std::size_t change_points = 0;
    for (const auto& [key, runs] : expected) {
        EXPECT_EQ(drawn[key], runs) << std::get<0>(key) << " " << std::get<1>(key);
        change_points += runs.size();
    }
    EXPECT_GE(change_points, 2U);  // node-a's BM_decode, time and cpu-time, at run 11
    EXPECT_GE(dom["regressions"].get<int>(), 2) << dom.dump(1);
    const auto png = dir_.path() / "report.png";
    const auto shot = browser({"screenshot", url, png.string()});
    EXPECT_EQ(shot["width"], 1200);
    EXPECT_GE(shot["colours"].get<int>(), 16) << shot.dump();  // palette, anti-aliased text
    EXPECT_GE(shot["non_white"].get<double>(), 0.02 * 1200 * 2000) << shot.dump();
    // docs/images/history-report.png is made this way: the regressed benchmark's graphs.
    if (const char* keep = std::getenv("PERFGAUGE_TEST_KEEP_REPORT_PNG"))
        browser({"screenshot", url + "#benchmark=BM_decode", keep});
}

TEST_F(HistoryReport, AUrlHashFiltersByMetricAndMachine) {
    if (::access(chromium_path(), X_OK) != 0)
        GTEST_SKIP() << chromium_path()
                     << " is not installed (scripts/install-test-browser.sh installs it)";
    const auto out = dir_.path() / "site";
    ASSERT_EQ(perfgauge({"history", "report", "-o", out.string(), "--db", store_}).exit_code, 0);
    const std::string url = "file://" + (out / "index.html").string();
    const auto by_metric = browser({"dom", url + "#metric=time"});
    ASSERT_EQ(by_metric["series"].size(), 12U);
    for (const auto& s : by_metric["series"])
        EXPECT_EQ(s["shown"].get<bool>(), s["metric"] == "time") << s.dump();
    std::string node_b;
    for (const auto& r : harness::HistoryStore::open(store_)->runs())
        if (r.source.ends_with("r1.json"))
            node_b = r.machine_class;
    const auto by_machine = browser({"dom", url + "#machine=" + node_b + "&metric=cpu-time"});
    std::size_t shown = 0;
    for (const auto& s : by_machine["series"]) {
        EXPECT_EQ(s["shown"].get<bool>(), s["machine"] == node_b && s["metric"] == "cpu-time")
            << s.dump();
        shown += s["shown"].get<bool>();
    }
    EXPECT_EQ(shown, 2U);  // BM_copy and BM_decode
}

TEST_F(HistoryReport, BadOutputsAreRefusedAndNothingIsLost) {
    const auto file = dir_.write("taken.html", "keep me");
    auto r = perfgauge({"history", "report", "-o", file.string(), "--db", store_});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not a directory"), std::string::npos) << r.err;
    std::ifstream in(file);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "keep me");
    r = perfgauge({"history", "report", "--db", store_});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("-o DIR"), std::string::npos) << r.err;
    r = perfgauge(
        {"history", "report", "nomatch", "-o", (dir_.path() / "x").string(), "--db", store_});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("REGEX 'nomatch' matches no stored series"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_.path() / "x"));  // refused: no directory left behind
    // A missing DIR, nested, is created; the page is complete (its last line closes it).
    const auto nested = dir_.path() / "a" / "b";
    r = perfgauge({"history", "report", "BM_decode", "-o", nested.string(), "--db", store_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream page(nested / "index.html");
    const std::string html(std::istreambuf_iterator<char>(page), {});
    EXPECT_TRUE(html.ends_with("</html>\n"));
    EXPECT_EQ(html.find("BM_copy"), std::string::npos);
}

// The same page from a PostgreSQL store (the report reads through the one store API).
TEST(HistoryReportPostgreSQL, ReportsAStoreOnTheServer) {
    TempDir dir;
    const std::string store = shared_postgres().new_database();
    for (int r = 0; r < 6; ++r) {
        const auto file = dir.write("r" + std::to_string(r) + ".json",
                                    gbench_json("node-a", 40, static_cast<std::uint64_t>(r)));
        ASSERT_EQ(
            perfgauge({"history", "add", file.string(), "--db", store, "--label", "machine=node-a"})
                .exit_code,
            0);
    }
    const auto out = dir.path() / "site";
    const auto made = perfgauge({"history", "report", "-o", out.string(), "--db", store});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    std::ifstream page(out / "index.html");
    const std::string html(std::istreambuf_iterator<char>(page), {});
    EXPECT_NE(html.find("6 runs, 4 series on 1 machine class,"), std::string::npos) << html;
    EXPECT_TRUE(html.ends_with("</html>\n"));
}

}  // namespace
}  // namespace perfgauge::test
