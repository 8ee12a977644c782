// End-to-end: outputs that never destroy what a path names, write errors that are never
// swallowed, default names that never collide, and interruptions that stop cleanly.
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

const std::string kCli = PERFGAUGE_CLI_PATH;

// The quickest run that still makes a whole result: one benchmark, few short samples.
std::vector<std::string> quick_run(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {
        "run", "--workload",  "memcpy",      "--sizes", "4K",         "--cache", "hot",
        "-r",  "2",           "--processes", "1",       "--min-time", "0.0002",  "--warmup",
        "0",   "--precision", "0",           "-e",      "task-clock", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// perfgauge's own temporary directories ($TMPDIR/perfgauge-*) that exist now.
std::set<std::string> perfgauge_temp_dirs(const fs::path& tmp) {
    std::set<std::string> out;
    for (const auto& entry : fs::directory_iterator(tmp)) {
        if (entry.path().filename().string().rfind("perfgauge-", 0) == 0)
            out.insert(entry.path().filename().string());
    }
    return out;
}

bool process_running(const std::string& name) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
        std::ifstream comm(entry.path() / "comm");
        std::string text;
        if (comm && std::getline(comm, text) && text == name) {
            std::ifstream stat_file(entry.path() / "stat");
            std::string pid, paren, state;
            stat_file >> pid >> paren >> state;
            if (state != "Z")
                return true;
        }
    }
    return false;
}

TEST(CliOutputs, DeviceNodeStaysADevice) {
    if (::geteuid() != 0)
        GTEST_SKIP() << "mknod needs root; as a normal user the device cannot be replaced anyway";
    TempDir dir;
    const auto node = dir.path() / "null";
    ASSERT_EQ(::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
    const auto r = perfgauge({"stat", "-e", "task-clock", "-o", node.string(), "--", "true"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    struct stat st {};
    ASSERT_EQ(::lstat(node.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "-o replaced the device node with a regular file";
    const auto run = perfgauge(quick_run({"--json", node.string(), "-o", node.string()}));
    EXPECT_EQ(run.exit_code, 0) << "two outputs to one device lose nothing: " << run.err;
    ASSERT_EQ(::lstat(node.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(CliOutputs, SymlinkIsWrittenThrough) {
    TempDir dir;
    const auto target = dir.path() / "report.json";
    std::ofstream(target) << "old";
    const auto link = dir.path() / "latest.json";
    fs::create_symlink(target.filename(), link);
    const auto r = perfgauge(
        {"stat", "-e", "task-clock", "--format", "json", "-o", link.string(), "--", "true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(nlohmann::json::parse(read_file(target))["exit_status"], 0);
}

TEST(CliOutputs, SameFileForTwoOutputsIsRefusedBeforeMeasuring) {
    TempDir dir;
    const auto file = dir.path() / "r.json";
    fs::create_symlink("r.json", dir.path() / "alias.json");
    const auto r =
        perfgauge(quick_run({"-o", file.string(), "--json", (dir.path() / "alias.json").string()}));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("name the same file"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(file));
}

// "-" is the standard stream for -o, as for most tools, and no file anywhere: an output that must
// be a file (--json) refuses it before anything is measured, and nothing named "-" appears.
TEST(CliOutputs, DashIsTheStandardStreamNotAFile) {
    TempDir dir;
    ProcessOptions options;
    options.working_directory = dir.path();
    auto r = perfgauge_with(options, quick_run({"--format", "json", "-o", "-", "--json", "none"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // One entry per clean sample (how many a loaded machine keeps is not asserted) and the
    // median: the whole result went to stdout.
    const auto benchmarks = nlohmann::json::parse(r.out).at("benchmarks");
    ASSERT_FALSE(benchmarks.empty()) << r.out;
    EXPECT_EQ(benchmarks.back().at("name"), "memcpy/log-uniform/hot/4K_median") << r.out;
    for (const auto& b : benchmarks)
        EXPECT_EQ(b.at("run_name"), "memcpy/log-uniform/hot/4K") << r.out;
    r = perfgauge_with(options, {"stat", "-e", "task-clock", "-o", "-", "--", "true"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("task-clock"), std::string::npos) << "stat's report goes to stderr";
    r = perfgauge_with(options, quick_run({"--json", "-"}));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("'-' names no file"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_empty(dir.path())) << "a file appeared in the working directory";
}

// Every command that prints to stdout: a full disk behind it is an error, not exit 0.
TEST(CliOutputs, FullStdoutFails) {
    TempDir dir;
    const auto result = dir.path() / "r.json";
    ASSERT_EQ(perfgauge(quick_run({"--json", result.string(), "-o", "/dev/null"})).exit_code, 0);
    ProcessOptions full;
    full.stdout_path = "/dev/full";
    const std::vector<std::vector<std::string>> commands = {
        quick_run({"--json", "none"}),
        {"export", result.string(), "--format", "csv"},
        {"compare", result.string(), result.string()},
        {"doctor"},
        {"list"},
        {"--help"}};
    for (const auto& args : commands) {
        const auto r = perfgauge_with(full, args);
        EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
        EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << args[0] << r.err;
    }
}

// stat's exit status is the command's, whatever happens to its own report.
TEST(CliOutputs, StatKeepsTheCommandsStatusWhenItsReportCannotBeWritten) {
    for (const std::string stderr_path : {"/dev/full", "-"}) {
        ProcessOptions options;
        options.stderr_path = stderr_path;
        const auto r =
            perfgauge_with(options, {"stat", "-e", "task-clock", "--", "sh", "-c", "exit 3"});
        EXPECT_EQ(r.exit_code, 3) << "stderr " << stderr_path;
    }
    const auto r =
        perfgauge({"stat", "-e", "task-clock", "-o", "/dev/full", "--", "sh", "-c", "exit 3"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.err.find("the exit status is still the command's (3)"), std::string::npos) << r.err;
}

TEST(CliOutputs, QuickDefaultRunsLeaveOneFileEach) {
    TempDir dir;
    ProcessOptions options;
    options.working_directory = dir.path();
    std::set<std::string> said;
    for (int i = 0; i < 3; ++i) {
        const auto r = perfgauge_with(options, quick_run());
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto at = r.err.find("result saved to ");
        ASSERT_NE(at, std::string::npos) << r.err;
        said.insert(r.err.substr(at + 16, r.err.find('\n', at) - at - 16));
    }
    std::set<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir.path()))
        files.insert(entry.path().filename().string());
    EXPECT_EQ(files.size(), 3u);
    EXPECT_EQ(files, said) << "the path printed is the one written";
}

// The signal goes once the measured command has started (it leaves a file), whatever the load.
TEST(CliInterrupt, SigtermToStatLeavesNoChild) {
    // A name no other test uses, to find leftovers by.
    TempDir dir;
    const auto sleeper = dir.path() / "pg-sleeper";
    fs::copy_file("/bin/sleep", sleeper);
    ProcessOptions options;
    options.signal = SIGTERM;
    const auto started = (dir.path() / "started").string();
    options.signal_when = once_exists(started);
    const auto r =
        perfgauge_with(options, {"stat", "-e", "task-clock", "--", "/bin/sh", "-c",
                                 "touch " + started + " && exec " + sleeper.string() + " 5"});
    EXPECT_EQ(r.exit_code, 143) << r.err;
    EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
    EXPECT_FALSE(process_running("pg-sleeper"));
    // Grandchildren too: the shell dies of the signal, its pipeline would live on.
    const auto piped_started = (dir.path() / "piped").string();
    options.signal_when = once_exists(piped_started);
    const auto piped =
        perfgauge_with(options, {"stat", "-e", "task-clock", "--", "/bin/sh", "-c",
                                 "touch " + piped_started + "; " + sleeper.string() + " 5 | cat"});
    EXPECT_EQ(piped.exit_code, 143) << piped.err;
    EXPECT_FALSE(process_running("pg-sleeper")) << "a grandchild outlived perfgauge";
}

// Signals perfgauge does not handle end it at once; the command it measures must not live on
// (the sleeper would, for 30 s). Only perfgauge is signalled, as `kill PID` does, once the
// command has left a file: it was there to be killed, whatever the load.
TEST(CliInterrupt, ACommandDiesWithAPerfgaugeKilledOutright) {
    TempDir dir;
    const auto sleeper = dir.path() / "pg-orphan";
    fs::copy_file("/bin/sleep", sleeper);
    for (const int signal : {SIGKILL, SIGQUIT, SIGUSR1}) {
        const auto started = dir.path() / ("started-" + std::to_string(signal));
        ProcessOptions options;
        options.signal = signal;
        options.signal_when = once_exists(started);
        options.signal_program_only = true;
        options.working_directory = dir.path();  // where a SIGQUIT core would go
        const auto r = perfgauge_with(
            options, {"stat", "-e", "task-clock", "--", "/bin/sh", "-c",
                      "touch " + started.string() + " && exec " + sleeper.string() + " 30"});
        EXPECT_EQ(r.exit_code, 128 + signal) << r.err;
        EXPECT_TRUE(fs::exists(started)) << "the command had not started when perfgauge died";
        // The orphan is killed at once, and reaped by whichever process adopts it.
        bool gone = false;
        for (int i = 0; i < 100 && !gone; ++i) {
            gone = !process_running("pg-orphan");
            if (!gone)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        EXPECT_TRUE(gone) << "the command outlived perfgauge killed by signal " << signal;
    }
}

// Ctrl-C signals the whole foreground group: perfgauge and the command it runs. The command
// counts its runs in a file and leaves another from its third run on; the signal goes then, so
// runs are complete whatever the load (a warm-up run included).
TEST(CliInterrupt, CtrlCDuringStatRepetitionsReportsTheCompletedRuns) {
    TempDir dir;
    const auto count = (dir.path() / "count").string();
    const auto third = (dir.path() / "third").string();
    ProcessOptions options;
    options.signal = SIGINT;
    options.signal_when = once_exists(third);
    const auto r = perfgauge_with(
        options, {"stat", "-e", "task-clock,page-faults", "-r", "100000", "--format", "json", "--",
                  "/bin/sh", "-c",
                  "n=$(cat " + count + " 2>/dev/null || echo 0); n=$((n + 1)); echo $n > " + count +
                      "; if [ $n -ge 3 ]; then touch " + third + "; fi"});
    EXPECT_EQ(r.exit_code, 130) << r.err;
    const auto j = nlohmann::json::parse(r.err);
    EXPECT_EQ(j["interrupted"], "SIGINT");
    EXPECT_GT(j["repetitions"].get<int>(), 0);
    EXPECT_LT(j["repetitions"].get<int>(), 100000);
    for (const auto& e : j["events"]) {
        EXPECT_EQ(e["status"], "counted") << e.dump();
        EXPECT_EQ(e["samples"].size(), j["repetitions"].get<std::size_t>());
    }
}

// The same for stat's -o: the report of the runs completed goes beside the file it names, and
// an event left to callgrind, which never ran, says so instead of "<counted>".
TEST(CliInterrupt, CtrlCDuringStatKeepsTheReportItWouldHaveReplaced) {
    TempDir dir;
    const auto count = (dir.path() / "count").string();
    const auto third = (dir.path() / "third").string();
    const auto report = dir.path() / "report.txt";
    std::ofstream(report) << "an earlier report\n";
    ProcessOptions options;
    options.signal = SIGINT;
    options.signal_when = once_exists(third);
    const auto r = perfgauge_with(
        options, {"stat", "-e", "task-clock,instructions", "-r", "100000", "-o", report.string(),
                  "--", "/bin/sh", "-c",
                  "n=$(cat " + count + " 2>/dev/null || echo 0); n=$((n + 1)); echo $n > " + count +
                      "; if [ $n -ge 3 ]; then touch " + third + "; fi"});
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_EQ(read_file(report), "an earlier report\n");
    const auto beside = dir.path() / "report.interrupted.txt";
    ASSERT_TRUE(fs::exists(beside)) << r.err;
    const auto text = read_file(beside);
    EXPECT_NE(text.find("interrupted by SIGINT"), std::string::npos) << text;
    EXPECT_EQ(text.find("<counted>"), std::string::npos) << text;
}

// A run of two measuring processes, interrupted by SIGINT once the first has saved its share
// (its file in the run's scratch directory, which TMPDIR puts in `tmp`) while the second
// measures: not after a time, which a loaded machine can make too early or too late. Each
// process's share (100 rounds of two benchmarks of at least 1 ms) takes over 0.2 s: far longer
// than the 5 ms the signal may lag its moment.
ProcessResult interrupted_run(const fs::path& tmp, const fs::path& saved) {
    fs::create_directory(tmp);
    ProcessOptions options;
    options.signal = SIGINT;
    options.signal_when = [tmp] {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(tmp, ec)) {
            if (entry.path().filename().string().rfind("perfgauge-run", 0) == 0 &&
                fs::exists(entry.path() / "process-0.json", ec))
                return true;
        }
        return false;
    };
    return run_process({"/usr/bin/env", "TMPDIR=" + tmp.string(),
                        kCli,           "run",
                        "--workload",   "memcpy",
                        "--sizes",      "4K,8K",
                        "--cache",      "hot",
                        "-r",           "200",
                        "--processes",  "2",
                        "--precision",  "0",
                        "--min-time",   "0.001",
                        "-e",           "task-clock",
                        "-q",           "--json",
                        saved.string()},
                       options);
}

TEST(CliInterrupt, CtrlCDuringARunSavesWhatWasMeasured) {
    TempDir dir;
    const auto tmp = dir.path() / "tmp";
    const auto saved = dir.path() / "r.json";
    const auto r = interrupted_run(tmp, saved);
    EXPECT_EQ(r.exit_code, 130) << r.err;
    const auto j = nlohmann::json::parse(read_file(saved));
    EXPECT_EQ(j["context"]["perfgauge"]["interrupted"], "SIGINT");
    EXPECT_FALSE(j["benchmarks"].empty());
    // The first process's samples are among what was saved.
    const auto from_first =
        std::count_if(j["benchmarks"].begin(), j["benchmarks"].end(), [](const nlohmann::json& e) {
            return e["run_type"] == "iteration" && e.value("perfgauge_process", -1) == 0;
        });
    EXPECT_GT(from_first, 0) << "nothing of the finished process was saved";
    EXPECT_NE(r.out.find("interrupted by SIGINT"), std::string::npos) << r.out;
    EXPECT_TRUE(perfgauge_temp_dirs(tmp).empty()) << "a scratch directory was left behind";
}

// An interrupted run never replaces the file its --json names (most often the complete result
// of an earlier run): its partial result goes beside it, and stderr says where.
TEST(CliInterrupt, CtrlCDuringARunKeepsTheResultItWouldHaveReplaced) {
    TempDir dir;
    const auto saved = dir.path() / "r.json";
    const std::string earlier = "{\"an earlier result\": true}\n";
    std::ofstream(saved) << earlier;
    const auto r = interrupted_run(dir.path() / "tmp", saved);
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_EQ(read_file(saved), earlier);
    const auto beside = dir.path() / "r.interrupted.json";
    ASSERT_TRUE(fs::exists(beside)) << r.err;
    const auto j = nlohmann::json::parse(read_file(beside));
    EXPECT_EQ(j["context"]["perfgauge"]["interrupted"], "SIGINT");
    EXPECT_NE(r.err.find(saved.string() +
                         " is kept as it was; the partial output of this run is "
                         "in " +
                         beside.string()),
              std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace perfgauge::test
