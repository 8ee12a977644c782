// End-to-end: `perfgauge run --against OTHER`, this build measured in turn with another, here
// with itself (an A/A comparison). Small selections; timings are not asserted, the pairing is.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <perfgauge/harness/compare.hpp>
#include <perfgauge/harness/statistics.hpp>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

// A tiny selection (two benchmarks) measured in turn with `other`, in exactly `pairs` pairs
// unless `max_pairs` allows more; `more` adds options, `pairs` and `backend` replace those given.
std::vector<std::string> against(const std::string& other, std::vector<std::string> more,
                                 const std::string& pairs = "3",
                                 const std::string& backend = "perf",
                                 const std::string& max_pairs = "") {
    std::vector<std::string> args = {"run",
                                     "--against",
                                     other,
                                     "--workload",
                                     "varint,memcpy",
                                     "--variant",
                                     "branchy",
                                     "--cache",
                                     "hot",
                                     "--sizes",
                                     "1K",
                                     "--l3",
                                     "64K",
                                     "--pairs",
                                     pairs,
                                     "--max-pairs",
                                     max_pairs.empty() ? pairs : max_pairs,
                                     "-r",
                                     "3",
                                     "--min-time",
                                     "0.0002",
                                     "--warmup",
                                     "0",
                                     "--max-time",
                                     "0.01",
                                     "-e",
                                     "task-clock",
                                     "--backend",
                                     backend,
                                     "-q"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// Per benchmark of a saved result: its samples' process tags and rounds.
struct Samples {
    std::set<int> processes;
    std::set<int> rounds;
};

std::map<std::string, Samples> samples_of(const nlohmann::json& result) {
    std::map<std::string, Samples> out;
    for (const auto& b : result["benchmarks"]) {
        if (b["run_type"] != "iteration")
            continue;
        out[b["run_name"]].processes.insert(b["perfgauge_process"].get<int>());
        out[b["run_name"]].rounds.insert(b["repetition_index"].get<int>());
    }
    return out;
}

// Per workload (memcpy, varint) of a saved result: its clean samples in ns per item, each with
// the measuring process that took it (process i of one build is paired with process i of the
// other).
struct ProcessSamples {
    std::vector<double> ns_per_item;
    std::vector<std::size_t> process;
};
std::map<std::string, ProcessSamples> samples_by_workload(const nlohmann::json& result) {
    std::map<std::string, ProcessSamples> out;
    for (const auto& b : result["benchmarks"]) {
        if (b["run_type"] != "iteration")
            continue;
        const std::string name = b["run_name"];
        auto& samples = out[name.substr(0, name.find('/'))];
        samples.ns_per_item.push_back(b["perfgauge_ns_per_item"]);
        samples.process.push_back(b["perfgauge_process"]);
    }
    return out;
}

// The pairs of the first `taken` processes, as run --against and compare pair them: the medians
// of the other build's (a) and this one's (b) samples of every process with clean samples on
// both sides.
harness::PairedValues clean_pairs(const ProcessSamples& own, const ProcessSamples& other,
                                  std::size_t taken) {
    const auto first = [taken](const ProcessSamples& s) {
        ProcessSamples kept;
        for (std::size_t i = 0; i < s.process.size(); ++i) {
            if (s.process[i] < taken) {
                kept.ns_per_item.push_back(s.ns_per_item[i]);
                kept.process.push_back(s.process[i]);
            }
        }
        return kept;
    };
    const ProcessSamples a = first(other), b = first(own);
    return harness::run_median_pairs(a.ns_per_item, a.process, b.ns_per_item, b.process);
}

TEST(CliAgainst, ItselfInTurnPairsEveryBenchmarkAndSavesBothResults) {
    TempDir dir;
    const auto tmp = dir.path() / "tmp";
    std::filesystem::create_directory(tmp);
    const auto own = dir.path() / "own.json", other = dir.path() / "other.json";
    auto args = against(PERFGAUGE_CLI_PATH, {"--json", own.string(), "--against-json",
                                             other.string(), "--format", "json"});
    args.insert(args.begin(), {"/usr/bin/env", "TMPDIR=" + tmp.string(), PERFGAUGE_CLI_PATH});
    const auto r = run_process(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto own_json = nlohmann::json::parse(read_file(own));
    const auto other_json = nlohmann::json::parse(read_file(other));
    // The comparison printed: both benchmarks, every time row paired run by run - each with
    // the pairs of processes that kept a clean sample on both sides, read back from the saved
    // results (on a loaded machine a process may keep none, and makes no pair).
    const auto comparison = nlohmann::json::parse(r.out);
    EXPECT_EQ(comparison["paired_runs"], 3);
    ASSERT_EQ(comparison["benchmarks"].size(), 2u) << r.out;
    auto own_samples = samples_by_workload(own_json);
    auto other_samples = samples_by_workload(other_json);
    for (const auto& b : comparison["benchmarks"]) {
        const std::string name = b["name"];
        const std::string workload = name.substr(0, name.find('/'));
        const std::size_t paired =
            clean_pairs(own_samples[workload], other_samples[workload], 3).a.size();
        const auto& time = b["metrics"][0];
        if (paired >= harness::kMinPairedRuns) {
            EXPECT_EQ(time["method"], "paired-runs") << b.dump();
            EXPECT_EQ(time["run_pairs"], paired) << b.dump();
        } else {
            EXPECT_NE(time["method"], "paired-runs") << b.dump();
        }
    }
    EXPECT_EQ(comparison["baseline"].get<std::string>().find(PERFGAUGE_CLI_PATH), 0u);

    // Both results saved, marked as measured in turn with each other, three processes per
    // benchmark; different benchmarks never share a round (they ran in different processes).
    const auto& token = own_json["context"]["perfgauge"]["in_turn_with"];
    ASSERT_TRUE(token.is_string());
    EXPECT_FALSE(token.get<std::string>().empty());
    EXPECT_EQ(other_json["context"]["perfgauge"]["in_turn_with"], token);
    for (const auto* result : {&own_json, &other_json}) {
        EXPECT_EQ((*result)["context"]["perfgauge"]["processes"], 3);
        const auto samples = samples_of(*result);
        ASSERT_LE(samples.size(), 2u);  // a benchmark every sample of which was disturbed: none
        std::set<int> rounds;
        for (const auto& [name, s] : samples) {
            for (const int process : s.processes)  // clean samples: of some of the three
                EXPECT_TRUE(process >= 0 && process <= 2) << name << ": process " << process;
            for (const int round : s.rounds)
                EXPECT_TRUE(rounds.insert(round).second) << name << " shares round " << round;
        }
    }
    // Every child's result was in a private directory, removed afterwards.
    EXPECT_TRUE(std::filesystem::is_empty(tmp));

    // perfgauge compare pairs the two files again, and says why.
    const auto again = perfgauge({"compare", other.string(), own.string(), "--format", "json"});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    const auto compared = nlohmann::json::parse(again.out);
    EXPECT_EQ(compared["paired_runs"], 3);
    EXPECT_EQ(compared["benchmarks"][0]["metrics"][0]["method"],
              comparison["benchmarks"][0]["metrics"][0]["method"])
        << "compare pairs the files as run --against did";
    EXPECT_NE(compared["notes"].dump().find("measured in turn, benchmark by benchmark"),
              std::string::npos)
        << compared["notes"].dump();

    // Files of two different --against runs were not taken in turn with each other.
    auto stranger = own_json;
    stranger["context"]["perfgauge"]["in_turn_with"] = "another run";
    const auto stranger_path = dir.path() / "stranger.json";
    std::ofstream(stranger_path) << stranger.dump();
    const auto apart =
        perfgauge({"compare", other.string(), stranger_path.string(), "--format", "json"});
    ASSERT_EQ(apart.exit_code, 0) << apart.err;
    const auto compared_apart = nlohmann::json::parse(apart.out);
    EXPECT_EQ(compared_apart["paired_runs"], 0);
    EXPECT_NE(compared_apart["notes"].dump().find("different perfgauge run --against runs"),
              std::string::npos)
        << compared_apart["notes"].dump();
}

TEST(CliAgainst, BadInputFailsBeforeMeasuring) {
    TempDir dir;
    const auto plain = dir.path() / "not-executable";
    std::ofstream(plain) << "#!/bin/sh\n";
    const auto expect_usage = [&](std::vector<std::string> args, const std::string& message) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    };
    expect_usage(against("/nonexistent/perfgauge", {}),
                 "--against /nonexistent/perfgauge: no such file");
    expect_usage(against(dir.path().string(), {}), "not a regular file");
    expect_usage(against(plain.string(), {}), "not executable");
    expect_usage(against(PERFGAUGE_CLI_PATH, {}, "2"), "--pairs must be 3 to 100");
    expect_usage(against(PERFGAUGE_CLI_PATH, {}, "4"),
                 "-r/--repeat (3) must be at least --pairs (4)");
    expect_usage(against(PERFGAUGE_CLI_PATH, {"--processes", "3"}), "--processes does not apply");
    expect_usage(against(PERFGAUGE_CLI_PATH, {}, "3", "sim"), "--backend sim with --against");
    expect_usage(against(PERFGAUGE_CLI_PATH, {"--json", "a.json", "--against-json", "./a.json"}),
                 "name the same file");
    expect_usage(against(PERFGAUGE_CLI_PATH, {}, "3", "pref"), "--backend");
    expect_usage(against(PERFGAUGE_CLI_PATH, {"--pin", "4096"}), "--pin 4096: no such CPU");
    expect_usage(against(PERFGAUGE_CLI_PATH, {}, "3", "perf", "2"),
                 "--max-pairs must be --pairs (3) to 100, not 2");
    expect_usage(against(PERFGAUGE_CLI_PATH, {}, "3", "perf", "101"), "--max-pairs must be");
    expect_usage(against(PERFGAUGE_CLI_PATH, {"--pair-precision", "0"}),
                 "--pair-precision must be above 0");
    expect_usage(against(PERFGAUGE_CLI_PATH, {"--pair-precision", "nan"}),
                 "--pair-precision must be above 0");
    expect_usage({"run", "--pairs", "4"}, "apply only with --against");
    expect_usage({"run", "--max-pairs", "8"}, "apply only with --against");
    expect_usage({"run", "--pair-precision", "2"}, "apply only with --against");
    expect_usage({"run", "--against-json", "x.json"}, "apply only with --against");
}

// An other build that appends each child's arguments as a line to `log`, then runs this
// perfgauge with them.
std::filesystem::path logging_other_build(const std::filesystem::path& dir,
                                          const std::filesystem::path& log) {
    const auto wrapper = dir / "other-perfgauge";
    std::ofstream(wrapper) << "#!/bin/sh\necho \"other $*\" >> " << log.string() << "\nexec "
                           << PERFGAUGE_CLI_PATH << " \"$@\"\n";
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    return wrapper;
}

// What each child of the other build was asked to measure (a wrapper that logs its arguments,
// then runs this perfgauge).
TEST(CliAgainst, EachChildOfTheOtherBuildMeasuresOneBenchmarkOfTheSelection) {
    TempDir dir;
    const auto log = dir.path() / "log";
    const auto wrapper = logging_other_build(dir.path(), log);
    const auto r = perfgauge(against(wrapper.string(), {"--shape", "end-on-end,one-shot", "--json",
                                                        "none", "--against-json", "none"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> lines;
    std::istringstream in(read_file(log));
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    // varint end-on-end, varint one-shot, memcpy: three benchmarks, three pairs each.
    ASSERT_EQ(lines.size(), 9u) << read_file(log);
    // Each child is handed its request as JSON (--internal-request), not as options.
    std::vector<nlohmann::json> requests;
    for (const auto& line : lines) {
        const std::string flag = "--internal-request=";
        ASSERT_NE(line.find(flag), std::string::npos) << line;
        requests.push_back(nlohmann::json::parse(line.substr(line.find(flag) + flag.size())));
    }
    const auto count = [&](const std::string& workload, const std::string& shape) {
        return std::count_if(requests.begin(), requests.end(), [&](const nlohmann::json& r) {
            const auto& s = r["selection"];
            if (s["workloads"] != nlohmann::json::array({workload}))
                return false;
            if (workload == "varint")
                return s["variants"] == nlohmann::json::array({"branchy"}) &&
                       s["shapes"] == nlohmann::json::array({shape});
            return s["distributions"] == nlohmann::json::array({"log-uniform"}) &&
                   s["caches"] == nlohmann::json::array({"hot"}) &&
                   s["sizes"] == nlohmann::json::array({1024});
        });
    };
    EXPECT_EQ(count("varint", "end-on-end"), 3);
    EXPECT_EQ(count("varint", "one-shot"), 3);
    EXPECT_EQ(count("memcpy", ""), 3);
    for (const auto& r : requests) {
        EXPECT_EQ(r["selection"]["l3"], 65536) << r;
        EXPECT_EQ(r["measuring_child"]["index"], 1) << r;
        EXPECT_EQ(r["measuring_child"]["count"], 2) << r;
        EXPECT_EQ(r["backend"], "perf") << r;
    }
    // The comparison has the one-shot benchmark too.
    EXPECT_NE(r.out.find("one-shot"), std::string::npos) << r.out;
}

// Both builds' children start with argv of equal length, whatever the builds' paths: with
// result files named -own and -other, identical code ran 6% apart on the two sides. The other
// build, given by a short relative path here, is started by its absolute path padded with
// slashes to the length of this build's (/proc/self/exe), and writes a file named as long as
// this build's.
TEST(CliAgainst, BothBuildsStartWithArgumentsOfEqualLength) {
    TempDir dir;
    const auto log = dir.path() / "log";
    const auto wrapper = dir.path() / "o";
    std::ofstream(wrapper) << "#!/bin/sh\necho \"$0\" >> " << log.string() << "\necho \"$*\" >> "
                           << log.string() << "\nexec " << PERFGAUGE_CLI_PATH << " \"$@\"\n";
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    ProcessOptions options;
    options.working_directory = dir.path();
    const auto r =
        perfgauge_with(options, against("o", {"--json", "none", "--against-json", "none"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::size_t own_length = std::filesystem::canonical(PERFGAUGE_CLI_PATH).string().size();
    std::istringstream in(read_file(log));
    int children = 0;
    for (std::string started_as, arguments;
         std::getline(in, started_as) && std::getline(in, arguments); ++children) {
        EXPECT_EQ(started_as.size(), std::max(own_length, wrapper.string().size())) << started_as;
        EXPECT_TRUE(std::filesystem::equivalent(started_as, wrapper)) << started_as;
        EXPECT_NE(arguments.find("-oth.json"), std::string::npos) << arguments;
    }
    EXPECT_EQ(children, 6) << read_file(log);
}

// How many children of the other build the wrapper logged per benchmark.
std::map<std::string, int> children_per_benchmark(const std::filesystem::path& log) {
    std::map<std::string, int> out;
    std::istringstream in(read_file(log));
    for (std::string line; std::getline(in, line);)
        ++out[line.find("\"workloads\":[\"memcpy\"]") != std::string::npos ? "memcpy" : "varint"];
    return out;
}

// How many pairs run --against takes by its stopping rule, recomputed from the two saved
// results: after `first` pairs, two more at a time while the sign-test interval of the clean
// pairs' log ratios is wider than +-`precision`, up to `most`. What the machine's noise decided
// is read back, not assumed.
std::size_t pairs_the_rule_takes(const ProcessSamples& own, const ProcessSamples& other,
                                 std::size_t first, std::size_t most, double precision) {
    for (std::size_t taken = first; taken < most; taken += 2) {
        const auto changes = harness::pair_changes(clean_pairs(own, other, taken), true);
        EXPECT_TRUE(changes.logarithmic);  // every time above 0: the rule compares log ratios
        const auto half_width = harness::median_pair_half_width(changes.values);
        if (half_width && *half_width <= std::log1p(precision))
            return taken;
    }
    return most;
}

// Pairs are added two at a time while a benchmark's interval is wider than --pair-precision, up
// to --max-pairs; fewer than 6 pairs have no 95% sign-test interval, so --pairs 3 --max-pairs 11
// takes 7 even when every pair agrees.
TEST(CliAgainst, PairsAreAddedUntilTheIntervalIsNarrowEnough) {
    TempDir dir;
    const auto log = dir.path() / "log";
    const auto wrapper = logging_other_build(dir.path(), log);
    const auto own = dir.path() / "own.json", other = dir.path() / "other.json";
    // No timing of two processes agrees to a millionth of a percent: every benchmark takes all
    // seven pairs.
    auto r = perfgauge(against(wrapper.string(),
                               {"--pair-precision", "0.000001", "--json", own.string(),
                                "--against-json", other.string(), "--format", "json"},
                               "3", "perf", "7"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(children_per_benchmark(log),
              (std::map<std::string, int>{{"memcpy", 7}, {"varint", 7}}));
    auto comparison = nlohmann::json::parse(r.out);
    EXPECT_EQ(comparison["paired_runs"], 7);
    EXPECT_NE(comparison["notes"].dump().find("measured in 7 pairs of processes"),
              std::string::npos)
        << comparison["notes"].dump();
    // A process that kept no clean sample of a benchmark (every one disturbed: CI runs two tests
    // at once on 2 CPUs, one under ASan) makes no pair: the row pairs what is left.
    const std::string first = comparison["benchmarks"][0]["name"];
    const std::string first_workload = first.substr(0, first.find('/'));
    const auto own_json = nlohmann::json::parse(read_file(own));
    const auto paired =
        clean_pairs(samples_by_workload(own_json)[first_workload],
                    samples_by_workload(nlohmann::json::parse(read_file(other)))[first_workload], 7)
            .a.size();
    const auto& time = comparison["benchmarks"][0]["metrics"][0];
    if (paired >= harness::kMinPairedRuns) {
        EXPECT_EQ(time["run_pairs"], paired) << time.dump();
        EXPECT_EQ(time["pair_center"], paired >= 6 ? "median" : "mean") << time.dump();
    } else {
        EXPECT_NE(time["method"], "paired-runs") << time.dump();
    }
    EXPECT_EQ(own_json["context"]["perfgauge"]["processes"], 7);
    // Within +-99%, pairs of the same build mostly agree (the 7 pairs' log ratios would have to
    // span a factor of 4): pairs come two at a time after the first three, and 5 have no
    // interval, so mostly seven each, of up to eleven. Under ASan on a loaded CI machine a
    // process measured memcpy 4x off (9 pairs) or two did (11): each benchmark takes exactly
    // what the rule, recomputed from both saved results, says (7 where the pairs agree).
    for (const auto& path : {log, own, other})
        std::filesystem::remove(path);
    r = perfgauge(against(
        wrapper.string(),
        {"--pair-precision", "99", "--json", own.string(), "--against-json", other.string()}, "3",
        "perf", "11"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto wide = children_per_benchmark(log);
    auto own_samples = samples_by_workload(nlohmann::json::parse(read_file(own)));
    auto other_samples = samples_by_workload(nlohmann::json::parse(read_file(other)));
    ASSERT_EQ(wide.size(), 2u);
    // A workload with no clean sample on a side has no pair: the rule then takes all eleven.
    for (const auto& [workload, children] : wide) {
        EXPECT_EQ(static_cast<std::size_t>(children),
                  pairs_the_rule_takes(own_samples[workload], other_samples[workload], 7, 11, 0.99))
            << workload;
    }
    // --pairs alone is a fixed number, as before --max-pairs existed.
    std::filesystem::remove(log);
    auto fixed = against(wrapper.string(), {"--json", "none", "--against-json", "none"}, "4");
    const auto max_option = std::find(fixed.begin(), fixed.end(), "--max-pairs");
    fixed.erase(max_option, max_option + 2);
    fixed[std::find(fixed.begin(), fixed.end(), "-r") - fixed.begin() + 1] = "4";
    r = perfgauge(fixed);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(children_per_benchmark(log),
              (std::map<std::string, int>{{"memcpy", 4}, {"varint", 4}}));
    EXPECT_EQ(r.out.find("two more at a time"), std::string::npos) << r.out;
}

// An other build that fails partway (here: from its fourth child on, the second benchmark's
// first) loses nothing measured before: the first benchmark's pairs are saved and compared.
TEST(CliAgainst, AFailingChildKeepsTheBenchmarksMeasuredBeforeIt) {
    TempDir dir;
    const auto count = dir.path() / "count";
    const auto wrapper = dir.path() / "flaky-perfgauge";
    std::ofstream(wrapper) << "#!/bin/sh\necho x >> " << count.string() << "\n"
                           << "[ $(wc -l < " << count.string() << ") -ge 4 ] && exit 7\n"
                           << "exec " << PERFGAUGE_CLI_PATH << " \"$@\"\n";
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    const auto own = dir.path() / "own.json", other = dir.path() / "other.json";
    const auto r = perfgauge(
        against(wrapper.string(), {"--json", own.string(), "--against-json", other.string()}));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("the other build (" + wrapper.string() + ") exited with 7"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("varint/branchy"), std::string::npos) << r.out;  // the comparison
    // ...which says, as stderr does, that it is not the whole selection.
    EXPECT_NE(r.out.find("a measuring process failed while measuring memcpy"), std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("warning: a measuring process failed while measuring memcpy"),
              std::string::npos)
        << r.err;
    for (const auto& path : {own, other}) {
        const auto j = nlohmann::json::parse(read_file(path));
        // varint/branchy's clean samples, if a loaded machine left it any; memcpy's none.
        const auto samples = samples_of(j);
        ASSERT_LE(samples.size(), 1u) << path;
        if (!samples.empty()) {
            EXPECT_EQ(samples.begin()->first.rfind("varint/branchy", 0), 0u);
        }
        EXPECT_NE(j["context"]["perfgauge"]["warnings"].dump().find(
                      "a measuring process failed while measuring memcpy"),
                  std::string::npos);
    }
}

// A full disk behind one output loses none of the others: each is written, then exit 1 names
// the one that failed.
TEST(CliAgainst, AnOutputThatCannotBeWrittenLosesNoOther) {
    TempDir dir;
    const auto own = dir.path() / "own.json", table = dir.path() / "comparison.txt";
    const auto r = perfgauge(against(PERFGAUGE_CLI_PATH, {"--against-json", "/dev/full", "--json",
                                                          own.string(), "-o", table.string()}));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("/dev/full"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("result saved to " + own.string()), std::string::npos) << r.err;
    EXPECT_EQ(nlohmann::json::parse(read_file(own))["context"]["perfgauge"]["processes"], 3);
    EXPECT_NE(read_file(table).find("varint/branchy"), std::string::npos);
}

// Whatever the other build prints goes to stderr: the comparison on stdout stays valid JSON.
TEST(CliAgainst, WhatTheOtherBuildPrintsStaysOutOfStdout) {
    TempDir dir;
    const auto wrapper = dir.path() / "chatty-perfgauge";
    std::ofstream(wrapper) << "#!/bin/sh\necho 'garbage {not json'\nexec " << PERFGAUGE_CLI_PATH
                           << " \"$@\"\n";
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    const auto r = perfgauge(against(
        wrapper.string(), {"--json", "none", "--against-json", "none", "--format", "json"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["paired_runs"], 3);
    EXPECT_NE(r.err.find("garbage {not json"), std::string::npos) << r.err;
}

TEST(CliAgainst, AnOtherBuildThatIsNoPerfgaugeFailsNamingIt) {
    TempDir dir;
    const auto own = dir.path() / "own.json";
    for (const std::string other : {"/bin/true", "/bin/false"}) {
        const auto r =
            perfgauge(against(other, {"--json", own.string(), "--against-json", "none"}));
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_NE(r.err.find("the other build (" + other + ")"), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(own)) << "a result saved from a failed comparison";
    }
}

}  // namespace
}  // namespace perfgauge::test
