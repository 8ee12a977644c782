// End-to-end: `perfgauge selftest`. Structure, exit statuses, the JSON's fields and the
// messages for bad options, with the hidden --tiny depth (two runs of a few samples: seconds of
// work whose figures mean nothing, so no measured value is asserted on).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "../support/cli.hpp"
#include "../support/full_filesystem.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

TEST(CliSelftest, TinyRunWritesTableAndJson) {
    TempDir dir;
    const auto json_path = dir.path() / "selftest.json";
    // Its own TMPDIR: the separate runs' and run --against's scratch files must all be gone.
    const auto tmp = dir.path() / "tmp";
    std::filesystem::create_directory(tmp);
    const auto r = run_process({"/usr/bin/env", "TMPDIR=" + tmp.string(), PERFGAUGE_CLI_PATH,
                                "selftest", "--tiny", "--json", json_path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(tmp));
    // stderr is a pipe: no progress line, not even one now and then.
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("runs 0/"), std::string::npos) << r.err;
    for (const char* text : {"perfgauge selftest (tiny: 2 runs",
                             "noise floor:",
                             "disturbed samples:",
                             "IN TURN",
                             "ACROSS RUNS",
                             "(NO --FLOOR)",
                             "too few trials for a between-run floor",
                             "STAT SIDE BY SIDE",
                             "RUN --AGAINST",
                             "A/A called different",
                             "+5% found (slower)",
                             "+50% found (slower)",
                             "smallest found in 95%",
                             "too few clean samples",
                             "(stat side by side: 1 trials of 5 rounds",
                             "run --against: 1 trials, 3 to 3 pairs",
                             "correction check (seed 000",
                             "side by side in processes (stat)",
                             "in pairs of processes (run --against)",
                             "this machine resolves "}) {
        EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
    }
    // Every run and every trial measured to its end: nothing to say is not covered.
    EXPECT_EQ(r.out.find("not covered"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("not measured"), std::string::npos) << r.out;
    const auto j = nlohmann::json::parse(read_file(json_path));
    EXPECT_EQ(j["depth"], "tiny");
    EXPECT_EQ(j["runs"], 2);
    EXPECT_EQ(j["changes_pct"], nlohmann::json::array({5, 50}));
    for (const char* side : {"in_turn", "across_runs", "across_runs_without_floor",
                             "stat_side_by_side", "run_against"}) {
        const auto& s = j[side];
        ASSERT_TRUE(s.is_object()) << side;
        for (const char* key : {"hits", "trials", "share", "low95", "high95"}) {
            EXPECT_TRUE(s["aa_false_positives"].contains(key)) << side << " " << key;
            EXPECT_TRUE(s["too_few_samples"].contains(key)) << side << " " << key;
        }
        ASSERT_EQ(s["power"].size(), 2u) << side;
        EXPECT_EQ(s["power"][0]["change_pct"], 5);
        EXPECT_TRUE(s["power"][1]["detected"].contains("trials"));
        for (const char* verdict :
             {"faster", "slower", "equivalent", "inconclusive", "too_few_samples"}) {
            EXPECT_TRUE(s["aa_verdicts"].contains(verdict)) << side << " " << verdict;
            EXPECT_TRUE(s["power"][0]["verdicts"].contains(verdict)) << side << " " << verdict;
        }
        EXPECT_TRUE(s.contains("smallest_change_pct"));
        EXPECT_TRUE(s["methods"].is_array());
    }
    // Two runs: at most two trials in turn, one across (fewer when a benchmark kept no sample).
    EXPECT_LE(j["in_turn"]["aa_false_positives"]["trials"].get<int>(), 2);
    EXPECT_LE(j["across_runs"]["aa_false_positives"]["trials"].get<int>(), 1);
    // One trial of each way across processes, run to its end: every work compared once.
    for (const char* side : {"stat_side_by_side", "run_against"}) {
        const auto& s = j[side];
        EXPECT_TRUE(s["stopped_early"].is_null()) << side << " " << s["stopped_early"];
        EXPECT_EQ(s["aa_false_positives"]["trials"], 1) << side;
        EXPECT_EQ(s["power"][1]["detected"]["trials"], 1) << side;
        EXPECT_GT(s["seconds"].get<double>(), 0) << side;
    }
    EXPECT_EQ(j["processes"]["side_by_side_rounds"], 5);
    EXPECT_GE(j["processes"]["side_by_side_iterations"].get<int>(), 1);
    for (const char* key : {"within_run", "between_runs"})
        EXPECT_TRUE(j["noise_floor"][key].contains("median")) << key;
    EXPECT_TRUE(j["disturbed_samples"].contains("share"));
    EXPECT_GT(j["disturbed_samples"]["trials"].get<int>(), 0);
    EXPECT_EQ(j["correction_check"]["rows"].size(), 1u);
    EXPECT_TRUE(j["correction_check"]["pass"].is_boolean());
    EXPECT_TRUE(j["not_measured"].empty()) << j["not_measured"];
    EXPECT_EQ(j["verdict"].get<std::string>().rfind("this machine resolves ", 0), 0u);
    EXPECT_NE(r.out.find(j["verdict"].get<std::string>()), std::string::npos);
    EXPECT_GT(j["seconds"].get<double>(), 0);
}

TEST(CliSelftest, HelpListsOptionsButNotTheHiddenOne) {
    const auto r = perfgauge({"selftest", "--help"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* text : {"--quick", "--thorough", "--runs", "--json"})
        EXPECT_NE(r.out.find(text), std::string::npos) << text;
    EXPECT_EQ(r.out.find("--tiny"), std::string::npos);
    const auto usage = perfgauge({"--help"});
    EXPECT_NE(usage.out.find("selftest"), std::string::npos);
}

TEST(CliSelftest, BadOptionsExitTwoBeforeAnyWork) {
    struct Case {
        std::vector<std::string> args;
        const char* message;
    };
    TempDir dir;
    const auto missing_dir = (dir.path() / "no-such-dir" / "x.json").string();
    for (const Case& c : std::vector<Case>{
             {{"selftest", "--quick", "--thorough"}, "--quick and --thorough exclude each other"},
             {{"selftest", "--runs", "1"}, "--runs must be 2 to 10000"},
             {{"selftest", "--runs", "many"}, "runs"},
             {{"selftest", "--json"}, "json"},
             {{"selftest", "--json", "-"}, "'-' names no file here"},
             {{"selftest", "--json", missing_dir}, "no-such-dir"},
             {{"selftest", "--json", ""}, "--json '' names no file"},
             {{"selftest", "--json", dir.path().string()}, "it is a directory"},
             {{"selftest", "--json", "/dev/full"}, "every write fails"},
             {{"selftest", "--bogus"}, "bogus"}}) {
        const auto r = perfgauge(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args.back() << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("perfgauge selftest"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;  // no table: nothing was measured
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "no-such-dir"));
}

// A --json file on a full file system is refused before the work, not after it (exit 2), and
// the room it was tried with is not left behind.
TEST(CliSelftest, JsonOnAFullFileSystemIsRefusedBeforeAnyWork) {
    FullFilesystem full;
    if (!full.available())
        GTEST_SKIP() << full.why_not();
    const auto json = full.path() / "selftest.json";
    const auto r = perfgauge({"selftest", "--tiny", "--json", json.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("cannot write --json '" + json.string() +
                         "': its file system has no room for it (No space left on device)"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    std::vector<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(full.path()))
        left.push_back(entry.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"filler"});
}

// Children that cannot keep a result (no $TMPDIR for their scratch directory): the ways that
// made no trial say "not measured" and why, never that the machine resolves "no change up to
// 50%" that way, and the exit status is 1; the way that needs no scratch file still measures.
TEST(CliSelftest, AWayThatMeasuredNothingSaysSoAndExitsOne) {
    TempDir dir;
    const auto json_path = dir.path() / "selftest.json";
    const auto missing = dir.path() / "no-tmp";
    const auto r = run_process({"/usr/bin/env", "TMPDIR=" + missing.string(), PERFGAUGE_CLI_PATH,
                                "selftest", "--tiny", "--json", json_path.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const std::string why = "cannot create a directory for the separate runs' results in " +
                            missing.string() + " ($TMPDIR)";
    EXPECT_NE(
        r.out.find("not measured: in turn and across separate runs: the separate runs: " + why),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("not measured: run --against: trial 1 of 1: cannot create a directory"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("no change up to 50% measured in turn"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("no change up to 50% across"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("this machine resolves "), std::string::npos) << "stat measured";
    EXPECT_NE(r.out.find("; not measured: in turn, across separate runs, run --against"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("perfgauge selftest: not measured: in turn and across separate runs"),
              std::string::npos)
        << r.err;
    const auto j = nlohmann::json::parse(read_file(json_path));
    ASSERT_EQ(j["not_measured"].size(), 2u) << j["not_measured"];
    EXPECT_EQ(j["in_turn"]["aa_false_positives"]["trials"], 0);
    EXPECT_EQ(j["stat_side_by_side"]["aa_false_positives"]["trials"], 1);
    EXPECT_FALSE(std::filesystem::exists(missing));
}

}  // namespace
}  // namespace perfgauge::test
