// End-to-end: `perfgauge plot` draws a run result (with Debian's python3-matplotlib), and says
// what is wrong with bad input (exit 2) or a missing matplotlib (exit 1, what to install).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

const std::string kPlotRun = PERFGAUGE_SOURCE_DIR "/test/e2e/fixtures/small-run.json";

bool python_has_matplotlib() {
    return run_process({"/usr/bin/python3", "-c", "import matplotlib"}).exit_code == 0;
}

// A small run: two variants and two distributions, two sizes, hot and cold.
std::string small_result(const TempDir& dir) {
    const std::string path = (dir.path() / "r.json").string();
    const std::vector<std::string> args = {"run",
                                           "--variant",
                                           "branchy,bmi2",
                                           "--dist",
                                           "fixed1,log-uniform",
                                           "--sizes",
                                           "1K,4K",
                                           "--cache",
                                           "hot,cold",
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
                                           "-q",
                                           "--json",
                                           path,
                                           "--format",
                                           "csv"};
    const auto r = perfgauge(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return path;
}

TEST(CliPlot, WritesAPngAndAnSvg) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    TempDir dir;
    const auto result = small_result(dir);
    const auto png = dir.path() / "sweep.png";
    auto r = perfgauge({"plot", result, "-o", png.string(), "--counters", "page-faults"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string bytes = read_file(png);
    ASSERT_GT(bytes.size(), 1000u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    EXPECT_NE(r.err.find("rows: time, page-faults"), std::string::npos) << r.err;

    const auto svg = dir.path() / "sweep.svg";
    r = perfgauge({"plot", result, "-o", svg.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = read_file(svg);
    EXPECT_NE(text.find("<svg"), std::string::npos);
    // page-faults are zero here: the symlog axis keeps them visible and says so; the counter
    // row names its source; lines are named by variant and distribution (the shape is the same
    // for every line, so it names none), one line each.
    r = perfgauge({"plot", result, "-o", svg.string(), "--counters", "page-faults"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("2 cache states, 6 lines"), std::string::npos) << r.err;
    const std::string labelled = read_file(svg);
    for (const char* text : {"page-faults per item [sw]", "symlog: 0 shown", "branchy / fixed1",
                             "bmi2 / log-uniform", "memcpy / fixed1", "variant / distribution"})
        EXPECT_NE(labelled.find(text), std::string::npos) << text;
    EXPECT_EQ(labelled.find("end-on-end"), std::string::npos);
}

TEST(CliPlot, BadInputExitsTwoWithAClearMessage) {
    TempDir dir;
    auto r = perfgauge(
        {"plot", (dir.path() / "missing.json").string(), "-o", (dir.path() / "s.png").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
    { std::ofstream(dir.path() / "r.json") << "{}"; }
    const std::string result = (dir.path() / "r.json").string();
    r = perfgauge({"plot", result, "-o", (dir.path() / "s.jpg").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("must end in .png or .svg"), std::string::npos) << r.err;
    r = perfgauge({"plot", result});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("-o FILE.png"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "s.jpg"));
    if (python_has_matplotlib()) {  // read as compare reads it, before the script runs
        r = perfgauge({"plot", result, "-o", (dir.path() / "s.png").string()});
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_NE(r.err.find(result + ": not a benchmark result"), std::string::npos) << r.err;
    }
}

// A Google Benchmark entry (1.6 and later), one repetition of `name`.
std::string gbench_entry(const std::string& name, int family, int instance, double ns) {
    return "{\"name\": \"" + name + "\", \"family_index\": " + std::to_string(family) +
           ", \"per_family_instance_index\": " + std::to_string(instance) + ", \"run_name\": \"" +
           name +
           "\", \"run_type\": \"iteration\", \"repetitions\": 1, \"repetition_index\": 0, "
           "\"threads\": 1, \"iterations\": 1000, \"real_time\": " +
           std::to_string(ns) + ", \"cpu_time\": " + std::to_string(ns) +
           ", \"time_unit\": \"ns\", \"BYTES\": " + std::to_string(ns * 2) + "}";
}

std::string gbench_file(const std::vector<std::string>& entries) {
    std::string text =
        "{\"context\": {\"date\": \"2026-11-28\", \"num_cpus\": 2}, "
        "\"benchmarks\": [";
    for (std::size_t i = 0; i < entries.size(); ++i)
        text += (i ? ", " : "") + entries[i];
    return text + "]}";
}

// plot draws every kind of result compare reads (issue 38, class 8): Google Benchmark JSON by
// the last number of each name, or one point per benchmark when a name ends in none; a stat
// result (and side by side) one point per command. Values are per iteration / per run.
TEST(CliPlot, DrawsEveryKindOfResultCompareReads) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    TempDir dir;
    const auto svg = dir.path() / "p.svg";
    const auto swept = dir.write(
        "sweep-gb.json",
        gbench_file({gbench_entry("BM_a/64", 0, 0, 10), gbench_entry("BM_a/512", 0, 1, 40),
                     gbench_entry("BM_a/4096", 0, 2, 90), gbench_entry("BM_b/size:64", 1, 0, 5),
                     gbench_entry("BM_b/size:512", 1, 1, 9)}));
    auto r = perfgauge({"plot", swept.string(), "-o", svg.string(), "--counters", "BYTES"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("2 lines, rows: time, BYTES"), std::string::npos) << r.err;
    std::string text = read_file(svg);
    for (const char* part : {"argument (the last number of the name)", "ns per iteration",
                             "BYTES per iteration [user]", "BM_a", "BM_b", "per argument", "4096"})
        EXPECT_NE(text.find(part), std::string::npos) << part;
    EXPECT_EQ(text.find("working set"), std::string::npos);

    const auto named = dir.write("named-gb.json", gbench_file({gbench_entry("BM_a/64", 0, 0, 10),
                                                               gbench_entry("BM_copy", 1, 0, 20)}));
    r = perfgauge({"plot", named.string(), "-o", svg.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    text = read_file(svg);
    for (const char* part : {"BM_a/64", "BM_copy", "per benchmark", "ns per iteration"})
        EXPECT_NE(text.find(part), std::string::npos) << part;

    const auto stat = dir.path() / "stat.json";
    ASSERT_EQ(perfgauge({"stat", "-e", "task-clock", "-r", "3", "--format", "json", "-o",
                         stat.string(), "--", "true"})
                  .exit_code,
              0);
    r = perfgauge({"plot", stat.string(), "-o", svg.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    text = read_file(svg);
    for (const char* part : {"ns per run", "true", "per benchmark"})
        EXPECT_NE(text.find(part), std::string::npos) << part;
    r = perfgauge({"plot", stat.string(), "-o", svg.string(), "--counters", "task-clock"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(read_file(svg).find("task-clock per run [sw]"), std::string::npos);
}

TEST(CliPlot, SaysWhatToInstallWithoutMatplotlib) {
    TempDir dir;
    { std::ofstream(dir.path() / "r.json") << "{}"; }
    // A "Python" that cannot import anything.
    const auto fake = dir.path() / "python3";
    { std::ofstream(fake) << "#!/bin/sh\nexit 1\n"; }
    std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
    const auto r = run_process({"/usr/bin/env", "PERFGAUGE_PYTHON=" + fake.string(),
                                PERFGAUGE_CLI_PATH, "plot", (dir.path() / "r.json").string(), "-o",
                                (dir.path() / "s.png").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("apt-get install python3-matplotlib"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("PERFGAUGE_PYTHON=" + fake.string()), std::string::npos) << r.err;
}

TEST(CliPlot, NamesAPerfgaugePythonThatCannotRun) {
    TempDir dir;
    { std::ofstream(dir.path() / "r.json") << "{}"; }
    const auto r = run_process({"/usr/bin/env", "PERFGAUGE_PYTHON=/nonexistent/python3",
                                PERFGAUGE_CLI_PATH, "plot", (dir.path() / "r.json").string(), "-o",
                                (dir.path() / "s.png").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("PERFGAUGE_PYTHON=/nonexistent/python3: cannot be run"), std::string::npos)
        << r.err;
}

TEST(CliPlot, SaysAPerfgaugePythonThatIsADirectory) {
    TempDir dir;
    const auto r =
        run_process({"/usr/bin/env", "PERFGAUGE_PYTHON=" + dir.path().string(), PERFGAUGE_CLI_PATH,
                     "plot", kPlotRun, "-o", (dir.path() / "s.png").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("PERFGAUGE_PYTHON=" + dir.path().string() +
                         ": is a directory, not a Python; point it at the python3 executable"),
              std::string::npos)
        << r.err;
}

// compare reads a file that starts with a UTF-8 byte order mark (as some Windows editors save
// it): plot draws it too, where Python's json refused it.
TEST(CliPlot, DrawsAFileWithAByteOrderMark) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    TempDir dir;
    const auto bom = dir.path() / "bom.json";
    std::ofstream(bom) << "\xEF\xBB\xBF" << read_file(kPlotRun);
    ASSERT_EQ(perfgauge({"compare", bom.string(), kPlotRun}).exit_code, 0);
    const auto png = dir.path() / "bom.png";
    const auto r = perfgauge({"plot", bom.string(), "-o", png.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(fs::file_size(png), 1000u);
}

// The pid of the plotting script drawing `result` once its interrupt handlers are in place
// (SIGTERM caught: Python alone catches SIGINT only); 0 until then.
pid_t ready_script(const std::string& result) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string cmdline = read_file(entry.path() / "cmdline");
        if (cmdline.find("plot_sweep.py") == std::string::npos ||
            cmdline.find(result) == std::string::npos)
            continue;
        const std::string status = read_file(entry.path() / "status");
        const auto at = status.find("SigCgt:\t");
        if (at != std::string::npos &&
            (std::stoull(status.substr(at + 8, 16), nullptr, 16) >> (SIGTERM - 1) & 1))
            return static_cast<pid_t>(std::stol(pid));
    }
    return 0;
}

// Ctrl-C (the whole group), SIGINT to perfgauge alone, or to the Python child alone: exit 130,
// one line saying so, no traceback, no picture, no scratch directory left.
TEST(CliPlot, AnInterruptedPlotSaysSoOnceAndLeavesNothing) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    for (const std::string to : {"the group", "perfgauge", "the script"}) {
        TempDir dir;
        fs::create_directory(dir.path() / "tmp");
        const auto result = (dir.path() / "r.json").string();
        fs::copy_file(kPlotRun, result);
        const auto png = dir.path() / "p.png";
        ProcessOptions options;
        options.signal = SIGINT;
        options.signal_program_only = to == "perfgauge";
        if (to == "the script") {
            options.signal_when = [&, sent = false]() mutable {
                if (const pid_t pid = sent ? 0 : ready_script(result))
                    sent = ::kill(pid, SIGINT) == 0;
                return false;  // the test signals the script itself
            };
        } else {
            options.signal_when = [&] { return ready_script(result) != 0; };
        }
        const auto r = run_process({"/usr/bin/env", "TMPDIR=" + (dir.path() / "tmp").string(),
                                    PERFGAUGE_CLI_PATH, "plot", result, "-o", png.string()},
                                   options);
        EXPECT_EQ(r.exit_code, 130) << to << ": " << r.err;
        EXPECT_NE(r.err.find("interrupted by SIGINT while drawing " + png.string() +
                             ": nothing written\n"),
                  std::string::npos)
            << to << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << to << ": " << r.err;
        EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << to << ": " << r.err;
        EXPECT_FALSE(fs::exists(png)) << to;
        EXPECT_TRUE(fs::is_empty(dir.path() / "tmp")) << to << ": scratch left behind";
    }
}

// The scripts run alone: whatever is wrong with the input, one line naming it, never a traceback.
TEST(CliPlot, TheScriptsNeverPrintATraceback) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    TempDir dir;
    const std::string sweep = PERFGAUGE_SOURCE_DIR "/scripts/plot_sweep.py";
    const std::string history = PERFGAUGE_SOURCE_DIR "/scripts/history_plot.py";
    auto run = nlohmann::json::parse(read_file(kPlotRun));
    auto bad_value = run;
    bad_value["benchmarks"][0]["perfgauge_ns_per_item"] = "fast";
    auto bad_entry = run;
    bad_entry["benchmarks"][0] = 7;
    const std::string series =
        R"({"series": [{"benchmark": "b", "metric": "time", "machine": "m", "unit": "ns",
            "runs": [{"run": 1, "commit": "a", "median": 1, "spread": 0.1},
                     {"run": 2, "commit": "b", "median": 2, "spread": 0.1}],
            "changes": [{"index": 1, "size": 1.0, "low": 0.9, "high": 1.1, "regression": true}])";
    const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
        {sweep, "[1, 2]", "is not a perfgauge run result"},
        {sweep, bad_value.dump(), "not the JSON this script draws (TypeError"},
        {sweep, bad_entry.dump(), "not the JSON this script draws (AttributeError"},
        {sweep, std::string(100000, '[') + std::string(100000, ']'), "nested too deeply"},
        {sweep, "\xff\xfe{}", "is not UTF-8 text"},
        {sweep, "{", "is not JSON"},
        {history, series + R"(, "accepted": [{"index": "x", "reason": "r"}]}]})",
         "not the JSON this script draws (TypeError"},
        {history, R"({"series": [{"runs": []}]})", "not the JSON this script draws (KeyError"},
    };
    for (const auto& [script, text, expected] : cases) {
        const auto input = dir.path() / "in.json";
        std::ofstream(input, std::ios::trunc) << text;
        const auto r = run_process(
            {"/usr/bin/python3", script, input.string(), "-o", (dir.path() / "o.png").string()});
        EXPECT_EQ(r.exit_code, 2) << text.substr(0, 100) << ": " << r.err;
        EXPECT_NE(r.err.find(expected), std::string::npos) << text.substr(0, 100) << ": " << r.err;
        EXPECT_NE(r.err.find(input.string()), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir.path() / "o.png"));
    }
    // Accepted baselines are drawn, labelled with their reason; without the key, as before.
    for (const std::string& accepted :
         {std::string(R"(, "accepted": [{"index": 1, "commit": "b", "reason": "by design"}])"),
          std::string()}) {
        const auto input = dir.path() / "series.json";
        std::ofstream(input, std::ios::trunc) << series << accepted << "}]}";
        const auto svg = dir.path() / "h.svg";
        const auto r =
            run_process({"/usr/bin/python3", history, input.string(), "-o", svg.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(read_file(svg).find("accepted: by design") != std::string::npos,
                  !accepted.empty());
    }
}

}  // namespace
}  // namespace perfgauge::test
