// stat side by side's default report, the answer first: rendered from fixed synthetic results
// (no command runs, nothing is timed), it fits 12 lines of 80 columns for two commands and says
// the time verdict on its first line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perfgauge/harness/stat_as_run.hpp"
#include "perfgauge/harness/stat_report.hpp"

namespace perfgauge::harness {
namespace {

// An event counted in every run; without samples, one the machine refused.
StatEventResult event(std::string name, EventSource source, std::vector<double> samples = {}) {
    StatEventResult e;
    e.name = std::move(name);
    e.source = source;
    e.counted = !samples.empty();
    e.samples = std::move(samples);
    if (!e.counted)
        e.refusal = {"not supported", "this machine exposes no hardware PMU", "--backend sim"};
    return e;
}

// `runs` rounds of a command whose run takes `seconds` (round k a little slower, as a
// drifting machine makes it), with page faults and context switches, and instructions
// simulated once; cycles not supported.
StatResult command(std::string line, double seconds, double faults, double instructions,
                   std::size_t runs = 10) {
    StatResult s;
    s.command = {std::move(line)};
    s.repetitions = static_cast<int>(runs);
    std::vector<double> f, switches, sim;
    for (std::size_t k = 0; k < runs; ++k) {
        const double drift = 1 + 0.01 * static_cast<double>(k % 4);
        s.elapsed_seconds.push_back(seconds * drift);
        s.user_seconds.push_back(0.9 * seconds * drift);
        s.system_seconds.push_back(0.05 * seconds * drift);
        f.push_back(faults + static_cast<double>(k % 3));
        switches.push_back(static_cast<double>(k % 2));
        sim.push_back(instructions);
    }
    s.events = {event("cycles", EventSource::hardware),
                event("instructions", EventSource::simulated, sim),
                event("page-faults", EventSource::software, f),
                event("context-switches", EventSource::software, switches)};
    s.notes = {"sim: one run under valgrind"};
    return s;
}

SideBySideResult side_by_side(std::vector<StatResult> commands) {
    SideBySideResult r;
    std::vector<std::vector<std::string>> lines;
    for (const auto& c : commands)
        lines.push_back(c.command);
    r.labels = side_by_side_labels(lines);
    r.rounds_planned = static_cast<int>(commands.front().elapsed_seconds.size());
    r.commands = std::move(commands);
    return r;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

std::string answer(const SideBySideResult& r) {
    return render_side_by_side_answer(r, compare_side_by_side(r, CompareOptions{}));
}

TEST(SideBySideAnswer, TwoCommandsFitOneScreenWithTheVerdictFirst) {
    const auto r =
        side_by_side({command("./decode --branchy --input data/skewed.bin", 0.0123, 1000, 2.0e9),
                      command("./decode --bmi2 --input data/skewed.bin", 0.0100, 3000, 1.5e9)});
    const std::string text = answer(r);
    const auto lines = lines_of(text);
    EXPECT_LE(lines.size(), kSideBySideAnswerLines) << text;
    EXPECT_LE(widest_line(text), kSideBySideAnswerWidth) << text;
    // The verdict first, with its interval and how many rounds it rests on.
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0].rfind("B ran 18.7% faster than A, 95% CI [", 0), 0u) << text;
    EXPECT_NE(lines[0].find("10 rounds paired"), std::string::npos) << text;
    EXPECT_EQ(lines[1], "  A  ./decode --branchy --input data/skewed.bin") << text;
    // Time, CPU time and the counters that differ, each with its verdict; the one that does
    // not differ (context switches) is left to --format table, the refused one named.
    for (const char* shown : {"  time ", "  cpu-time ", "instructions [sim]", "exact",
                              "page-faults [sw]", "not counted: cycles", "--format table"})
        EXPECT_NE(text.find(shown), std::string::npos) << shown << " in\n" << text;
    // No legend on every run: it is --help's.
    for (const char* left_out : {"context-switches", "Mann-Whitney"})
        EXPECT_EQ(text.find(left_out), std::string::npos) << left_out << " in\n" << text;
}

TEST(SideBySideAnswer, ManyDifferingCountersStayWithinTwelveLinesAndSayHowManyMore) {
    auto a = command("./a", 0.010, 1000, 2.0e9);
    auto b = command("./b", 0.010, 3000, 1.5e9);
    for (int k = 0; k < 12; ++k) {
        const std::string name = "L1-dcache-load-misses-and-a-long-name-" + std::to_string(k);
        a.events.push_back(event(name, EventSource::simulated, std::vector<double>(10, 1e6)));
        b.events.push_back(event(name, EventSource::simulated, std::vector<double>(10, 2e6)));
    }
    const std::string text = answer(side_by_side({a, b}));
    EXPECT_LE(lines_of(text).size(), kSideBySideAnswerLines) << text;
    EXPECT_LE(widest_line(text), kSideBySideAnswerWidth) << text;
    EXPECT_NE(text.find("more counters differ"), std::string::npos) << text;
    EXPECT_NE(text.find("more in --format table ("), std::string::npos) << text;
    // Same time: the verdict says equivalent, first.
    EXPECT_EQ(text.rfind("B and A took the same time: equivalent", 0), 0u) << text;
}

TEST(SideBySideAnswer, ThreeCommandsGetALinePerCommandAgainstTheFirst) {
    const auto r =
        side_by_side({command("./a", 0.010, 1000, 2.0e9), command("./b", 0.012, 1000, 2.0e9),
                      command("./c", 0.005, 1000, 1.0e9)});
    const std::string text = answer(r);
    const auto lines = lines_of(text);
    EXPECT_LE(lines.size(), kSideBySideAnswerLines) << text;
    EXPECT_LE(widest_line(text), kSideBySideAnswerWidth) << text;
    ASSERT_GE(lines.size(), 5u);
    EXPECT_EQ(lines[0].rfind("fastest: C ran 2.0x faster than A", 0), 0u) << text;
    EXPECT_NE(lines[2].find("(baseline)"), std::string::npos) << text;
    EXPECT_NE(lines[3].find("slower"), std::string::npos) << text;
    EXPECT_NE(lines[4].find("faster"), std::string::npos) << text;
    // Instructions differ for C only: one line naming it.
    EXPECT_NE(text.find("instructions [sim]: C -50.0% fewer"), std::string::npos) << text;
}

TEST(SideBySideAnswer, StoppedRoundsAreSaid) {
    auto r = side_by_side(
        {command("./a", 0.010, 1000, 2.0e9, 3), command("./b", 0.012, 1000, 2.0e9, 3)});
    r.rounds_planned = 10;
    r.failed_command = 1;
    r.commands[1].exit.code = 3;
    const std::string text = answer(r);
    EXPECT_EQ(text.rfind("B against A: too few rounds for a verdict (3 complete; -r 5", 0), 0u)
        << text;
    EXPECT_NE(text.find("stopped: B exited with 3"), std::string::npos) << text;
}

}  // namespace
}  // namespace perfgauge::harness
