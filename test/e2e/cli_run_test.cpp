// End-to-end: `perfgauge run`, `perfgauge list` and the Google Benchmark binaries. Small
// selections (--l3 64K keeps cold data small) so that the tests stay quick; timings are not
// asserted, structure and behaviour are.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

const std::vector<std::string> kQuick = {"run",
                                         "--sizes",
                                         "1K",
                                         "--l3",
                                         "64K",
                                         "-r",
                                         "3",
                                         "--min-time",
                                         "0.0002",
                                         "--warmup",
                                         "0",
                                         "-e",
                                         "task-clock,page-faults",
                                         "-q"};

std::vector<std::string> quick(std::vector<std::string> more) {
    auto args = kQuick;
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

TEST(CliRun, JsonHasEveryVariantAndComparePyReadsIt) {
    TempDir dir;
    const auto r = perfgauge(quick({"--variant", "all", "--format", "json"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::set<std::string> variants;
    for (const auto& b : j["benchmarks"]) {
        ASSERT_TRUE(b.contains("perfgauge_params")) << b.dump();
        variants.insert(b["perfgauge_params"]["variant"].get<std::string>());
        EXPECT_TRUE(b.contains("items_per_second"));
        EXPECT_TRUE(b.contains("bytes_per_second"));
        EXPECT_TRUE(b.contains("task-clock"));
    }
    EXPECT_TRUE(variants.count("branchy"));
    EXPECT_TRUE(variants.count("unrolled"));
    EXPECT_TRUE(variants.count("memcpy"));
    EXPECT_EQ(j["context"]["perfgauge"]["workload_context"]["l3_bytes"], "65536");
    EXPECT_TRUE(
        j["context"]["perfgauge"]["workload_context"].contains("mean_bytes_per_item_log-uniform"));

    const char* compare = "/usr/share/benchmark/compare.py";
    if (::access(compare, R_OK) != 0)
        GTEST_SKIP() << "compare.py (libbenchmark-tools) is not installed";
    const auto file = dir.path() / "run.json";
    std::ofstream(file) << r.out;
    const auto c =
        run_process({"/usr/bin/python3", compare, "benchmarks", file.string(), file.string()});
    EXPECT_EQ(c.exit_code, 0) << c.err;
    EXPECT_NE(c.out.find("varint/branchy/log-uniform/end-on-end/hot/1K"), std::string::npos)
        << c.out;
}

TEST(CliRun, PrintsATableAndSavesTheJsonResult) {
    TempDir dir;
    const auto json = dir.path() / "result.json";
    const auto r = perfgauge(quick({"--workload", "varint", "--cache", "hot", "--shape",
                                    "end-on-end,one-shot", "--json", json.string()}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("BENCHMARK"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("varint/branchy/log-uniform/one-shot/hot/"), std::string::npos);
    EXPECT_NE(r.err.find("result saved to " + json.string()), std::string::npos) << r.err;
    const auto saved = nlohmann::json::parse(read_file(json));
    EXPECT_FALSE(saved["benchmarks"].empty());
}

// A run past a second shows its progress on a terminal (script(1) gives it one); not with -q,
// and never into a pipe. 30 rounds of samples of at least 50 ms: past a second on any machine.
TEST(CliRun, ProgressOnlyOnATerminal) {
    if (!std::filesystem::exists("/usr/bin/script"))
        GTEST_SKIP() << "needs script(1) from util-linux for a terminal";
    const std::string args =
        " run --workload varint --variant branchy --dist log-uniform --shape end-on-end --cache "
        "hot --sizes 1K --l3 64K -r 30 --min-time 0.05 --processes 1 --warmup 0 -e task-clock "
        "--json none";
    const std::string line = std::string("'") + PERFGAUGE_CLI_PATH + "'" + args;
    const auto tty = run_process({"/usr/bin/script", "-qec", line, "/dev/null"});
    ASSERT_EQ(tty.exit_code, 0) << tty.out << tty.err;
    EXPECT_NE(tty.out.find("\r\033[Kperfgauge run: round "), std::string::npos) << tty.out;
    EXPECT_NE(tty.out.find(" left"), std::string::npos) << tty.out;
    EXPECT_NE(tty.out.find("BENCHMARK"), std::string::npos) << tty.out;
    const auto quiet = run_process({"/usr/bin/script", "-qec", line + " -q", "/dev/null"});
    ASSERT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;
    EXPECT_EQ(quiet.out.find("perfgauge run: round"), std::string::npos) << quiet.out;
    std::vector<std::string> piped = {"run"};
    std::istringstream words(args.substr(5));
    for (std::string w; words >> w;)
        piped.push_back(w);
    const auto r = perfgauge(piped);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("round 1/"), std::string::npos) << r.err;
}

TEST(CliRun, ProcessesShareTheRoundsAndLeaveNothingBehind) {
    TempDir dir;
    auto args = quick(
        {"--variant", "branchy", "--workload", "varint", "--processes", "2", "--format", "json"});
    args.insert(args.begin(),
                {"/usr/bin/env", "TMPDIR=" + dir.path().string(), PERFGAUGE_CLI_PATH});
    const auto r = run_process(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["context"]["perfgauge"]["processes"], 2);
    EXPECT_EQ(j["context"]["perfgauge"]["repetitions"], 3);
    // Each process spun for the gaps in its time; the run keeps one of them, not the parent's
    // (which measured nothing).
    const auto& gaps = j["context"]["perfgauge"]["system"]["cpu_gaps"];
    ASSERT_TRUE(gaps.is_object()) << j["context"].dump();
    EXPECT_GE(gaps["window_ns"].get<double>(), 50e6);
    std::map<std::string, std::map<int, int>> per_process;  // benchmark -> process -> samples
    std::map<std::string, std::set<int>> rounds;
    for (const auto& b : j["benchmarks"]) {
        if (b["run_type"] != "iteration")
            continue;
        ++per_process[b["run_name"]][b["perfgauge_process"].get<int>()];
        EXPECT_TRUE(rounds[b["run_name"]].insert(b["repetition_index"].get<int>()).second)
            << "two samples of one benchmark share a round";
    }
    ASSERT_FALSE(per_process.empty());
    for (const auto& [name, counts] : per_process) {
        // Two rounds for the first process, one for the second; a process whose samples of a
        // benchmark were all disturbed (and could not be re-taken) gives none of it.
        EXPECT_LE(counts.size(), 2u) << name;
        for (const auto& entry : counts)
            EXPECT_TRUE(entry.first == 0 || entry.first == 1) << name << ": " << entry.first;
    }
    // The measuring processes' results were in a private directory, removed afterwards.
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(CliRun, BadInputFailsBeforeMeasuring) {
    const auto expect_usage = [](std::vector<std::string> args, const std::string& message) {
        args.insert(args.begin(), "run");  // all of these fail before anything is measured
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    };
    expect_usage({"--variant", "bmi3"}, "did you mean bmi2");
    expect_usage({"--dist", "loguniform"}, "did you mean log-uniform");
    expect_usage({"--cache", "warm"}, "--cache: unknown name 'warm'");
    expect_usage({"--workload", "strlen"}, "known: varint, memcpy");
    expect_usage({"--sizes", "4Q"}, "'4Q' is not a size");
    expect_usage({"--l3", "0"}, "'0' is not a size");
    expect_usage({"--variant", "branchy,,bmi2"}, "empty name");
    expect_usage({"-e", "cyclez"}, "did you mean");
    expect_usage({"-r", "0"}, "-r/--repeat must be 1 to 1000000, not 0");
    expect_usage({"-r", "2", "--processes", "3"}, "must be at least --processes (3)");
    expect_usage({"-r", "1"},
                 "(1) must be at least --processes (2, its default): each process "
                 "takes a share of the rounds; give -r 2 or more, or --processes 1");
    expect_usage({"--processes", "0"}, "--processes must be 1 to 64");
    expect_usage({"--precision", "-1"}, "--precision must be in [0, 100) %, not -1");
    expect_usage({"--max-time", "inf"}, "--max-time must be in [0, 3600] s, not inf");
    expect_usage({"--min-time", "inf"}, "--min-time must be in (0, 60] s, not inf");
    expect_usage({"--internal-measure-child", "0:2"}, "perfgauge's own");
    expect_usage({"--format", "xml"}, "xml");
    expect_usage({"-o", "/nonexistent-dir/out.txt"}, "/nonexistent-dir");
    expect_usage({"--json", "/nonexistent-dir/r.json"}, "/nonexistent-dir");
}

TEST(CliList, ShowsVariantsAndTheSweep) {
    const auto r = perfgauge({"list"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* text :
         {"branchy", "bmi2", "unrolled", "avx2", "avx512", "log-uniform", "default sweep"})
        EXPECT_NE(r.out.find(text), std::string::npos) << text;
    // Each variant's line says whether it runs here; one that does not says why.
    std::istringstream lines(r.out);
    int variant_lines = 0;
    for (std::string line; std::getline(lines, line);) {
        for (const char* v : {"branchy ", "bmi2 ", "unrolled ", "avx2 ", "avx512 "}) {
            if (line.rfind(v, 0) != 0)
                continue;
            ++variant_lines;
            const bool runs = line.find(" runs ") != std::string::npos;
            EXPECT_TRUE(runs || line.find(" unavailable ") != std::string::npos) << line;
            if (!runs) {  // the reason is printed under the table, naming the variant
                const std::string name(v, std::strlen(v) - 1);
                EXPECT_NE(r.out.find("'" + name + "'"), std::string::npos) << line;
            }
        }
    }
    EXPECT_EQ(variant_lines, 5) << r.out;
}

TEST(GoogleBenchmarkBinaries, PerItemCountersFromPerfgaugeEvents) {
    const auto r =
        run_process({PERFGAUGE_BENCH_VARINT_PATH, "--perfgauge_events=task-clock,page-faults",
                     "--benchmark_filter=varint/branchy/log-uniform/end-on-end/hot/4096",
                     "--benchmark_min_time=0.01", "--benchmark_format=json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["benchmarks"].size(), 1u) << r.out;
    const auto& b = j["benchmarks"][0];
    // task-clock per varint is the time per varint in ns, within a few x of the timer's view.
    ASSERT_TRUE(b.contains("TASK-CLOCK")) << b.dump();
    EXPECT_GT(b["TASK-CLOCK"].get<double>(), 0.0);
    EXPECT_GT(b["TASK-CLOCK"].get<double>(), 0.25 * b["cpu_time"].get<double>());
    EXPECT_LT(b["TASK-CLOCK"].get<double>(), 4.0 * b["cpu_time"].get<double>());
    EXPECT_TRUE(b.contains("PAGE-FAULTS"));
    EXPECT_GT(b["items_per_second"].get<double>(), 0.0);

    const auto memcpy =
        run_process({PERFGAUGE_BENCH_MEMCPY_PATH, "--perfgauge_events=task-clock",
                     "--benchmark_filter=memcpy/hot/4096", "--benchmark_min_time=0.01"});
    ASSERT_EQ(memcpy.exit_code, 0) << memcpy.err;
    EXPECT_NE(memcpy.out.find("TASK-CLOCK="), std::string::npos) << memcpy.out;

    const auto bad = run_process({PERFGAUGE_BENCH_VARINT_PATH, "--perfgauge_events=cyclez"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("did you mean"), std::string::npos) << bad.err;
    // Without the flag the binary is plain Google Benchmark: no counters.
    const auto plain = run_process({PERFGAUGE_BENCH_VARINT_PATH,
                                    "--benchmark_filter=varint/branchy/fixed1/one-shot",
                                    "--benchmark_min_time=0.01"});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_EQ(plain.out.find("TASK-CLOCK"), std::string::npos);
}

}  // namespace
}  // namespace perfgauge::test
