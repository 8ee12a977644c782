// End-to-end: `perfgauge stat -- A ::: B`, commands side by side: interleaved rounds, warmups,
// --prepare, paired verdicts, the failing command's status, simulation once per command, and
// `perfgauge compare` on the result. Page faults are a software event: exact without a PMU.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/cli.hpp"
#include "../support/measured_programs.hpp"
#include "../support/temp_dir.hpp"
#include "../support/tools.hpp"

namespace perfgauge::test {
namespace {

ProcessResult stat(std::vector<std::string> args) {
    args.insert(args.begin(), "stat");
    return perfgauge(args);
}

// The JSON report written with -o FILE.
nlohmann::json read_json(const std::string& path) {
    return nlohmann::json::parse(read_file(path));
}

std::string read_text(const std::string& path) {
    return read_file(path);
}

const nlohmann::json* metric(const nlohmann::json& comparison, const std::string& name) {
    for (const auto& b : comparison["benchmarks"]) {
        for (const auto& m : b["metrics"]) {
            if (m["metric"] == name)
                return &m;
        }
    }
    return nullptr;
}

// `options -- A ::: B` where each command appends its letter to `log` (and --prepare, when
// given, a P): the log is the order things ran.
std::vector<std::string> logging_pair(std::vector<std::string> options, const std::string& log) {
    options.push_back("--");
    for (const char* letter : {"A", "B"}) {
        if (options.back() != "--")
            options.push_back(":::");
        for (const auto& w : {std::string("/bin/sh"), std::string("-c"),
                              "echo " + std::string(letter) + " >> " + log})
            options.push_back(w);
    }
    return options;
}

TEST(CliSideBySide, RoundsAlternateAfterWarmupsAndPrepareRunsBeforeEveryRun) {
    TempDir dir;
    const std::string log = (dir.path() / "log").string();
    std::vector<std::string> args = {"-r",        "3",
                                     "--warmup",  "1",
                                     "--prepare", "echo P >> " + log,
                                     "-e",        "page-faults",
                                     "-o",        (dir.path() / "r.json").string(),
                                     "--format",  "json"};
    const auto r = stat(logging_pair(args, log));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string order;
    for (const char c : read_text(log)) {
        if (c != '\n')
            order += c;
    }
    // Warmup A B, then rounds A B, B A, A B: each run after its P.
    EXPECT_EQ(order,
              "PAPB"
              "PAPB"
              "PBPA"
              "PAPB");
    const auto j = read_json((dir.path() / "r.json").string());
    EXPECT_EQ(j["rounds"], 3);
    EXPECT_EQ(j["warmup"], 1);
    EXPECT_EQ(j["commands"].size(), 2u);
    EXPECT_EQ(j["commands"][0]["elapsed_seconds"].size(), 3u);
    EXPECT_EQ(j["commands"][1]["user_seconds"].size(), 3u);
}

TEST(CliSideBySide, PairedVerdictsNameBothCommands) {
    TempDir dir;
    const auto r = stat({"-r", "6", "-e", "page-faults", "--format", "json", "-o",
                         (dir.path() / "r.json").string(), "--", kStatWorkload, "touch", "1000",
                         ":::", kStatWorkload, "touch", "3000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = read_json((dir.path() / "r.json").string());
    ASSERT_EQ(j["labels"].size(), 2u);
    EXPECT_EQ(j["labels"][0], kStatWorkload + " touch 1000");
    EXPECT_EQ(j["labels"][1], kStatWorkload + " touch 3000");
    EXPECT_EQ(j["commands"][1]["command"], nlohmann::json::array({kStatWorkload, "touch", "3000"}));
    const auto* faults = metric(j["comparison"], "page-faults");
    ASSERT_NE(faults, nullptr) << j["comparison"].dump();
    EXPECT_EQ((*faults)["verdict"], "more");
    EXPECT_EQ((*faults)["method"], "paired");
    // About 2000 more pages (ASan's shadow adds some).
    EXPECT_GT(
        (*faults)["contender_median"].get<double>() - (*faults)["baseline_median"].get<double>(),
        1900);
    EXPECT_NE(metric(j["comparison"], "ns_per_run"), nullptr);
    EXPECT_NE(metric(j["comparison"], "cpu_ns_per_run"), nullptr);
}

TEST(CliSideBySide, TheAnswerComesFirstAndFitsOneScreen) {
    const auto r = stat({"-r", "5", "-e", "page-faults", "--", kStatWorkload, "touch", "100",
                         ":::", kStatWorkload, "touch", "2000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The command's own output first, then the answer: at most 12 lines, B's time verdict on
    // the first, page faults (1900 more every round) with theirs; no legend.
    const auto at = r.err.find("B ");
    ASSERT_NE(at, std::string::npos) << r.err;
    const std::string answer = r.err.substr(at);
    EXPECT_LE(std::count(answer.begin(), answer.end(), '\n'), 12) << answer;
    EXPECT_NE(answer.find("5 rounds paired"), std::string::npos) << answer;
    EXPECT_NE(answer.find("  A  " + kStatWorkload + " touch 100\n"), std::string::npos) << answer;
    EXPECT_NE(answer.find("page-faults [sw]"), std::string::npos) << answer;
    EXPECT_NE(answer.find("more"), std::string::npos) << answer;
    EXPECT_EQ(answer.find("Mann-Whitney"), std::string::npos) << answer;
    EXPECT_EQ(answer.find("Each command against A"), std::string::npos) << answer;
    // Not a terminal: no progress line, not even once.
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("run 1/5"), std::string::npos) << r.err;
}

TEST(CliSideBySide, ProgressOnlyOnATerminal) {
    if (!std::filesystem::exists("/usr/bin/script"))
        GTEST_SKIP() << "needs script(1) from util-linux for a terminal";
    // Six runs of at least 0.3 s: the line appears from the second second on, on the terminal
    // script(1) gives perfgauge, and is cleared before the report.
    const std::string line = std::string("'") + PERFGAUGE_CLI_PATH +
                             "' stat -r 3 -e page-faults -- sleep 0.3 ::: sleep 0.3";
    const auto tty = run_process({"/usr/bin/script", "-qec", line, "/dev/null"});
    ASSERT_EQ(tty.exit_code, 0) << tty.out << tty.err;
    EXPECT_NE(tty.out.find("\r\033[Kperfgauge stat: run "), std::string::npos) << tty.out;
    EXPECT_NE(tty.out.find(" of B, "), std::string::npos) << tty.out;
    EXPECT_NE(tty.out.find("\r\033[KB "), std::string::npos) << tty.out;  // cleared, then the answer
    // -q: none.
    const auto quiet = run_process({"/usr/bin/script", "-qec",
                                    std::string("'") + PERFGAUGE_CLI_PATH +
                                        "' stat -q -r 3 -e page-faults -- sleep 0.3 ::: sleep 0.3",
                                    "/dev/null"});
    ASSERT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;
    EXPECT_EQ(quiet.out.find("perfgauge stat: run "), std::string::npos) << quiet.out;
}

TEST(CliSideBySide, TableShowsEachCommandAndTheVerdicts) {
    const auto r = stat({"-r", "5", "-e", "page-faults", "--format", "table", "--", kStatWorkload,
                         "touch", "100", ":::", kStatWorkload, "touch", "2000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("2 commands side by side (5 rounds of 5 planned"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("A  " + kStatWorkload + " touch 100"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("B  " + kStatWorkload + " touch 2000"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Each command against A, paired by round"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("page-faults/run [sw]"), std::string::npos) << r.err;
}

TEST(CliSideBySide, TheFirstFailingCommandsStatusIsNamed) {
    TempDir dir;
    const auto r =
        stat({"-r", "4", "-e", "page-faults", "--format", "json", "-o",
              (dir.path() / "r.json").string(), "--", "true", ":::", "/bin/sh", "-c", "exit 3"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("exit status 3: '/bin/sh -c exit 3' exited with 3"), std::string::npos)
        << r.err;
    const auto j = read_json((dir.path() / "r.json").string());
    EXPECT_EQ(j["exit_status"], 3);
    EXPECT_NE(j["stopped"].get<std::string>().find("exited with 3"), std::string::npos);
    // Round 1 ran both (B's failing run is reported, as stat reports a failing command's
    // counts); no second round began.
    EXPECT_EQ(j["rounds"], 1);
    EXPECT_EQ(j["commands"][0]["elapsed_seconds"].size(), 1u);
}

TEST(CliSideBySide, ARunAnInterruptReachedIsNeverPaired) {
    // B interrupts perfgauge during its first run: A's whole run has no partner, so no round
    // completed and nothing is compared.
    const auto r = stat({"-r", "3", "-e", "page-faults", "--", "true", ":::", "/bin/sh", "-c",
                         "kill -INT $PPID; sleep 5"});
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_NE(r.err.find("interrupted by SIGINT before a round of every command completed"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("paired by round"), std::string::npos) << r.err;
}

TEST(CliSideBySide, ACommandThatCannotBeExecutedIsNamed) {
    const auto r = stat({"--", "true", ":::", "/nonexistent/perfgauge-test"});
    EXPECT_EQ(r.exit_code, 127) << r.err;
    EXPECT_NE(r.err.find("cannot execute '/nonexistent/perfgauge-test'"), std::string::npos)
        << r.err;
}

TEST(CliSideBySide, AFailingPrepareStopsWithItsStatus) {
    const auto r = stat({"-r", "3", "--prepare", "exit 4", "--", "true", ":::", "true"});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find("--prepare 'exit 4' exited with 4"), std::string::npos) << r.err;
}

TEST(CliSideBySide, EmptyCommandsAreRefused) {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--", "true", ":::"}, {"--", ":::", "true"}, {"--", "true", ":::", ":::", "true"}}) {
        const auto r = stat(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("is empty: separate commands with ':::'"), std::string::npos) << r.err;
    }
}

TEST(CliSideBySide, TheSameCommandTwiceGetsTwoNames) {
    TempDir dir;
    const auto r = stat({"-r", "5", "-e", "page-faults", "--format", "json", "-o",
                         (dir.path() / "r.json").string(), "--", "true", ":::", "true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = read_json((dir.path() / "r.json").string());
    EXPECT_EQ(j["labels"], nlohmann::json::array({"true", "true #2"}));
}

TEST(CliSideBySide, SimulatedCountsComeFromOneMoreRunOfEachCommand) {
    if (!valgrind_installed())
        GTEST_SKIP() << "needs valgrind (callgrind) to simulate instructions";
    if (PERFGAUGE_SANITIZED_BUILD)
        GTEST_SKIP() << "valgrind cannot run an AddressSanitizer build of perfgauge";
    TempDir dir;
    const std::string log = (dir.path() / "log").string();
    std::vector<std::string> args = {
        "-r",           "3",        "--backend", "sim", "-e",
        "instructions", "--format", "json",      "-o",  (dir.path() / "r.json").string()};
    const auto r = stat(logging_pair(args, log));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("each command runs once more under callgrind"), std::string::npos)
        << r.err;
    const std::string order = read_text(log);
    EXPECT_EQ(std::count(order.begin(), order.end(), 'A'), 4) << order;
    EXPECT_EQ(std::count(order.begin(), order.end(), 'B'), 4) << order;
    const auto j = read_json((dir.path() / "r.json").string());
    const auto* instructions = metric(j["comparison"], "instructions");
    ASSERT_NE(instructions, nullptr) << j.dump();
    EXPECT_EQ((*instructions)["method"], "deterministic");
    EXPECT_EQ((*instructions)["source"], "sim");
    EXPECT_TRUE((*instructions)["p_value"].is_null());
    // One simulated value for three runs reads back (as every run's count).
    const auto again =
        perfgauge({"compare", (dir.path() / "r.json").string(), (dir.path() / "r.json").string()});
    EXPECT_EQ(again.exit_code, 0) << again.err;
}

TEST(CliSideBySide, MarkersCountOnlyTheMarkedPartOfEachCommand) {
    TempDir dir;
    const auto r =
        stat({"--markers", "-r", "2", "-e", "page-faults", "--format", "json", "-o",
              (dir.path() / "r.json").string(), "--", kMarkerPages, ":::", kMarkerPages, "twice"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = read_json((dir.path() / "r.json").string());
    EXPECT_EQ(j["commands"][0]["marked_intervals"], nlohmann::json::array({1, 1}));
    EXPECT_EQ(j["commands"][1]["marked_intervals"], nlohmann::json::array({2, 2}));
}

TEST(CliSideBySide, CompareReadsTheResultAndPairsTwoOfItsCommands) {
    TempDir dir;
    const auto r = stat({"-r", "5", "-e", "page-faults", "--format", "json", "-o",
                         (dir.path() / "r.json").string(), "--", kStatWorkload, "touch", "100",
                         ":::", kStatWorkload, "touch", "2000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto c = perfgauge({"compare", (dir.path() / "r.json").string(), "--baseline",
                              kStatWorkload + " touch 100", "--contender",
                              kStatWorkload + " touch 2000", "--format", "json"});
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const auto j = nlohmann::json::parse(c.out);
    const auto* faults = metric(j, "page-faults");
    ASSERT_NE(faults, nullptr) << c.out;
    EXPECT_EQ((*faults)["verdict"], "more");
    EXPECT_EQ((*faults)["method"], "paired");
    const auto wrong = perfgauge({"compare", (dir.path() / "r.json").string(), "--baseline", "nope",
                                  "--contender", kStatWorkload + " touch 2000"});
    EXPECT_EQ(wrong.exit_code, 2);
    EXPECT_NE(wrong.err.find("its commands: '" + kStatWorkload + " touch 100'"), std::string::npos)
        << wrong.err;
    // Two side-by-side files compare command by command (matched by name).
    const auto files =
        perfgauge({"compare", (dir.path() / "r.json").string(), (dir.path() / "r.json").string()});
    EXPECT_EQ(files.exit_code, 0) << files.err;
}

TEST(CliSideBySide, VerboseShowsTheAttributesAsOpened) {
    const auto r = stat({"-v", "-e", "page-faults", "--", "true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("page-faults (group 1, leader): type 1"), std::string::npos) << r.err;
    // As the kernel got them: inherited by children, enabled at exec, the group read format.
    EXPECT_NE(r.err.find("inherit 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("enable_on_exec 1"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("read_format 0x0,"), std::string::npos) << r.err;
}

TEST(CliSideBySide, SingleCommandTakesWarmupsToo) {
    TempDir dir;
    const std::string log = (dir.path() / "log").string();
    const auto r = stat({"-r", "2", "--warmup", "3", "-e", "page-faults", "--", "/bin/sh", "-c",
                         "echo A >> " + log});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_text(log), "A\nA\nA\nA\nA\n");
    EXPECT_NE(r.err.find("3 warmup runs first, not counted"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("(2 runs)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace perfgauge::test
