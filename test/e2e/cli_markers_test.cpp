// End-to-end: `perfgauge stat --markers` and `--delay` counting only part of a command, with
// programs marked by <perfgauge/marker.h> (test/support/marker_pages.c, marker_scope.cpp).
// Page faults are a software event: exact, and countable without a PMU. Each page touched once
// is one minor fault; the tolerances cover the few faults of the markers' own code paths.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "../support/cli.hpp"
#include "../support/measured_programs.hpp"
#include "../support/temp_dir.hpp"
#include "../support/tools.hpp"

namespace perfgauge::test {
namespace {

// Faults for N touched pages in this build (ASan's shadow memory adds one per 8 pages, in the
// test program too: it is built with the same flags).
double pages(double n) {
    return n * test::kFaultsPerTouchedPage;
}

const std::string kScope = PERFGAUGE_MARKER_SCOPE_PATH;

ProcessResult stat(std::vector<std::string> options, const std::vector<std::string>& command) {
    options.insert(options.begin(), "stat");
    options.emplace_back("--");
    options.insert(options.end(), command.begin(), command.end());
    return perfgauge(options);
}

// The JSON report (on stderr) of `stat --format json`.
nlohmann::json stat_json(std::vector<std::string> options,
                         const std::vector<std::string>& command) {
    options.insert(options.end(), {"--format", "json"});
    const auto r = stat(options, command);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code != 0)
        return nlohmann::json::object();
    // A simulated run's notice ("... runs twice") comes first, on its own line.
    const auto start = r.err.find("\n{");
    return nlohmann::json::parse(
        r.err[0] == '{' || start == std::string::npos ? r.err : r.err.substr(start + 1));
}

const nlohmann::json& event(const nlohmann::json& j, const std::string& name) {
    for (const auto& e : j["events"]) {
        if (e["event"] == name)
            return e;
    }
    static const nlohmann::json none;
    ADD_FAILURE() << "no event " << name << " in " << j.dump();
    return none;
}

double value(const nlohmann::json& j, const std::string& name) {
    const auto& e = event(j, name);
    return e.is_object() && e["value"].is_number() ? e["value"].get<double>() : -1.0;
}

TEST(CliMarkers, CountsOnlyTheMarkedPages) {
    const auto j = stat_json({"--markers", "-e", "page-faults"}, {kMarkerPages});
    EXPECT_NEAR(value(j, "page-faults"), pages(1000), 40) << j.dump();
    EXPECT_EQ(j["marked_intervals"], nlohmann::json::array({1}));
}

TEST(CliMarkers, TableSaysHowManyIntervals) {
    const auto r = stat({"--markers", "-e", "page-faults"}, {kMarkerPages});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("1 marked interval: counted only between perfgauge_marker_start() and "
                         "perfgauge_marker_stop()"),
              std::string::npos)
        << r.err;
}

TEST(CliMarkers, WithoutMarkersTheWholeProgramCounts) {
    if (PERFGAUGE_SANITIZED_BUILD)
        GTEST_SKIP() << "ASan's runtime faults hundreds of pages at start-up and thousands in its "
                        "exit-time leak check: whole-program counts are not the program's";
    const auto j = stat_json({"-e", "page-faults"}, {kMarkerPages});
    // 7000 touched pages plus the program's start-up (loader, libc): some tens more.
    EXPECT_GE(value(j, "page-faults"), pages(7000)) << j.dump();
    EXPECT_LE(value(j, "page-faults"), pages(7000) + 300) << j.dump();
    EXPECT_TRUE(j["marked_intervals"].is_null());
}

TEST(CliMarkers, NoCpusUtilizedFromPartOfTheTaskClock) {
    // task-clock counts the marked part only, the elapsed time is the whole command's.
    const auto j = stat_json({"--markers", "-e", "task-clock"}, {kMarkerPages});
    for (const auto& m : j["derived"])
        EXPECT_NE(m["name"], "CPUs utilized") << j.dump();
    EXPECT_GT(value(j, "task-clock"), 0) << j.dump();
}

TEST(CliMarkers, TwoIntervalsAddUp) {
    const auto j =
        stat_json({"--markers", "-e", "page-faults", "-r", "2"}, {kMarkerPages, "twice"});
    EXPECT_NEAR(value(j, "page-faults"), pages(1000), 40) << j.dump();
    EXPECT_EQ(j["marked_intervals"], nlohmann::json::array({2, 2}));
}

TEST(CliMarkers, ProgramThatNeverMarksCountsNothingAndSaysSo) {
    const auto r = stat({"--markers", "-e", "page-faults"}, {kMarkerPages, "none"});
    ASSERT_EQ(r.exit_code, 0) << r.err;  // the command's status: it succeeded
    EXPECT_NE(r.err.find("0 marked intervals: the command never called perfgauge_marker_start()"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("<not counted>"), std::string::npos) << r.err;
    const auto j = stat_json({"--markers", "-e", "page-faults"}, {kMarkerPages, "none"});
    EXPECT_EQ(j["marked_intervals"], nlohmann::json::array({0}));
    EXPECT_TRUE(event(j, "page-faults")["value"].is_null());
    EXPECT_NE(event(j, "page-faults")["reason"].get<std::string>().find("no marked interval"),
              std::string::npos);
}

TEST(CliMarkers, ScopedHelperCountsAnotherThreadsPages) {
    // perfgauge::MarkedScope in C++; the pages are touched by a thread started inside it.
    const auto j = stat_json({"--markers", "-e", "page-faults"}, {kScope});
    // Starting the thread inside the scope faults its stack and TLS in; under ASan also the
    // thread's allocator cache and fake stack (CI's ASan pass once saw 71 more than 1125).
    const double kThreadStartFaults = PERFGAUGE_SANITIZED_BUILD ? 200 : 60;
    EXPECT_GE(value(j, "page-faults"), pages(1000) - 60) << j.dump();
    EXPECT_LE(value(j, "page-faults"), pages(1000) + kThreadStartFaults) << j.dump();
    EXPECT_EQ(j["marked_intervals"], nlohmann::json::array({1}));
}

TEST(CliMarkers, MarkersDoNothingOutsidePerfgauge) {
    const auto r = run_process({kMarkerPages});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // A stale variable is ignored, not written to: a descriptor that is no socket, one that is
    // closed, the one-number form, garbage.
    for (const char* stale : {"PERFGAUGE_MARKER_FD=0:1", "PERFGAUGE_MARKER_FD=999:1",
                              "PERFGAUGE_MARKER_FD=2", "PERFGAUGE_MARKER_FD=abc"}) {
        const auto r = run_process({"/usr/bin/env", stale, kMarkerPages});
        EXPECT_EQ(r.exit_code, 0) << stale << ": " << r.err;
    }
}

TEST(CliMarkers, DelayStartsCountingLater) {
    if (PERFGAUGE_SANITIZED_BUILD)
        GTEST_SKIP() << "ASan's runtime faults hundreds of pages at start-up and thousands in its "
                        "exit-time leak check: whole-program counts are not the program's";
    // 3000 pages, 600 ms of sleep, 1000 pages: enabled 300 ms after exec, only the last count.
    // Measured against the same command counted whole: what the delay leaves out is the first
    // 3000 pages (an ASan build's exit-time leak check faults after the delay too).
    const auto whole = stat_json({"-e", "page-faults"}, {kMarkerPages, "sleep", "600"});
    const auto j =
        stat_json({"--delay", "300", "-e", "page-faults"}, {kMarkerPages, "sleep", "600"});
    EXPECT_NEAR(value(whole, "page-faults") - value(j, "page-faults"), pages(3000), 150)
        << whole.dump() << "\n"
        << j.dump();
    EXPECT_EQ(j["delay_ms"], 300);
}

TEST(CliMarkers, DelayLongerThanTheCommandCountsNothingAndSaysWhy) {
    const auto r = stat({"--delay", "2000", "-e", "page-faults"}, {kMarkerPages, "sleep", "0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("the command ended before --delay 2000 ms had passed"), std::string::npos)
        << r.err;
}

TEST(CliMarkers, BadCombinationsAreRefused) {
    for (const auto& options :
         std::vector<std::vector<std::string>>{{"--markers", "--delay", "100", "-e", "page-faults"},
                                               {"--delay", "0", "-e", "page-faults"},
                                               {"--delay", "-5", "-e", "page-faults"}}) {
        const auto r = stat(options, {kMarkerPages});
        EXPECT_EQ(r.exit_code, 2) << r.err;
    }
}

TEST(CliMarkers, SimulatedInstructionsCoverOnlyTheMarkedWork) {
    if (PERFGAUGE_SANITIZED_BUILD)
        GTEST_SKIP() << "AddressSanitizer builds cannot run under valgrind";
    if (!valgrind_installed())
        GTEST_SKIP() << "valgrind is not installed (apt-get install valgrind)";
    const auto marked =
        stat_json({"--markers", "--backend", "sim", "-e", "instructions"}, {kMarkerPages});
    const auto whole = stat_json({"--backend", "sim", "-e", "instructions"}, {kMarkerPages});
    EXPECT_EQ(event(marked, "instructions")["source"], "sim");
    // The marked loop writes 1000 pages: a few instructions each (and not the millions of the
    // whole program's 7000 pages, loader and libc start-up).
    const double m = value(marked, "instructions");
    const double w = value(whole, "instructions");
    EXPECT_GE(m, 1000) << marked.dump();
    EXPECT_LE(m, 30000) << marked.dump();
    EXPECT_GE(w, 10 * m) << whole.dump();
    EXPECT_EQ(marked["marked_intervals"], nlohmann::json::array({1}));
    // Without --markers the markers do not touch the simulation: the marked program is simulated
    // whole, like the same pages touched by the program that never marks.
    const auto unmarked =
        stat_json({"--backend", "sim", "-e", "instructions"}, {kMarkerPages, "none"});
    EXPECT_NEAR(w, value(unmarked, "instructions"), 0.02 * w) << unmarked.dump();
    // Never marked: the simulation counts nothing either.
    const auto none =
        stat_json({"--markers", "--backend", "sim", "-e", "instructions"}, {kMarkerPages, "none"});
    EXPECT_LE(value(none, "instructions"), 0) << none.dump();
}

TEST(CliMarkers, DelayIsRefusedForSimulatedEvents) {
    if (PERFGAUGE_SANITIZED_BUILD || !valgrind_installed())
        GTEST_SKIP() << "needs valgrind (and a build without AddressSanitizer)";
    const auto r =
        stat({"--delay", "100", "--backend", "sim", "-e", "instructions"}, {kMarkerPages});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--delay cannot apply to simulated events"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace perfgauge::test
