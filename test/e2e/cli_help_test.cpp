// End-to-end: what --help shows. Every command's help, no plumbing option names in it, defaults
// as they were typed, -r spelled alike in run and stat, `help CMD`, and typo suggestions.
#include <gtest/gtest.h>

#include <re2/re2.h>

#include "../support/cli.hpp"
#include "../support/text.hpp"

namespace perfgauge::test {
namespace {

const std::vector<std::string> kCommands = {"run",    "stat", "compare", "export",    "plot",
                                            "events", "list", "doctor",  "calibrate", "selftest"};

TEST(CliHelp, HelpCommandIsCommandDashDashHelp) {
    for (const auto& command : kCommands) {
        const auto help = perfgauge({"help", command});
        const auto dash = perfgauge({command, "--help"});
        EXPECT_EQ(help.exit_code, 0) << command << help.err;
        EXPECT_EQ(dash.exit_code, 0) << command << dash.err;
        EXPECT_EQ(help.out, dash.out) << command;
        EXPECT_TRUE(contains(help.out, "usage: perfgauge " + command)) << help.out;
    }
    EXPECT_EQ(perfgauge({"help"}).exit_code, 0);
    EXPECT_TRUE(contains(perfgauge({"--help"}).out, "perfgauge help COMMAND"));
}

TEST(CliHelp, NoPlumbingOptionNames) {
    // Options perfgauge passes to itself, and the names behind positional arguments.
    for (const auto& command : kCommands) {
        const auto r = perfgauge({command, "--help"});
        ASSERT_EQ(r.exit_code, 0) << command;
        EXPECT_FALSE(contains(r.out, "--internal")) << command << ":\n" << r.out;
        EXPECT_FALSE(contains(r.out, "--files ")) << command << ":\n" << r.out;
        EXPECT_FALSE(contains(r.out, "--file ")) << command << ":\n" << r.out;
        EXPECT_FALSE(contains(r.out, "--result ")) << command << ":\n" << r.out;
    }
    // Nor in boost's "ambiguous option" message for an abbreviation of them.
    const auto r = perfgauge({"run", "--int", "1"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_FALSE(contains(r.err, "internal")) << r.err;
}

TEST(CliHelp, DefaultsAsTyped) {
    // boost prints a double default at full precision: 0.050000000000000003.
    const RE2 long_number(R"(\(=[0-9.]*[0-9]{8,}\))");
    for (const auto& command : kCommands) {
        const auto r = perfgauge({command, "--help"});
        EXPECT_FALSE(RE2::PartialMatch(r.out, long_number)) << command << ":\n" << r.out;
    }
    const auto compare = perfgauge({"compare", "--help"}).out;
    EXPECT_TRUE(contains(compare, "--alpha arg (=0.05)")) << compare;
    EXPECT_TRUE(contains(compare, "--min-rare-delta arg (=0.001)")) << compare;
    const auto run = perfgauge({"run", "--help"}).out;
    EXPECT_TRUE(contains(run, "--min-time arg (=0.002)")) << run;
    EXPECT_TRUE(contains(run, "--warmup arg (=0.02)")) << run;
}

TEST(CliHelp, RepeatIsSpelledAlikeInRunAndStat) {
    EXPECT_TRUE(contains(perfgauge({"run", "--help"}).out, "-r [ --repeat ] arg (=10)"));
    EXPECT_TRUE(contains(perfgauge({"stat", "--help"}).out, "-r [ --repeat ] arg (=1)"));
    // Both long spellings work in both commands (checked through their bounds: nothing runs).
    for (const char* spelling : {"--repeat", "--repetitions"}) {
        const auto run = perfgauge({"run", spelling, "0"});
        EXPECT_EQ(run.exit_code, 2);
        EXPECT_TRUE(contains(run.err, "-r/--repeat must be 1 to 1000000, not 0")) << run.err;
        const auto stat = perfgauge({"stat", std::string(spelling) + "=0", "--", "true"});
        EXPECT_EQ(stat.exit_code, 2);
        EXPECT_TRUE(contains(stat.err, "-r/--repeat must be 1 to 100000, not 0")) << stat.err;
    }
}

TEST(CliHelp, MisspelledCommandsGetASuggestion) {
    auto r = perfgauge({"stta", "-e", "task-clock", "--", "true"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "unknown command 'stta' (did you mean stat?)")) << r.err;
    r = perfgauge({"comapre"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "did you mean compare?")) << r.err;
    r = perfgauge({"help", "exprot"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "did you mean export?")) << r.err;
    // Nothing close: the usage, as before.
    r = perfgauge({"frobnicate"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "usage: perfgauge")) << r.err;
}

}  // namespace
}  // namespace perfgauge::test
