// End-to-end: the perfgauge binary as a user runs it (events, doctor, usage errors).
#include <gtest/gtest.h>

#include <re2/re2.h>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "../support/cli.hpp"
#include "../support/model_pmu.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::test {
namespace {

// The row of `event` in the events table: "NAME  PMU  KIND  OPENS HERE  DESCRIPTION".
std::string row_of(const std::string& table, const std::string& event) {
    std::string found;
    const RE2 row("(?m)^(" + event + " +.*)$");
    return RE2::PartialMatch(table, row, &found) ? found : "";
}

TEST(CliEvents, ListsCyclesAndTaskClockWithWhetherTheyOpenHere) {
    const auto r = perfgauge({"events"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string cycles = row_of(r.out, "cycles");
    const std::string task_clock = row_of(r.out, "task-clock");
    ASSERT_FALSE(cycles.empty()) << r.out;
    ASSERT_FALSE(task_clock.empty()) << r.out;
    EXPECT_NE(task_clock.find("software  yes"), std::string::npos) << task_clock;
    if (hardware_pmu_present()) {
        EXPECT_NE(cycles.find("hardware  yes"), std::string::npos) << cycles;
    } else {
        EXPECT_NE(cycles.find("hardware  not supported"), std::string::npos) << cycles;
        EXPECT_NE(r.out.find("exposes no hardware PMU"), std::string::npos) << r.out;
    }
}

TEST(CliEvents, FilterFindsTheModelsRetiredInstructions) {
    const auto model = detected_model_pmu();
    if (!model)
        GTEST_SKIP() << kNoKnownModelPmu;
    const auto r = perfgauge({"events", "RETIRED"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(row_of(r.out, model->retired).find(model->pmu), std::string::npos) << r.out;
    EXPECT_TRUE(row_of(r.out, "cycles").empty()) << "the filter must drop unrelated events";
}

TEST(CliEvents, FilterWithoutMatchesFails) {
    const auto r = perfgauge({"events", "no-such-event-anywhere"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no event matches"), std::string::npos) << r.err;
}

TEST(CliEvents, ResolveUnknownNameFailsAndSuggests) {
    const auto r = perfgauge({"events", "--resolve", "cyclez"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("did you mean cycles"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run 'perfgauge events' to list"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliEvents, ResolveShowsTwoGroups) {
    const auto r = perfgauge({"events", "--resolve", "{cycles,instructions},task-clock:u"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("group 1 {...}: 2 events"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("group 2: 1 event"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("group 3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cycles (leader)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("task-clock:u"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 (software)"), std::string::npos) << r.out;
}

TEST(CliEvents, ResolveVerboseDumpsTheAttr) {
    const auto r = perfgauge({"events", "--resolve", "cycles", "--verbose"});  // user space only
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("exclude_kernel 1"), std::string::npos) << r.out;
}

TEST(CliEvents, SyntaxErrorNamesTheColumn) {
    const auto r = perfgauge({"events", "--resolve", "cycles,,instructions"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("column 8"), std::string::npos) << r.err;
}

TEST(CliDoctor, ExplainsThePmuSituation) {
    const auto r = perfgauge({"doctor"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("software events"), std::string::npos);
    EXPECT_NE(r.out.find("perf_event_paranoid"), std::string::npos);
    EXPECT_NE(r.out.find("caches"), std::string::npos);
    if (!hardware_pmu_present()) {
        EXPECT_NE(r.out.find("[FAIL] hardware PMU: this machine exposes no hardware PMU"),
                  std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find("fix:"), std::string::npos) << r.out;
    }
}

// --brief: the same checks in the same order, each on one line of at most 100 columns, no fix.
TEST(CliDoctor, BriefIsOneLineOfAtMost100ColumnsPerCheck) {
    const auto full = perfgauge({"doctor"});
    const auto brief = perfgauge({"doctor", "--brief"});
    ASSERT_EQ(brief.exit_code, full.exit_code) << brief.err;
    const auto labels = [](const std::string& text) {
        std::vector<std::string> found;  // "[WARN] load", one per check
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            if (line.size() > 7 && line[0] == '[' && line[5] == ']')
                found.push_back(line.substr(0, line.find(':')));
        }
        return found;
    };
    const auto full_checks = labels(full.out);
    ASSERT_GT(full_checks.size(), 10U) << full.out;
    EXPECT_EQ(labels(brief.out), full_checks) << brief.out;
    std::istringstream lines(brief.out);
    std::string line;
    std::getline(lines, line);
    EXPECT_NE(line.find("perfgauge doctor"), std::string::npos) << line;
    for (; std::getline(lines, line);) {
        EXPECT_LE(line.size(), 100U) << line;
        EXPECT_EQ(line.find("fix:"), std::string::npos) << line;
    }
    if (!hardware_pmu_present()) {
        EXPECT_NE(brief.out.find("[FAIL] hardware PMU: this machine exposes no hardware PMU\n"),
                  std::string::npos)
            << brief.out;
    }
}

TEST(CliUsage, BadInputExitsTwoWithAHint) {
    auto r = perfgauge({"events", "--bogus"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--bogus"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("perfgauge events --help"), std::string::npos) << r.err;
    r = perfgauge({"frobnicate"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
    r = perfgauge({});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("usage: perfgauge"), std::string::npos) << r.err;
}

TEST(CliUsage, HelpAndVersionSucceed) {
    EXPECT_EQ(perfgauge({"--help"}).exit_code, 0);
    EXPECT_EQ(perfgauge({"events", "--help"}).exit_code, 0);
    EXPECT_EQ(perfgauge({"doctor", "--help"}).exit_code, 0);
    const auto v = perfgauge({"--version"});
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_NE(v.out.find("perfgauge "), std::string::npos);
}

}  // namespace
}  // namespace perfgauge::test
