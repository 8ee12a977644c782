// End-to-end: what the request parser settles for run and stat. A selection names every
// benchmark once (repeats folded with one note); a negative value for an unsigned option says
// so instead of becoming 18446744073709551615; format lists name every format.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"
#include "../support/text.hpp"

namespace perfgauge::test {
namespace {

const std::vector<std::string> kTiny = {
    "run", "--l3",       "64K", "-r",       "3",    "--min-time", "0.0002", "--warmup",    "0",
    "-e",  "task-clock", "-q",  "--format", "json", "--json",     "none",   "--processes", "1"};

std::vector<std::string> tiny(std::vector<std::string> more) {
    auto args = kTiny;
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// The benchmark names of a run's JSON result (its median entries: one per benchmark), each
// required once.
std::vector<std::string> unique_names(const std::string& text) {
    const auto json = nlohmann::json::parse(text);
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (const auto& b : json["benchmarks"]) {
        if (b.value("aggregate_name", "") != "median")
            continue;
        names.push_back(b["name"].get<std::string>());
        EXPECT_TRUE(seen.insert(names.back()).second) << "measured twice: " << names.back();
    }
    return names;
}

TEST(CliRequest, EqualSizesWrittenDifferentlyAreMeasuredOnce) {
    const auto r =
        perfgauge(tiny({"--workload", "memcpy", "--cache", "hot", "--sizes", "4K,4096,1K,1K"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(unique_names(r.out).size(), 2u) << r.out;
    EXPECT_TRUE(contains(r.err,
                         "--sizes: '4096' is '4K' again, '1K' is given twice; each is "
                         "measured once"))
        << r.err;
}

TEST(CliRequest, RepeatedNamesInEverySelectionAreFolded) {
    const auto r = perfgauge(
        tiny({"--workload", "varint,varint", "--variant", "branchy,branchy", "--cache", "hot,hot",
              "--dist", "fixed1,fixed1", "--shape", "end-on-end,end-on-end", "--sizes", "64"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(unique_names(r.out).size(), 1u) << r.out;
    for (const char* option : {"--workload", "--variant", "--cache", "--dist", "--shape"}) {
        EXPECT_TRUE(contains(r.err, std::string("perfgauge run: ") + option + ": ")) << r.err;
    }
}

TEST(CliRequest, NegativeUnsignedValuesSaySo) {
    for (const auto& [option, message] : std::vector<std::pair<std::string, std::string>>{
             {"--sim-jobs", "--sim-jobs must be a non-negative integer"},
             {"--sim-items", "--sim-items must be a positive integer"},
             {"--seed", "--seed must be a non-negative integer"},
             {"--data-seed", "--data-seed must be a non-negative integer"}}) {
        const auto r = perfgauge(tiny({option + "=-1"}));
        EXPECT_EQ(r.exit_code, 2) << option << ": " << r.err;
        EXPECT_TRUE(contains(r.err, message)) << r.err;
        EXPECT_TRUE(contains(r.err, ", not -1\n")) << r.err;
        EXPECT_FALSE(contains(r.err, "18446744073709551615")) << r.err;
        EXPECT_FALSE(contains(r.err, "4294967295")) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    const auto text = perfgauge(tiny({"--seed", "x1"}));
    EXPECT_EQ(text.exit_code, 2) << text.err;
    EXPECT_TRUE(contains(text.err, "the argument ('x1') for option '--seed' is invalid"))
        << text.err;
}

TEST(CliRequest, FormatListsAreComplete) {
    const auto run = perfgauge({"run", "--format", "bogus"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_TRUE(contains(run.err, "choose table, csv, json, md or answer")) << run.err;
    const auto exported = perfgauge({"export", "none.json", "--format", "bogus"});
    EXPECT_EQ(exported.exit_code, 2);
    EXPECT_TRUE(contains(exported.err, "choose table, csv, json, md or bmf")) << exported.err;
}

// A run's outputs are written independently (issue 38, class 3): a JSON result that cannot be
// written (/dev/full passes every check made up front) leaves the table in -o, and the
// reverse; each failure is named, and the exit status is 1.
TEST(CliRequest, EachOutputIsWrittenWhateverHappensToTheOthers) {
    TempDir dir;
    const std::vector<std::string> run = {
        "run",      "--l3", "64K",     "-r",         "3",           "--min-time", "0.0002",
        "--warmup", "0",    "-e",      "task-clock", "-q",          "--workload", "memcpy",
        "--cache",  "hot",  "--sizes", "1K",         "--processes", "1"};
    const auto read = [](const std::filesystem::path& path) {
        std::ostringstream text;
        text << std::ifstream(path).rdbuf();
        return text.str();
    };
    auto args = run;
    const auto table = dir.path() / "table.txt";
    args.insert(args.end(), {"--json", "/dev/full", "-o", table.string()});
    const auto no_json = perfgauge(args);
    EXPECT_EQ(no_json.exit_code, 1) << no_json.err;
    EXPECT_TRUE(contains(read(table), "BENCHMARK")) << no_json.err;
    EXPECT_TRUE(contains(no_json.err, "perfgauge run: error: --json: cannot write '/dev/full'"))
        << no_json.err;

    args = run;
    const auto json = dir.path() / "r.json";
    args.insert(args.end(), {"--json", json.string(), "-o", "/dev/full"});
    const auto no_table = perfgauge(args);
    EXPECT_EQ(no_table.exit_code, 1) << no_table.err;
    EXPECT_FALSE(nlohmann::json::parse(read(json))["benchmarks"].empty());
    EXPECT_TRUE(contains(no_table.err, "perfgauge run: result saved to " + json.string()))
        << no_table.err;
    EXPECT_TRUE(contains(no_table.err, "perfgauge run: error: -o: cannot write '/dev/full'"))
        << no_table.err;
}

// A build that does not read this build's request format (one from before it) refuses its
// request with exit 2 at the first child; run --against says what that means.
TEST(CliRequest, AnOtherBuildThatRefusesTheRequestIsNamed) {
    TempDir dir;
    const auto older = dir.path() / "older-perfgauge";
    std::ofstream(older) << "#!/bin/sh\necho \"perfgauge run: unrecognised option\" >&2\nexit 2\n";
    std::filesystem::permissions(older, std::filesystem::perms::owner_all);
    const auto r = perfgauge({"run",        "--l3",    "64K",        "-r",        "3",
                              "--min-time", "0.0002",  "--warmup",   "0",         "-e",
                              "task-clock", "-q",      "--workload", "memcpy",    "--cache",
                              "hot",        "--sizes", "1K",         "--against", older.string(),
                              "--pairs",    "3",       "--json",     "none",      "--against-json",
                              "none"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "the other build (" + older.string() + ") exited with 2")) << r.err;
    EXPECT_TRUE(contains(r.err, "--against needs a perfgauge that reads request format 1"))
        << r.err;
}

}  // namespace
}  // namespace perfgauge::test
