// End-to-end, issue 38's classes 3 and 8: a stage that fails after the measurement keeps the
// rest (a simulation, a measuring process, plot's note on stderr), the exit status says that
// something failed, and statuses and messages tell the truth (a full TMPDIR, an interrupted
// save, a misconfigured PERFGAUGE_VALGRIND).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <thread>

#include "../support/cli.hpp"
#include "../support/full_filesystem.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

// A shell script standing in for valgrind.
fs::path fake_valgrind(const TempDir& dir, const std::string& name, const std::string& body) {
    const auto path = dir.path() / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(path, fs::perms::owner_all);
    return path;
}

// A tiny run: one memcpy benchmark, task-clock natively, instructions simulated.
std::vector<std::string> tiny_sim_run(const std::vector<std::string>& env, const fs::path& saved) {
    std::vector<std::string> argv = {"/usr/bin/env"};
    argv.insert(argv.end(), env.begin(), env.end());
    for (const char* a : {PERFGAUGE_CLI_PATH,
                          "run",
                          "--workload",
                          "memcpy",
                          "--sizes",
                          "1K",
                          "--cache",
                          "hot",
                          "-r",
                          "2",
                          "--processes",
                          "1",
                          "--min-time",
                          "0.0002",
                          "--warmup",
                          "0",
                          "--precision",
                          "0",
                          "-q",
                          "--backend",
                          "sim",
                          "-e",
                          "task-clock,instructions"})
        argv.emplace_back(a);
    argv.insert(argv.end(), {"--json", saved.string()});
    return argv;
}

std::map<std::string, nlohmann::json> event_columns(const fs::path& saved) {
    std::map<std::string, nlohmann::json> out;
    const auto j = nlohmann::json::parse(read_file(saved), nullptr, false);
    if (j.is_discarded())
        return out;
    for (const auto& e : j["context"]["perfgauge"]["events"])
        out[e["name"].get<std::string>()] = e;
    return out;
}

// The simulation failed as `why` says: the native result is saved and printed, the simulated
// event is not counted and says why, exit 1.
void expect_native_kept(const ProcessResult& r, const fs::path& saved, const std::string& why) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto columns = event_columns(saved);
    ASSERT_EQ(columns.count("task-clock"), 1u) << "no result saved: " << r.err;
    EXPECT_TRUE(columns.at("task-clock")["counted"].get<bool>());
    const auto& sim = columns.at("instructions");
    EXPECT_FALSE(sim["counted"].get<bool>());
    const auto reason = sim["refusal"]["reason"].get<std::string>();
    EXPECT_NE(reason.find("the simulation under callgrind failed"), std::string::npos) << reason;
    EXPECT_NE(reason.find(why), std::string::npos) << reason;
    EXPECT_NE(r.out.find("task-clock"), std::string::npos) << "the table: " << r.out;
    EXPECT_NE(r.err.find("the simulated events are marked not counted"), std::string::npos)
        << r.err;
}

#define SKIP_IN_SANITIZED_BUILDS()                                                          \
    do {                                                                                    \
        if (PERFGAUGE_SANITIZED_BUILD)                                                      \
            GTEST_SKIP() << "AddressSanitizer builds refuse to simulate (no valgrind run)"; \
    } while (false)

TEST(CliFailedStages, ASimulationThatFailsKeepsTheNativeResult) {
    SKIP_IN_SANITIZED_BUILDS();
    TempDir dir;
    const std::map<std::string, std::pair<std::string, std::string>> cases = {
        {"exits 1", {"echo 'valgrind: broken on purpose' >&2; exit 1", "exited with 1"}},
        {"SIGKILL", {"kill -9 $$", "killed by signal 9 (SIGKILL)"}},
        {"SIGTERM", {"kill -TERM $$", "killed by signal 15 (SIGTERM)"}},
        {"gone", {"exec /nonexistent/valgrind \"$@\"", "exited with 127"}}};
    for (const auto& [name, script] : cases) {
        SCOPED_TRACE(name);
        const auto valgrind = fake_valgrind(dir, "valgrind-" + name.substr(0, 4), script.first);
        const auto saved = dir.path() / ("r-" + name.substr(0, 4) + ".json");
        const auto r =
            run_process(tiny_sim_run({"PERFGAUGE_VALGRIND=" + valgrind.string()}, saved));
        expect_native_kept(r, saved, script.second);
    }
}

TEST(CliFailedStages, ASimulationWithoutAScratchDirectoryKeepsTheNativeResult) {
    SKIP_IN_SANITIZED_BUILDS();
    TempDir dir;
    const auto valgrind = fake_valgrind(dir, "valgrind", "exit 0");
    const auto saved = dir.path() / "r.json";
    const auto r = run_process(tiny_sim_run(
        {"PERFGAUGE_VALGRIND=" + valgrind.string(), "TMPDIR=" + (dir.path() / "gone").string()},
        saved));
    expect_native_kept(r, saved, "cannot create a directory for callgrind's output");
}

// A full $TMPDIR: callgrind's output would fail only once everything was simulated, and the
// child's manifest named a scratch file gone by then. Said before the simulation, as what it is.
TEST(CliFailedStages, ASimulationWithAFullTmpdirSaysSoAndKeepsTheNativeResult) {
    SKIP_IN_SANITIZED_BUILDS();
    FullFilesystem full;
    if (!full.available())
        GTEST_SKIP() << full.why_not();
    TempDir dir;
    const auto saved = dir.path() / "r.json";
    const auto r = run_process(tiny_sim_run({"TMPDIR=" + full.path().string()}, saved));
    expect_native_kept(r, saved,
                       "no room for callgrind's output in " + full.path().string() +
                           " ($TMPDIR): No space left on device; free some space there");
    EXPECT_EQ(r.err.find("perfgauge-sim"), std::string::npos) << "a scratch path: " << r.err;
    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(full.path()))
        left.push_back(entry.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"filler"}) << "a temporary file was left";
}

// The measuring children's command line names their index and their result file, under this
// test's TMPDIR, in the request each gets as JSON: "--internal-request={...
// "measuring_child":{"count":3,"index":1,"result_path":"TMPDIR/perfgauge-run.pid..."}...}"
// (index 1 is the second of three). Only a process whose command line holds every one of
// `markers` is killed (other tests run beside this one).
bool kill_when_seen(const std::vector<std::string>& markers, std::chrono::seconds deadline) {
    const auto end = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < end) {
        std::error_code ec;  // processes come and go while /proc is listed
        for (fs::directory_iterator it("/proc", ec), end_of; !ec && it != end_of;
             it.increment(ec)) {
            const auto& entry = *it;
            const auto pid = entry.path().filename().string();
            if (pid.find_first_not_of("0123456789") != std::string::npos)
                continue;
            const auto cmdline = read_file(entry.path() / "cmdline");
            if (std::all_of(markers.begin(), markers.end(), [&](const std::string& m) {
                    return cmdline.find(m) != std::string::npos;
                })) {
                ::kill(std::stoi(pid), SIGKILL);
                return true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
}

TEST(CliFailedStages, AKilledMeasuringProcessLosesOnlyItsOwnSamples) {
    TempDir dir;
    const auto saved = dir.path() / "r.json";
    const auto tmp = dir.path() / "tmp";
    fs::create_directory(tmp);
    bool killed = false;
    std::thread killer([&] {
        killed = kill_when_seen(
            {"--internal-request=", R"("count":3,"index":1,"result_path":")" + tmp.string()},
            std::chrono::seconds(60));
    });
    const auto r = run_process({"/usr/bin/env",
                                "TMPDIR=" + tmp.string(),
                                PERFGAUGE_CLI_PATH,
                                "run",
                                "--workload",
                                "memcpy",
                                "--sizes",
                                "1K,4K",
                                "--cache",
                                "hot",
                                "-r",
                                "6",
                                "--processes",
                                "3",
                                "--min-time",
                                "0.002",
                                "--warmup",
                                "0",
                                "--precision",
                                "0",
                                "-e",
                                "task-clock",
                                "-q",
                                "--json",
                                saved.string()});
    killer.join();
    ASSERT_TRUE(killed) << "measuring process 2 was never seen: " << r.err;
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto j = nlohmann::json::parse(read_file(saved), nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.err;
    EXPECT_EQ(j["context"]["perfgauge"]["processes"], 2) << "processes 1 and 3 merged";
    std::string warnings;
    for (const auto& w : j["context"]["perfgauge"]["warnings"])
        warnings += w.get<std::string>() + "\n";
    EXPECT_NE(warnings.find("measuring process 2 of 3 killed by signal 9 (SIGKILL); its samples "
                            "are lost"),
              std::string::npos)
        << warnings;
    EXPECT_NE(r.out.find("memcpy"), std::string::npos) << "the table: " << r.out;
}

bool python_has_matplotlib() {
    return run_process({"/usr/bin/python3", "-c", "import matplotlib"}).exit_code == 0;
}

// A small sweep to plot.
// A run result to plot, not measured here: a tiny run can keep no sample at all on a loaded
// machine (every one disturbed), and then there is nothing to plot (seen in a CI rehearsal,
// sanitized binary beside the arm64 guest). A real result of an earlier version, six samples.
fs::path sweep_result(const TempDir& dir) {
    const auto path = dir.path() / "sweep.json";
    fs::copy_file(
        fs::path(PERFGAUGE_SOURCE_DIR) / "test/harness/results/fixtures/run-unversioned.json",
        path);
    return path;
}

bool is_png(const fs::path& path) {
    return read_file(path).rfind("\x89PNG\r\n\x1a\n", 0) == 0;
}

TEST(CliFailedStages, PlotKeepsAFinishedPictureWhenStderrCannotTakeTheNote) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    TempDir dir;
    const auto result = sweep_result(dir);
    for (const std::string stderr_path : {"/dev/full", "-"}) {
        SCOPED_TRACE(stderr_path);
        const auto png = dir.path() / "kept.png";
        fs::remove(png);
        ProcessOptions options;
        options.stderr_path = stderr_path;
        const auto r = perfgauge_with(options, {"plot", result.string(), "-o", png.string()});
        EXPECT_TRUE(is_png(png)) << "exit " << r.exit_code;
        // The lost note is Python's ("wrote ..."): the picture asked for is there, exit 0.
        EXPECT_EQ(r.exit_code, 0);
    }
}

// `run --json` onto a file system with no space left (a real one: the write fails as it goes,
// not at open as /dev/full's does): the table is still printed, or written to -o, the JSON
// that failed is named with the reason, exit 1, and nothing is left half-written there.
TEST(CliFailedStages, RunJsonOntoAFullFileSystemKeepsTheTable) {
    FullFilesystem full;
    if (!full.available())
        GTEST_SKIP() << full.why_not();
    TempDir dir;
    const auto json = full.path() / "r.json";
    const std::vector<std::string> run = {
        "run",     "--l3", "64K",         "-r", "3",          "--min-time", "0.0002",  "--warmup",
        "0",       "-e",   "task-clock",  "-q", "--workload", "memcpy",     "--cache", "hot",
        "--sizes", "1K",   "--processes", "1",  "--json",     json.string()};
    const auto table = dir.path() / "table.txt";
    for (const bool to_file : {false, true}) {
        SCOPED_TRACE(to_file ? "-o FILE" : "stdout");
        auto args = run;
        if (to_file)
            args.insert(args.end(), {"-o", table.string()});
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 1) << r.err;
        const std::string printed = to_file ? read_file(table) : r.out;
        EXPECT_NE(printed.find("BENCHMARK"), std::string::npos) << printed;
        EXPECT_NE(r.err.find("--json: cannot write '" + json.string() + "'"), std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
        std::vector<std::string> left;
        for (const auto& entry : fs::directory_iterator(full.path()))
            left.push_back(entry.path().filename().string());
        EXPECT_EQ(left, std::vector<std::string>{"filler"}) << "a temporary file was left";
    }
}

TEST(CliFailedStages, PlotWithAFullTmpdirIsExit1NamingTheUsersFile) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    FullFilesystem full;
    if (!full.available())
        GTEST_SKIP() << full.why_not();
    TempDir dir;
    const auto result = sweep_result(dir);
    const auto png = dir.path() / "wanted.png";
    const auto r = run_process({"/usr/bin/env", "TMPDIR=" + full.path().string(),
                                PERFGAUGE_CLI_PATH, "plot", result.string(), "-o", png.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(png.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("perfgauge-plot"), std::string::npos) << "a scratch path: " << r.err;
    EXPECT_FALSE(fs::exists(png));
}

TEST(CliFailedStages, PlotNamesTheStreamItWasGivenNotItsScratchCopy) {
    if (!python_has_matplotlib())
        GTEST_SKIP() << "/usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)";
    TempDir dir;
    const auto result = sweep_result(dir);
    const auto fifo = dir.path() / "stream";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto r = run_process(
        {"/bin/sh", "-c", "cat \"$1\" > \"$2\" & exec \"$3\" plot \"$2\" --counters none -o \"$4\"",
         "sh", result.string(), fifo.string(), PERFGAUGE_CLI_PATH,
         (dir.path() / "p.png").string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("wrote " + (dir.path() / "p.png").string()), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("perfgauge-plot"), std::string::npos) << "a scratch path: " << r.err;
}

// For ProcessOptions::signal_when: true once a process given `fifo` in its arguments waits in
// the kernel for a reader to open it (opening a FIFO to write blocks in wait_for_partner), the
// moment it is saving; after 60 s anyway, so that a kernel that hides wchan fails the test
// instead of hanging it.
std::function<bool()> once_waiting_for_a_reader(const fs::path& fifo) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    return [fifo, deadline] {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator("/proc", ec)) {
            std::ifstream cmdline(entry.path() / "cmdline");
            std::string args((std::istreambuf_iterator<char>(cmdline)),
                             std::istreambuf_iterator<char>());
            if (args.find(fifo.string() + '\0') == std::string::npos)
                continue;
            std::string wchan;
            std::ifstream(entry.path() / "wchan") >> wchan;
            if (wchan == "wait_for_partner")
                return true;
        }
        return std::chrono::steady_clock::now() > deadline;
    };
}

// Interrupted while saving (-o is a FIFO nobody reads): 128+N, promptly, not an error about
// an interrupted system call and never a hang.
TEST(CliFailedStages, InterruptedWhileSavingIs128PlusN) {
    TempDir dir;
    const auto fifo = dir.path() / "out";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ProcessOptions options;
    options.signal = SIGINT;
    options.signal_when = once_waiting_for_a_reader(fifo);
    const auto r = perfgauge_with(options, {"stat", "-e", "task-clock", "--format", "json", "-o",
                                            fifo.string(), "--", "true"});
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_NE(r.err.find("interrupted by SIGINT while writing " + fifo.string()), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("the exit status is still the command's"), std::string::npos) << r.err;
}

TEST(CliFailedStages, AMisconfiguredValgrindIsNamedUnderBackendAuto) {
    SKIP_IN_SANITIZED_BUILDS();
    for (const std::string command : {"run", "stat"}) {
        SCOPED_TRACE(command);
        std::vector<std::string> argv = {"/usr/bin/env",
                                         "PERFGAUGE_VALGRIND=/nonexistent/valgrind",
                                         PERFGAUGE_CLI_PATH,
                                         command,
                                         "-e",
                                         "task-clock,instructions"};
        if (command == "run")
            argv.insert(argv.end(), {"--workload", "memcpy", "--sizes", "1K", "--json", "none"});
        else
            argv.insert(argv.end(), {"--", "true"});
        const auto r = run_process(argv);
        EXPECT_EQ(r.exit_code, 1) << r.err;
        EXPECT_NE(r.err.find("PERFGAUGE_VALGRIND=/nonexistent/valgrind: no such file"),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("--backend perf"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace perfgauge::test
