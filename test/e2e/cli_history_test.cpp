// End-to-end: `perfgauge history` on a SQLite file and on a real PostgreSQL server the test
// starts: 16 concurrent adds leave 16 runs, `check` flags a known slowdown at the run that
// brings it and no earlier (exit 3), bad input changes nothing.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <libpq-fe.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../harness/history/postgres_server.hpp"
#include "../harness/history/synthetic_results.hpp"
#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"
#include "perfgauge/harness/history_store.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/run_report.hpp"

namespace perfgauge::test {
namespace {

enum class Engine { sqlite, postgresql };

class HistoryCli : public ::testing::TestWithParam<Engine> {
  protected:
    std::string db() {
        if (db_.empty())
            db_ = GetParam() == Engine::postgresql ? shared_postgres().new_database()
                                                   : (dir_.path() / "history.db").string();
        return db_;
    }
    std::string result_file(const std::string& name, const harness::RunResult& r) {
        return dir_.write(name, harness::render_run(r, harness::OutputFormat::json)).string();
    }
    // A stand-in Python for plot: keeps the series file it is given at `kept` and writes a
    // picture to the last argument (after -o), wherever the options before it are.
    std::filesystem::path series_keeping_python(const std::filesystem::path& kept) {
        const auto fake = dir_.write("python", "#!/bin/sh\n[ \"$1\" = -c ] && exit 0\ncp \"$2\" '" +
                                                   kept.string() +
                                                   "' && for a; do last=$a; done; echo drawn > "
                                                   "\"$last\"\n");
        EXPECT_EQ(chmod(fake.c_str(), 0755), 0);
        return fake;
    }
    TempDir dir_;
    std::string db_;
};

TEST_P(HistoryCli, SixteenConcurrentAddsLeaveSixteenRuns) {
    std::vector<std::string> files;
    for (int i = 0; i < 16; ++i)
        files.push_back(result_file("r" + std::to_string(i) + ".json",
                                    synthetic_run(10 + i, 0.02, static_cast<std::uint64_t>(i))));
    const std::string store = db();
    (void)harness::HistoryStore::open(store);  // migrated first, as a team's store would be
    std::vector<ProcessResult> results(16);
    std::vector<std::thread> adds;
    for (int i = 0; i < 16; ++i)
        adds.emplace_back([&, i] {
            results[static_cast<std::size_t>(i)] =
                perfgauge({"history", "add", files[static_cast<std::size_t>(i)], "--db", store,
                           "--commit", "c" + std::to_string(i)});
        });
    for (auto& t : adds)
        t.join();
    for (const auto& r : results)
        EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto runs = harness::HistoryStore::open(store)->runs();
    ASSERT_EQ(runs.size(), 16U);
    std::set<std::string> commits;
    for (const auto& r : runs)
        commits.insert(r.commit);
    EXPECT_EQ(commits.size(), 16U);
}

TEST_P(HistoryCli, ConcurrentFirstOpensMigrateOnce) {
    // No store yet: every writer tries to create the schema; one does, the others wait.
    const auto file = result_file("r.json", synthetic_run(10));
    const std::string store = db();
    std::vector<ProcessResult> results(8);
    std::vector<std::thread> adds;
    for (std::size_t i = 0; i < results.size(); ++i)
        adds.emplace_back([&, i] {
            results[i] = perfgauge({"history", "add", file, "--db", store});
        });
    for (auto& t : adds)
        t.join();
    for (const auto& r : results)
        EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto opened = harness::HistoryStore::open(store);
    EXPECT_EQ(opened->runs().size(), results.size());
    EXPECT_EQ(opened->schema_version(), harness::kHistorySchemaVersion);
}

// A +10% step at run 7 in 1% noise, checked after every add as a CI job checks: run 7 alone is
// pending (one run is not a change point), three runs confirm it, and the alarm stands on
// every later run, naming run 7, until it is accepted or reverted.
TEST_P(HistoryCli, CheckFlagsATenPercentSlowdownFromRunSevenAndKeepsFlaggingIt) {
    const std::string store = db();
    for (int run = 1; run <= 12; ++run) {
        // Seeded noise of 1% per sample: the runs' medians and spreads vary as real ones do.
        const auto file =
            result_file("run" + std::to_string(run) + ".json",
                        synthetic_run(run < 7 ? 40 : 44, 0.01, static_cast<std::uint64_t>(run)));
        const auto added = perfgauge(
            {"history", "add", file, "--db", store, "--commit", "commit" + std::to_string(run)});
        ASSERT_EQ(added.exit_code, 0) << added.err;
        const auto checked = perfgauge({"history", "check", "--db", store});
        if (run < 7) {
            EXPECT_EQ(checked.exit_code, 0) << "run " << run << "\n" << checked.out << checked.err;
        } else if (run == 7) {
            EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
            EXPECT_NE(checked.out.find("pending +10."), std::string::npos) << checked.out;
        } else if (run >= 9) {
            EXPECT_EQ(checked.exit_code, 3) << "run " << run << "\n" << checked.out;
            EXPECT_NE(checked.out.find("REGRESSION +"), std::string::npos) << checked.out;
            EXPECT_NE(checked.out.find("(commit7)"), std::string::npos) << checked.out;
        }
    }
    // With runs after it, the shift is a change point at run 7 (index 6).
    const auto shown = perfgauge({"history", "show", "varint", "--db", store});
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    const auto at = shown.out.find("commit7 ");
    ASSERT_NE(at, std::string::npos) << shown.out;
    const auto line_end = shown.out.find('\n', at);
    EXPECT_NE(shown.out.substr(at, line_end - at).find("<- change +10."), std::string::npos)
        << shown.out;
    EXPECT_EQ(shown.out.find("<- change"), shown.out.find("<- change", at)) << shown.out;
    const auto since = perfgauge({"history", "check", "--since", "commit7", "--db", store});
    EXPECT_EQ(since.exit_code, 0) << since.out;  // runs 7-12 alone: one level
    // Accepted, the slower level is the baseline: the gate passes, and says why.
    const auto accepted = perfgauge(
        {"history", "accept", "commit7", "--reason", "the safer decoder costs 10%", "--db", store});
    ASSERT_EQ(accepted.exit_code, 0) << accepted.err;
    const auto after = perfgauge({"history", "check", "--db", store});
    EXPECT_EQ(after.exit_code, 0) << after.out;
    EXPECT_NE(after.out.find("[baseline accepted at commit7: the safer decoder costs 10%]"),
              std::string::npos)
        << after.out;
}

// A slowdown at run 7, then a run that kept no clean sample (every one disturbed, as at a load
// of 14 on 2 CPUs): check names that run, and the regression still stands.
TEST_P(HistoryCli, CheckNamesALatestRunWithoutSamplesAndTheRegressionStands) {
    const std::string store = db();
    for (int run = 1; run <= 8; ++run) {
        const auto file = result_file("run" + std::to_string(run) + ".json",
                                      synthetic_run(run < 7 ? 40 : 44, 0, 1, run == 8 ? 0 : 25));
        ASSERT_EQ(perfgauge({"history", "add", file, "--db", store}).exit_code, 0);
    }
    const auto checked = perfgauge({"history", "check", "--db", store});
    EXPECT_EQ(checked.exit_code, 3) << checked.out << checked.err;
    EXPECT_NE(checked.out.find("run 8: no clean sample, nothing to judge"), std::string::npos)
        << checked.out;
    EXPECT_NE(checked.out.find("REGRESSION +10.0% exactly since run 7"), std::string::npos)
        << checked.out;
    EXPECT_NE(checked.out.find("1 series checked, 1 regression, 1 with no clean sample"),
              std::string::npos)
        << checked.out;
}

TEST_P(HistoryCli, ExportsEverySample) {
    const std::string store = db();
    const auto r = synthetic_run(5, 0.1, 3, 7);
    ASSERT_EQ(perfgauge({"history", "add", result_file("a.json", r), "--db", store}).exit_code, 0);
    const auto json = perfgauge({"history", "export", "--format", "json", "--db", store});
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j.size(), 1U);
    EXPECT_EQ(j[0]["samples"].get<std::vector<double>>(), r.benchmarks[0].ns_per_item);
    const auto csv = perfgauge({"history", "export", "--format", "csv", "--db", store});
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_EQ(csv.out.rfind("run,commit,", 0), 0U) << csv.out;
}

// A run on a named CPU whose benchmarks take `ns` per item and execute `instructions` per item
// (every sample equal: the medians, and so the ratios, are exact).
harness::RunResult counted_run(const std::string& cpu, double ns, double instructions,
                               const std::string& benchmark = "varint/decode") {
    auto r = synthetic_run(ns, 0, 1, 9, cpu, benchmark);
    r.events.push_back(harness::native_column("instructions", pmu::EventKind::hardware, true));
    r.benchmarks[0].counters_per_item = {std::vector<double>(9, instructions)};
    r.benchmarks[0].raw_counters_per_item = r.benchmarks[0].counters_per_item;
    r.benchmarks[0].running_fraction = {1.0};
    return r;
}

TEST_P(HistoryCli, ComparesMachinesAsRatiosOnTheSameBenchmarks) {
    const std::string store = db();
    // CPU B takes 10% longer per item but runs 10% more instructions: per instruction the two
    // machines are alike. Only A ran memcpy: it is left out, not compared with nothing.
    const std::vector<std::pair<std::string, harness::RunResult>> files = {
        {"a1.json", counted_run("CPU A", 40, 100)},
        {"a2.json", counted_run("CPU A", 40, 100, "memcpy")},
        {"b1.json", counted_run("CPU B", 44, 110)},
    };
    for (const auto& [name, r] : files)
        ASSERT_EQ(perfgauge({"history", "add", result_file(name, r), "--db", store}).exit_code, 0);
    auto r = perfgauge({"history", "compare", "--by", "machine", "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto line = [&](const std::string& start) {
        const auto at = r.out.find(start);
        return at == std::string::npos ? "" : r.out.substr(at, r.out.find('\n', at) - at);
    };
    EXPECT_NE(line("  M0").find("CPU A"), std::string::npos) << r.out;  // the first added
    EXPECT_NE(line("varint/decode").find("1.100x"), std::string::npos) << r.out;
    EXPECT_NE(line("  per instruction").find("1.000x"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("memcpy"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 left out"), std::string::npos) << r.out;
    r = perfgauge({"history", "compare", "--by", "machine", "--reference", "CPU B", "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(line("varint/decode").find("0.909x"), std::string::npos) << r.out;
    r = perfgauge({"history", "compare", "--by", "machine", "--reference", "CPU", "--db", store});
    EXPECT_EQ(r.exit_code, 2);  // names both
    EXPECT_NE(r.err.find("2 of the compared machine classes"), std::string::npos) << r.err;
    r = perfgauge({"history", "compare", "--by", "commit", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    r = perfgauge({"history", "compare", "memcpy", "--by", "machine", "--db", store});
    EXPECT_EQ(r.exit_code, 2);  // one machine only
    EXPECT_NE(r.err.find("nothing to compare"), std::string::npos) << r.err;
}

// A pathological pattern on a benchmark name of 1 MB: the one matcher (RE2) answers in linear
// time where std::regex overflowed its stack or never returned; the name is stored on both
// engines (PostgreSQL indexes it by digest). The time is in docs, not asserted.
TEST_P(HistoryCli, APathologicalPatternOnAMegabyteNameAnswers) {
    const std::string store = db();
    const std::string name = std::string(1 << 20, 'a') + "b";
    // Three samples a run: each repetition repeats the name, and 25 made a 26 MB file that
    // took a sanitized build a minute to read.
    for (int run = 1; run <= 2; ++run) {
        auto r = synthetic_run(10 + run, 0, 1, 3, "Test CPU 3000", name);
        r.benchmarks.push_back(synthetic_run(5).benchmarks[0]);  // varint/decode: no match
        const auto added = perfgauge({"history", "add", result_file("big.json", r), "--db", store,
                                      "--commit", "c" + std::to_string(run)});
        ASSERT_EQ(added.exit_code, 0) << added.err;
    }
    const auto shown = perfgauge({"history", "show", "(a|a)*b", "--db", store});
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    EXPECT_EQ(shown.out.find(name), 0U);
    EXPECT_EQ(shown.out.find("varint/decode"), std::string::npos);
    const auto exported = perfgauge({"history", "export", "(a|a)*b", "--db", store});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    std::size_t rows = 0;
    for (auto at = exported.out.find(name); at != std::string::npos;
         at = exported.out.find(name, at + name.size()))
        ++rows;
    EXPECT_EQ(rows, 2U);  // one per run, of the one metric (time)
    EXPECT_EQ(exported.out.find("varint/decode"), std::string::npos);
}

// Bytes that are not UTF-8 in a commit, a label and a file name, and a NUL in a benchmark's
// name: stored as \xNN, the same on both engines, with a note; never a server error or a cut.
TEST_P(HistoryCli, BytesThatAreNotUtf8AreStoredEscapedAndSaid) {
    const std::string store = db();
    auto r = synthetic_run(10);
    r.benchmarks[0].name = std::string("nul\0name", 8);
    const auto file = result_file("r\x80.json", r);
    const auto added = perfgauge(
        {"history", "add", file, "--db", store, "--commit", "c\xFF", "--label", "k=v\xFE"});
    ASSERT_EQ(added.exit_code, 0) << added.err;
    for (const char* escaped :
         {"commit 'c\\xFF'", "labels 'k=v\\xFE'", "nul\\x00name", "\\x80.json"})
        EXPECT_NE(added.err.find(escaped), std::string::npos) << escaped << "\n" << added.err;
    const auto exported = perfgauge({"history", "export", "--format", "json", "--db", store});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    const auto j = nlohmann::json::parse(exported.out);
    ASSERT_EQ(j.size(), 1U);
    EXPECT_EQ(j[0]["commit"], "c\\xFF");
    EXPECT_EQ(j[0]["benchmark"], "nul\\x00name");
    const auto listed = perfgauge({"history", "list", "--db", store});
    EXPECT_NE(listed.out.find("k=v\\xFE"), std::string::npos) << listed.out;
    EXPECT_NE(listed.out.find("r\\x80.json"), std::string::npos) << listed.out;
}

TEST_P(HistoryCli, AcceptRecordsListsAndRefusesWhatItCannotPlace) {
    const std::string store = db();
    for (const char* commit : {"aaa111", "bbb222", "bbc333"}) {
        const auto added = perfgauge({"history", "add", result_file("r.json", synthetic_run(10)),
                                      "--db", store, "--commit", commit});
        ASSERT_EQ(added.exit_code, 0) << added.err;
    }
    auto r = perfgauge({"history", "accept", "bbb", "--reason", "new compiler", "varint",
                        "--metric", "time", "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("from run 2 (commit bbb222)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("metric time: new compiler"), std::string::npos) << r.out;
    r = perfgauge({"history", "accept", "aaa", "--reason", "new compiler", "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("every benchmark, every metric"), std::string::npos) << r.out;
    // Refused, exit 2, nothing recorded: ambiguous, unknown, no reason, a bad REGEX.
    r = perfgauge({"history", "accept", "bb", "--reason", "x", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("bbb222, bbc333"), std::string::npos) << r.err;
    r = perfgauge({"history", "accept", "zzz", "--reason", "x", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no stored run has a commit starting with 'zzz'"), std::string::npos)
        << r.err;
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"aaa"},
                                               {"aaa", "--reason", ""},
                                               {"aaa", "--reason", " "},
                                               {"aaa", "--reason", "x", "("},
                                               {"aaa", "--reason", "x", "--metric", ""},
                                               {"aaa", "--reason", "x", "--metric", "tiem"},
                                               {"aaa", "--reason", "x", "no-such-benchmark"},
                                               {"", "--reason", "x"}}) {
        std::vector<std::string> command = {"history", "accept"};
        command.insert(command.end(), args.begin(), args.end());
        command.insert(command.end(), {"--db", store});
        r = perfgauge(command);
        EXPECT_EQ(r.exit_code, 2) << args[0] << "\n" << r.err;
    }
    const auto listed = perfgauge({"history", "list", "--db", store});
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    const auto at = listed.out.find("accepted:");
    ASSERT_NE(at, std::string::npos) << listed.out;
    std::size_t lines = 0;
    for (auto i = listed.out.find("new compiler", at); i != std::string::npos;
         i = listed.out.find("new compiler", i + 1))
        ++lines;
    EXPECT_EQ(lines, 2U) << listed.out;
}

// plot hands each series' acceptances to its drawing script: the index of the baseline's first
// run, its commit and reason (a stand-in Python keeps the series file the script would read).
TEST_P(HistoryCli, PlotCarriesTheAcceptancesOfEachSeries) {
    const std::string store = db();
    for (int run = 1; run <= 4; ++run) {
        const auto added =
            perfgauge({"history", "add", result_file("r.json", synthetic_run(10 + run)), "--db",
                       store, "--commit", "c" + std::to_string(run)});
        ASSERT_EQ(added.exit_code, 0) << added.err;
    }
    ASSERT_EQ(
        perfgauge({"history", "accept", "c3", "--reason", "new compiler", "--db", store}).exit_code,
        0);
    ASSERT_EQ(perfgauge({"history", "accept", "c4", "--reason", "other", "memcpy", "--db", store})
                  .exit_code,
              2);  // matches no stored benchmark
    const auto kept = dir_.path() / "series.json";
    const auto fake = series_keeping_python(kept);
    const auto out = (dir_.path() / "p.svg").string();
    const auto r = run_process({"/usr/bin/env", "PERFGAUGE_PYTHON=" + fake.string(),
                                PERFGAUGE_CLI_PATH, "history", "plot", "-o", out, "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(read_file(kept));
    ASSERT_EQ(j["series"].size(), 1U);
    const auto& accepted = j["series"][0]["accepted"];
    ASSERT_EQ(accepted.size(), 1U) << j.dump();
    EXPECT_EQ(accepted[0]["index"], 2);
    EXPECT_EQ(accepted[0]["commit"], "c3");
    EXPECT_EQ(accepted[0]["reason"], "new compiler");
}

// A later perfgauge's store is refused (exit 2) by readers and writers alike, and not changed.
TEST_P(HistoryCli, ANewerSchemaIsRefusedByEveryCommand) {
    const std::string store = db();
    const auto file = result_file("r.json", synthetic_run(10));
    ASSERT_EQ(perfgauge({"history", "add", file, "--db", store}).exit_code, 0);
    if (GetParam() == Engine::postgresql) {
        PGconn* c = PQconnectdb(store.c_str());
        PQclear(PQexec(c, "INSERT INTO schema_version VALUES (99, 'later')"));
        PQfinish(c);
    } else {
        ASSERT_EQ(std::system(("sqlite3 '" + store +
                               "' \"INSERT INTO schema_version VALUES (99, 'later'); PRAGMA "
                               "journal_mode=DELETE\" >/dev/null")
                                  .c_str()),
                  0);
    }
    const std::string before = GetParam() == Engine::sqlite ? read_file(store) : "";
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"add", file},
                                               {"list"},
                                               {"show"},
                                               {"check"},
                                               {"export"},
                                               {"forget", "1"},
                                               {"accept", "x", "--reason", "y"}}) {
        std::vector<std::string> command = {"history"};
        command.insert(command.end(), args.begin(), args.end());
        command.insert(command.end(), {"--db", store});
        const auto r = perfgauge(command);
        EXPECT_EQ(r.exit_code, 2) << args[0] << "\n" << r.err;
        EXPECT_NE(r.err.find("schema version 99, newer than this perfgauge's"), std::string::npos)
            << args[0] << "\n"
            << r.err;
    }
    if (GetParam() == Engine::sqlite) {
        EXPECT_EQ(read_file(store), before);
    }
}

// A Google Benchmark result of one benchmark, on `host` (none when empty).
nlohmann::json gbench_result(const std::string& host) {
    nlohmann::json j = {{"context", {{"date", "2026-11-27T12:00:00+00:00"}}},
                        {"benchmarks",
                         {{{"name", "BM_x"},
                           {"run_type", "iteration"},
                           {"iterations", 100},
                           {"real_time", 5.0},
                           {"cpu_time", 5.0},
                           {"time_unit", "ns"}}}}};
    if (!host.empty())
        j["context"]["host_name"] = host;
    return j;
}

// A run counting task-clock (nanoseconds, as perf counts it) and instructions, every sample
// equal: 69.18 ms and 517,860 per item.
harness::RunResult clocked_run() {
    auto r = synthetic_run(6.91757e7, 0, 1, 5);
    r.events.push_back(harness::native_column("task-clock", pmu::EventKind::software, true));
    r.events.push_back(harness::native_column("instructions", pmu::EventKind::hardware, true));
    r.benchmarks[0].counters_per_item = {std::vector<double>(5, 6.91757e7),
                                         std::vector<double>(5, 517860)};
    r.benchmarks[0].raw_counters_per_item = r.benchmarks[0].counters_per_item;
    r.benchmarks[0].running_fraction = {1.0, 1.0};
    return r;
}

// SQL run on the store as it is, on either engine (to make it look like an older store).
void store_sql(Engine engine, const std::string& store, const std::string& sql) {
    if (engine == Engine::postgresql) {
        PGconn* c = PQconnectdb(store.c_str());
        PQclear(PQexec(c, sql.c_str()));
        PQfinish(c);
        return;
    }
    ASSERT_EQ(std::system(("sqlite3 '" + store + "' \"" + sql + "\" >/dev/null").c_str()), 0);
}

// show prints values and spreads in their unit with SI prefixes; export keeps raw numbers and
// states task-clock's unit as ns; both read a store written before add knew it the same way.
TEST_P(HistoryCli, ShowAndExportStateEachMetricsUnit) {
    const std::string store = db();
    ASSERT_EQ(perfgauge({"history", "add", result_file("a.json", clocked_run()), "--db", store})
                  .exit_code,
              0);
    for (const bool old : {false, true}) {
        if (old)  // as perfgauge stored it before: every event a count
            store_sql(GetParam(), store,
                      "UPDATE measurements SET unit = 'count/item' WHERE metric = 'task-clock'");
        auto r = perfgauge({"history", "show", "--metric", "task-clock", "--db", store});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("69.18 ms/item +- 0 ns"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("e+07"), std::string::npos) << r.out;
        r = perfgauge({"history", "show", "--metric", "instructions", "--db", store});
        EXPECT_NE(r.out.find("517.9k/item +- 0"), std::string::npos) << r.out;
        r = perfgauge({"history", "show", "--db", store});
        EXPECT_NE(r.out.find("69.18 ms/item"), std::string::npos) << r.out;  // time
        r = perfgauge({"history", "export", "--format", "json", "--db", store});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        std::map<std::string, std::string> units;
        for (const auto& m : nlohmann::json::parse(r.out)) {
            units[m["metric"]] = m["unit"];
            EXPECT_EQ(m["median"], m["metric"] == "instructions" ? 517860 : 6.91757e7);  // raw
        }
        EXPECT_EQ(units["task-clock"], "ns/item") << r.out;
        EXPECT_EQ(units["instructions"], "count/item");
        EXPECT_EQ(units["time"], "ns/item");
        r = perfgauge({"history", "export", "--format", "csv", "--db", store});
        EXPECT_NE(r.out.find("\"task-clock\",ns/item,sw,69175700,"), std::string::npos) << r.out;
    }
}

// A mistyped --metric names the metrics the matching series store (exit 2) in show, plot and
// compare, as in check.
TEST_P(HistoryCli, AMistypedMetricListsTheStoredOnes) {
    const std::string store = db();
    ASSERT_EQ(perfgauge({"history", "add", result_file("a.json", clocked_run()), "--db", store})
                  .exit_code,
              0);
    const std::string said =
        "--metric 'instructons': no matching series stores it (stored: instructions, task-clock, "
        "time)";
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"show"},
                                               {"plot", "-o", (dir_.path() / "p.svg").string()},
                                               {"compare", "--by", "machine"},
                                               {"check"}}) {
        std::vector<std::string> command = {"history"};
        command.insert(command.end(), args.begin(), args.end());
        command.insert(command.end(), {"--metric", "instructons", "--db", store});
        const auto r = perfgauge(command);
        EXPECT_EQ(r.exit_code, 2) << args[0];
        EXPECT_NE(r.err.find(said), std::string::npos) << args[0] << "\n" << r.err;
    }
    const auto r = perfgauge({"history", "show", "memcpy", "--db", store});
    EXPECT_EQ(r.exit_code, 2);  // no benchmark matches at all: the REGEX named
    EXPECT_NE(r.err.find("REGEX 'memcpy' matches no stored series"), std::string::npos) << r.err;
}

// add records the file named as given, its absolute path and the command the result records
// (a Google Benchmark executable, a stat command); list shows the path and command.
TEST_P(HistoryCli, ListShowsTheAbsolutePathAndTheCommand) {
    const std::string store = db();
    std::filesystem::create_directories(dir_.path() / "sub");
    auto gbench = gbench_result("node-a");
    gbench["context"]["executable"] = "./build/bench_varint";
    dir_.write("sub/gb.json", gbench.dump());
    result_file("sub/run.json", synthetic_run(10));
    const auto stat =
        perfgauge({"stat", "-r", "2", "--format", "json", "-o",
                   (dir_.path() / "sub/stat.json").string(), "--", "/bin/true", "an argument"});
    ASSERT_EQ(stat.exit_code, 0) << stat.err;
    ProcessOptions in_dir;
    in_dir.working_directory = dir_.path();
    for (const char* file : {"sub/gb.json", "sub/../sub/run.json", "./sub/stat.json"}) {
        const auto r = perfgauge_with(in_dir, {"history", "add", file, "--db", store});
        ASSERT_EQ(r.exit_code, 0) << file << "\n" << r.err;
    }
    const auto runs = harness::HistoryStore::open(store)->runs();
    ASSERT_EQ(runs.size(), 3U);
    const std::string sub = (dir_.path() / "sub").string();
    EXPECT_EQ(runs[0].source, "sub/gb.json");  // as given
    EXPECT_EQ(runs[0].path, sub + "/gb.json");
    EXPECT_EQ(runs[0].command, "./build/bench_varint");
    EXPECT_EQ(runs[1].path, sub + "/run.json");
    EXPECT_EQ(runs[1].command, "");  // a perfgauge run result records no command line
    EXPECT_EQ(runs[2].path, sub + "/stat.json");
    EXPECT_EQ(runs[2].command, "/bin/true an argument");
    const auto listed = perfgauge({"history", "list", "--db", store});
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    EXPECT_NE(listed.out.find(sub + "/gb.json (command: ./build/bench_varint)"), std::string::npos)
        << listed.out;
    EXPECT_NE(listed.out.find(sub + "/stat.json (command: /bin/true an argument)"),
              std::string::npos)
        << listed.out;
}

// plot passes each series' unit in words and the factor that makes its axis read plain
// numbers; a text that is not UTF-8 in the store (written by another tool) never throws.
TEST_P(HistoryCli, PlotLabelsItsAxesInTheUnitAndScalesThem) {
    const std::string store = db();
    ASSERT_EQ(perfgauge({"history", "add", result_file("a.json", clocked_run()), "--db", store})
                  .exit_code,
              0);
    if (GetParam() == Engine::sqlite)  // PostgreSQL refuses such bytes; SQLite keeps them
        store_sql(GetParam(), store, "UPDATE measurements SET benchmark = CAST(X'76FF' AS TEXT)");
    const auto kept = dir_.path() / "series.json";
    const auto fake = series_keeping_python(kept);
    std::map<std::string, std::pair<std::string, double>> axes;
    for (const char* metric : {"task-clock", "instructions", "time"}) {
        const auto r = run_process({"/usr/bin/env", "PERFGAUGE_PYTHON=" + fake.string(),
                                    PERFGAUGE_CLI_PATH, "history", "plot", "--metric", metric, "-o",
                                    (dir_.path() / "p.svg").string(), "--db", store});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto j = nlohmann::json::parse(read_file(kept));
        ASSERT_EQ(j["series"].size(), 1U);
        const auto& series = j["series"][0];
        axes[metric] = {series["unit_label"], series["scale"]};
        EXPECT_EQ(series["runs"][0]["median"],
                  metric == std::string("instructions") ? 517860 : 6.91757e7);  // raw, as stored
    }
    EXPECT_EQ(axes["task-clock"], std::make_pair(std::string("ms per item"), 1e-6));
    EXPECT_EQ(axes["time"], std::make_pair(std::string("ms per item"), 1e-6));
    EXPECT_EQ(axes["instructions"], std::make_pair(std::string("thousands per item"), 1e-3));
}

INSTANTIATE_TEST_SUITE_P(Engines, HistoryCli, ::testing::Values(Engine::sqlite, Engine::postgresql),
                         [](const auto& info) {
                             return info.param == Engine::sqlite ? "SQLite" : "PostgreSQL";
                         });

TEST(HistoryCliInput, BadInputIsRefusedAndStoresNothing) {
    TempDir dir;
    const std::string store = (dir.path() / "h.db").string();
    const auto good =
        dir.write("good.json", harness::render_run(synthetic_run(1), harness::OutputFormat::json));
    const auto bad = dir.write("bad.json", "{\"not\": \"a result\"}");
    auto r = perfgauge({"history", "add", good.string(), bad.string(), "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(store));  // checked before the store was opened
    r = perfgauge({"history", "add", good.string(), "--label", "novalue", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("KEY=VALUE"), std::string::npos) << r.err;
    r = perfgauge({"history", "frobnicate"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("add, list, show, check, plot, report, compare, export, accept or forget"),
              std::string::npos);
    ASSERT_EQ(perfgauge({"history", "add", good.string(), "--db", store}).exit_code, 0);
    r = perfgauge({"history", "forget", "7", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    r = perfgauge({"history", "forget", "x1", "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    r = perfgauge({"history", "export", "-o", store, "--db", store});  // would replace it
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("the history store"), std::string::npos) << r.err;
    EXPECT_EQ(harness::HistoryStore::open(store)->runs().size(), 1U);
    r = perfgauge({"history", "check", "--db", (dir.path() / "typo.db").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no history store at"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "typo.db"));
    r = perfgauge({"history", "list", "--db", "postgresql:///x?host=/nonexistent&port=1"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("cannot connect to the history store"), std::string::npos) << r.err;
}

// history add of files taking past a second shows its progress on a terminal (script(1) gives
// it one): the first file is a FIFO written 1.2 s later, so the second file is read after the
// quiet second whatever the machine's speed. Not with -q, never into a pipe.
TEST(HistoryCliInput, AddShowsProgressOnlyOnATerminal) {
    if (!std::filesystem::exists("/usr/bin/script") || !std::filesystem::exists("/usr/bin/mkfifo"))
        GTEST_SKIP() << "needs script(1) and mkfifo(1) from coreutils and util-linux";
    TempDir dir;
    const auto good =
        dir.write("good.json", harness::render_run(synthetic_run(1), harness::OutputFormat::json));
    // A shell line adding the late FIFO and the file twice into a store of its own.
    const auto add_late = [&](const std::string& name, const std::string& options) {
        const std::string fifo = (dir.path() / (name + ".fifo")).string();
        const std::string store = (dir.path() / (name + ".db")).string();
        return "mkfifo '" + fifo + "' || exit 9; (sleep 1.2; exec timeout 10 cp '" + good.string() +
               "' '" + fifo + "') & exec '" + PERFGAUGE_CLI_PATH + "' history add " + options +
               " --db '" + store + "' '" + fifo + "' '" + good.string() + "' '" + good.string() +
               "'";
    };
    const auto tty = run_process({"/usr/bin/script", "-qec", add_late("tty", ""), "/dev/null"});
    ASSERT_EQ(tty.exit_code, 0) << tty.out << tty.err;
    EXPECT_NE(tty.out.find("\r\033[Kperfgauge history add: reading 2/3"), std::string::npos)
        << tty.out;
    EXPECT_NE(tty.out.find("added run 3"), std::string::npos) << tty.out;
    const auto quiet =
        run_process({"/usr/bin/script", "-qec", add_late("quiet", "-q"), "/dev/null"});
    ASSERT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;
    EXPECT_EQ(quiet.out.find("perfgauge history add: reading"), std::string::npos) << quiet.out;
    const auto piped = run_process({"/bin/sh", "-c", add_late("piped", "")});
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(piped.err.find("reading"), std::string::npos) << piped.err;
    EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.err;
}

// Only postgresql:// and postgres:// (lower case) name a server; any other scheme, from --db or
// $PERFGAUGE_DB, is exit 2 naming the accepted forms, and no file is made named like it.
TEST(HistoryCliInput, UnknownSchemesAreRefusedAndMakeNoFile) {
    TempDir dir;
    const auto good =
        dir.write("good.json", harness::render_run(synthetic_run(1), harness::OutputFormat::json));
    ProcessOptions here;
    here.working_directory = dir.path();
    for (const std::string bad :
         {"mysql://me:s3cretpw@h/db", "postgresql+psycopg://h/db", "HTTP://h/x",
          "POSTGRESQL://me:s3cretpw@h/db", "Postgres://h/db", "file:h.db", "sqlite:///h.db"}) {
        for (const auto& r : {perfgauge_with(here, {"history", "add", good.string(), "--db", bad}),
                              perfgauge_with(here, {"history", "list", "--db", bad}),
                              run_process({"/usr/bin/env", "PERFGAUGE_DB=" + bad,
                                           PERFGAUGE_CLI_PATH, "history", "add", good.string()},
                                          here)}) {
            EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.err;
            EXPECT_NE(r.err.find("postgresql://... or postgres://..."), std::string::npos) << r.err;
            EXPECT_EQ(r.err.find("s3cretpw"), std::string::npos) << r.err;
        }
        std::size_t entries = 0;
        for ([[maybe_unused]] const auto& e :
             std::filesystem::recursive_directory_iterator(dir.path()))
            ++entries;
        EXPECT_EQ(entries, 1U) << bad;  // good.json alone
    }
    const auto env = run_process(
        {"/usr/bin/env", "PERFGAUGE_DB=mysql://h/db", PERFGAUGE_CLI_PATH, "history", "list"});
    EXPECT_NE(env.err.find("$PERFGAUGE_DB"), std::string::npos) << env.err;
}

// A path that is no store (a directory, a device, a FIFO, a file that is not SQLite, another
// program's database with a schema_version table of its own) is exit 2, and left as it was.
TEST(HistoryCliInput, PathsThatAreNoStoreAreRefusedAndLeftAsTheyWere) {
    TempDir dir;
    const auto good =
        dir.write("good.json", harness::render_run(synthetic_run(1), harness::OutputFormat::json));
    const auto fifo = dir.path() / "fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const std::string other = (dir.path() / "other.db").string();
    ASSERT_EQ(std::system(("sqlite3 '" + other +
                           "' \"CREATE TABLE schema_version (version TEXT); INSERT INTO "
                           "schema_version VALUES ('V1__init')\"")
                              .c_str()),
              0);
    const std::string before = read_file(other);
    for (const std::string& store :
         {dir.path().string(), std::string("/dev/null"), fifo.string(), good.string(), other}) {
        for (const char* sub : {"add", "list"}) {
            std::vector<std::string> command = {"history", sub};
            if (std::string(sub) == "add")
                command.push_back(good.string());
            command.insert(command.end(), {"--db", store});
            const auto r = perfgauge(command);
            EXPECT_EQ(r.exit_code, 2) << sub << " " << store << "\n" << r.err;
            EXPECT_NE(r.err.find(store), std::string::npos) << r.err;
        }
    }
    EXPECT_EQ(read_file(other), before);
    EXPECT_EQ(read_file(good), harness::render_run(synthetic_run(1), harness::OutputFormat::json));
    EXPECT_FALSE(std::filesystem::exists("/dev/null-journal"));
    EXPECT_FALSE(std::filesystem::exists("/dev/null-wal"));
}

// A password in the URI, as user:pass@ or ?password=, is never printed: not in perfgauge's words
// and not in libpq's (which may quote the URI it could not use).
TEST(HistoryCliInput, PasswordsAreRedactedInEveryMessage) {
    for (const std::string uri : {"postgresql://me:s3cretpw@/x?host=/nonexistent&port=1",
                                  "postgresql:///x?host=/nonexistent&port=1&password=s3cretpw",
                                  "postgresql://me:s3cretpw@/x?host=/nonexistent&port=notaport",
                                  "postgres://me:s3cretpw@/x?host=/nonexistent&bogus=1",
                                  "postgresql://me:s3cretpw@[::1/x"}) {
        const auto r = perfgauge({"history", "list", "--db", uri});
        EXPECT_NE(r.exit_code, 0) << uri;
        EXPECT_EQ(r.err.find("s3cretpw"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("***"), std::string::npos) << r.err;
    }
}

// Every read command on a database that holds no perfgauge history: exit 2 saying so, and the
// database left as it was (no table made).
TEST(HistoryCliPostgreSQL, ReadCommandsLeaveAForeignDatabaseAsItWas) {
    const std::string uri = shared_postgres().new_database();
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"list"}, {"show"}, {"check"}, {"export"}, {"compare", "--by", "machine"}}) {
        std::vector<std::string> command = {"history"};
        command.insert(command.end(), args.begin(), args.end());
        command.insert(command.end(), {"--db", uri});
        const auto r = perfgauge(command);
        EXPECT_EQ(r.exit_code, 2) << args[0] << "\n" << r.err;
        EXPECT_NE(r.err.find("no perfgauge history in postgresql://"), std::string::npos) << r.err;
    }
    PGconn* c = PQconnectdb(uri.c_str());
    PGresult* tables = PQexec(c, "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'");
    EXPECT_STREQ(PQgetvalue(tables, 0, 0), "0");
    PQclear(tables);
    PQfinish(c);
}

// list, show, check and export on a store its reader may not write (a 0444 file in a 0555
// directory, read by another user): they work, and write nothing (no -wal, no -shm, same bytes).
TEST(HistoryCliInput, ReadCommandsWorkOnAStoreTheyCannotWrite) {
    TempDir dir;
    const auto sub = dir.path() / "ro";
    std::filesystem::create_directory(sub);
    const std::string store = (sub / "h.db").string();
    for (int run = 1; run <= 3; ++run) {
        const auto file = dir.write(
            "r.json", harness::render_run(synthetic_run(10), harness::OutputFormat::json));
        ASSERT_EQ(perfgauge({"history", "add", file.string(), "--db", store, "--commit",
                             "c" + std::to_string(run)})
                      .exit_code,
                  0);
    }
    const std::string before = read_file(store);
    ASSERT_EQ(chmod(store.c_str(), 0444), 0);
    ASSERT_EQ(chmod(sub.c_str(), 0555), 0);
    ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
    // As root, the reader is `nobody`: root would write through any permission.
    std::vector<std::string> as_reader;
    if (geteuid() == 0)
        as_reader = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"list"}, {"show"}, {"check"}, {"export"}, {"export", "--format", "json"}}) {
        auto command = as_reader;
        command.push_back(PERFGAUGE_CLI_PATH);
        command.push_back("history");
        command.insert(command.end(), args.begin(), args.end());
        command.insert(command.end(), {"--db", store});
        const auto r = run_process(command);
        EXPECT_EQ(r.exit_code, 0) << args[0] << "\n" << r.err;
        EXPECT_NE(r.out.find("c3"), std::string::npos) << args[0] << "\n" << r.out;
    }
    EXPECT_EQ(read_file(store), before);
    EXPECT_FALSE(std::filesystem::exists(store + "-wal"));
    EXPECT_FALSE(std::filesystem::exists(store + "-shm"));
    chmod(sub.c_str(), 0755);  // for TempDir to remove
}

TEST(HistoryCliPlot, DrawsTheSeriesWithItsChangePointMarked) {
    TempDir dir;
    const std::string store = (dir.path() / "h.db").string();
    for (int run = 1; run <= 12; ++run) {
        // Deterministic runs (every sample equal): the change at run 7 is found exactly.
        const auto file = dir.write(
            "r" + std::to_string(run) + ".json",
            harness::render_run(synthetic_run(run < 7 ? 40 : 44), harness::OutputFormat::json));
        ASSERT_EQ(perfgauge({"history", "add", file.string(), "--db", store, "--commit",
                             "commit" + std::to_string(run)})
                      .exit_code,
                  0);
    }
    const auto svg = dir.path() / "h.svg";
    auto r = perfgauge({"history", "plot", "varint", "-o", svg.string(), "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string drawn = read_file(svg);
    EXPECT_NE(drawn.find("<svg"), std::string::npos);
    EXPECT_NE(drawn.find("change +10.0% [+10.0%, +10.0%] regression, run 7"), std::string::npos);
    EXPECT_NE(drawn.find("varint/decode [time] on Test CPU 3000"), std::string::npos);
    const auto png = dir.path() / "h.png";
    r = perfgauge({"history", "plot", "-o", png.string(), "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(png).substr(0, 4), "\x89PNG");
    r = perfgauge({"history", "plot", "-o", (dir.path() / "h.pdf").string(), "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    r = perfgauge({"history", "plot", "nomatch", "-o", svg.string(), "--db", store});
    EXPECT_EQ(r.exit_code, 2);
}

TEST(HistoryCliInput, FilesWithoutAMachineNeedALabelAndNeverShareAClass) {
    TempDir dir;
    const std::string store = (dir.path() / "h.db").string();
    const auto gbench = [&](const std::string& name, const std::string& host) {
        return dir.write(name, gbench_result(host).dump()).string();
    };
    auto r = perfgauge({"history", "add", gbench("anon.json", ""), "--db", store});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--label machine=NAME"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(store));
    for (const auto& [file, extra] :
         std::vector<std::pair<std::string, std::string>>{{gbench("a.json", "node-a"), ""},
                                                          {gbench("b.json", "node-b"), ""},
                                                          {gbench("c.json", ""), "machine=box"}}) {
        std::vector<std::string> args = {"history", "add", file, "--db", store};
        if (!extra.empty())
            args.insert(args.end(), {"--label", extra});
        r = perfgauge(args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    std::set<std::string> classes;
    for (const auto& run : harness::HistoryStore::open(store)->runs())
        classes.insert(run.machine_class);
    EXPECT_EQ(classes.size(), 3U);  // node-a, node-b, box: three machines, three classes
}

TEST(HistoryCliInput, CommitDefaultsToTheGitHeadOfTheCurrentDirectory) {
    TempDir dir;
    const auto repo = dir.path() / "repo";
    std::filesystem::create_directories(repo);
    const std::string git =
        "git -C " + repo.string() + " -c user.name=t -c user.email=t@t -c commit.gpgsign=false ";
    ASSERT_EQ(std::system((git + "init -q && " + git + "commit -q --allow-empty -m x").c_str()), 0);
    const auto head = run_process({"/usr/bin/git", "-C", repo.string(), "rev-parse", "HEAD"});
    ASSERT_EQ(head.exit_code, 0);
    const auto file =
        dir.write("r.json", harness::render_run(synthetic_run(1), harness::OutputFormat::json));
    const std::string store = (dir.path() / "h.db").string();
    ProcessOptions in_repo;
    in_repo.working_directory = repo;
    const auto r = perfgauge_with(in_repo, {"history", "add", file.string(), "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto runs = harness::HistoryStore::open(store)->runs();
    ASSERT_EQ(runs.size(), 1U);
    EXPECT_EQ(runs[0].commit + "\n", head.out);
}

// The real script draws the axis in the unit's words, with plain numbers (no 1e7 offset).
TEST(HistoryCliPlot, TheAxisNamesTheUnitInWords) {
    TempDir dir;
    const std::string store = (dir.path() / "h.db").string();
    const auto file = dir.write(
        "r.json", harness::render_run(synthetic_run(6.91757e7, 0.01), harness::OutputFormat::json));
    ASSERT_EQ(perfgauge({"history", "add", file.string(), "--db", store}).exit_code, 0);
    const auto svg = dir.path() / "h.svg";
    const auto r = perfgauge({"history", "plot", "-o", svg.string(), "--db", store});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Only what is drawn as text: the SVG's element ids are random hex, which may hold "1e7".
    const std::string svg_text = read_file(svg);
    std::string drawn;
    for (auto at = svg_text.find("<text"); at != std::string::npos;
         at = svg_text.find("<text", at + 1)) {
        const auto start = svg_text.find('>', at);
        const auto end = svg_text.find('<', start);
        if (start == std::string::npos || end == std::string::npos)
            break;
        drawn += svg_text.substr(start + 1, end - start - 1) + "\n";
    }
    EXPECT_NE(drawn.find("ms per item"), std::string::npos) << drawn;
    EXPECT_EQ(drawn.find("1e7"), std::string::npos) << drawn;
    EXPECT_EQ(drawn.find("ns/item"), std::string::npos) << drawn;
}

// An interrupt while plot looks for its Python (before any scratch directory): said once,
// exit 130, nothing written and no scratch left.
TEST(HistoryCliPlot, AnInterruptBeforeDrawingLeavesNothing) {
    TempDir dir;
    const std::string store = (dir.path() / "h.db").string();
    const auto file =
        dir.write("r.json", harness::render_run(synthetic_run(10), harness::OutputFormat::json));
    ASSERT_EQ(perfgauge({"history", "add", file.string(), "--db", store}).exit_code, 0);
    // The matplotlib check interrupts perfgauge, as a Ctrl-C at that moment would.
    const auto fake = dir.write("python",
                                "#!/bin/sh\n[ \"$1\" = -c ] && kill -INT $PPID && exit 0\n"
                                "for a; do last=$a; done; echo drawn > \"$last\"\n");
    ASSERT_EQ(chmod(fake.c_str(), 0755), 0);
    const auto tmp = dir.path() / "tmp";
    std::filesystem::create_directories(tmp);
    const auto svg = dir.path() / "h.svg";
    const auto r =
        run_process({"/usr/bin/env", "PERFGAUGE_PYTHON=" + fake.string(), "TMPDIR=" + tmp.string(),
                     PERFGAUGE_CLI_PATH, "history", "plot", "-o", svg.string(), "--db", store});
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_NE(r.err.find("interrupted by SIGINT before drawing"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(svg));
    EXPECT_TRUE(std::filesystem::is_empty(tmp));
}

}  // namespace
}  // namespace perfgauge::test
