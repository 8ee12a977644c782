// End-to-end: perfgauge run's one-screen answer. Structure, exit status, files and messages
// only: the rows' figures come from times measured here and are not asserted (the answer's
// arithmetic is tested on hand-made results in run_answer_test.cpp).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <re2/re2.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

// Two portable decoders (no BMI2 needed), memcpy, one small size, hot and cold, few samples.
std::vector<std::string> small_run(const std::string& json, std::vector<std::string> more) {
    std::vector<std::string> args = {
        "run", "--variant", "branchy,unrolled", "--sizes", "1K",       "--l3", "64K",
        "-r",  "3",         "--min-time",       "0.0002",  "--warmup", "0",    "--precision",
        "0",   "-e",        "task-clock",       "-q",      "--json",   json};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

TEST(CliAnswer, FormatAnswerFitsOneScreenAndSaysWhereTheTableIs) {
    TempDir dir;
    const auto json = (dir.path() / "r.json").string();
    const auto r = perfgauge(small_run(json, {"--format", "answer"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("unrolled against branchy"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("perfgauge export " + json + " --format table"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("(given by --l3)"), std::string::npos) << r.out;  // how cold was sized
    EXPECT_EQ(r.out.find("BENCHMARK"), std::string::npos) << r.out;        // not the table
    std::istringstream lines(r.out);
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count)
        EXPECT_LE(line.size(), 100u) << line;
    EXPECT_LE(count, 25u) << r.out;

    const auto saved = nlohmann::json::parse(read_file(json));
    EXPECT_EQ(saved["context"]["perfgauge"]["workload_context"]["l3_found_by"], "given by --l3");

    // A variant name the file does not hold: what it holds, and the nearest.
    const auto typo =
        perfgauge({"compare", json, "--baseline", "branchy", "--contender", "unroled"});
    EXPECT_EQ(typo.exit_code, 2) << typo.err;
    EXPECT_NE(typo.err.find("did you mean unrolled?"), std::string::npos) << typo.err;
    EXPECT_NE(typo.err.find("its variants: branchy, unrolled"), std::string::npos) << typo.err;

    // The Markdown summary: the answer, then every entry.
    const auto md = perfgauge({"export", json, "--format", "md"});
    ASSERT_EQ(md.exit_code, 0) << md.err;
    EXPECT_EQ(md.out.rfind("## Answer", 0), 0u) << md.out;
    EXPECT_NE(md.out.find("## Every entry"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("| varint/unrolled/log-uniform/end-on-end/cold/1K |"), std::string::npos)
        << md.out;
}

TEST(CliAnswer, ASelectionPrintsTheTableUnlessTheAnswerIsAsked) {
    TempDir dir;
    const auto json = (dir.path() / "r.json").string();
    const auto r = perfgauge(small_run(json, {}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("BENCHMARK"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("against branchy"), std::string::npos) << r.out;
}

TEST(CliAnswer, OneDecoderHasNoAnswerAndGetsTheTable) {
    TempDir dir;
    const auto json = (dir.path() / "r.json").string();
    auto args = small_run(json, {"--format", "answer"});
    args[2] = "branchy";
    const auto r = perfgauge(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("BENCHMARK"), std::string::npos) << r.out;
}

// A variant the run skipped is named as skipped, with why, where compare would show it. The
// skip is written into the saved result: which variants a CPU runs varies between machines.
TEST(CliAnswer, CompareNamesASkippedVariantAsSkippedWithWhy) {
    TempDir dir;
    const auto json = (dir.path() / "r.json").string();
    ASSERT_EQ(perfgauge(small_run(json, {})).exit_code, 0);
    auto saved = nlohmann::json::parse(read_file(json));
    const std::string why =
        "'avx512' cannot run under valgrind, which does not decode AVX-512 instructions";
    saved["context"]["perfgauge"]["warnings"].push_back("skipped: " + why);
    const auto skipped = (dir.path() / "skipped.json").string();
    std::ofstream(skipped) << saved.dump();

    const auto asked =
        perfgauge({"compare", skipped, "--baseline", "branchy", "--contender", "avx512"});
    EXPECT_EQ(asked.exit_code, 2) << asked.err;
    EXPECT_NE(asked.err.find("--contender avx512: " + skipped + " skipped it (" + why),
              std::string::npos)
        << asked.err;
    EXPECT_NE(asked.err.find("its variants: branchy, unrolled"), std::string::npos) << asked.err;

    const auto pair =
        perfgauge({"compare", skipped, "--baseline", "branchy", "--contender", "unrolled"});
    ASSERT_EQ(pair.exit_code, 0) << pair.err;
    EXPECT_NE(pair.out.find("note: " + skipped + ": a variant skipped in that run: " + why),
              std::string::npos)
        << pair.out;
}

// Progress on a terminal: a total that never moves and nothing past it; none in a pipe.
TEST(CliAnswer, ProgressOnATerminalKeepsItsTotal) {
    if (!std::filesystem::exists("/usr/bin/script"))
        GTEST_SKIP() << "needs script(1) for a pseudo-terminal";
    TempDir dir;
    const auto json = (dir.path() / "r.json").string();
    auto args = small_run(json, {"--format", "answer"});
    args.erase(std::find(args.begin(), args.end(), "-q"));
    std::string command = PERFGAUGE_CLI_PATH;
    for (const auto& a : args)
        command += " '" + a + "'";
    const auto r = run_process({"/usr/bin/script", "-qfec", command, "/dev/null"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    // Three rounds over the default two measuring processes: 2 in the first, 1 in the second.
    // The first draws nothing in the run's first second; the second, past it, draws at once.
    EXPECT_NE(r.out.find("perfgauge run: process 2/2, sizing batches 1/"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("perfgauge run: process 2/2, round 1/1"), std::string::npos) << r.out;
    const RE2 round("round ([0-9]+)/([0-9]+)");
    re2::StringPiece rest(r.out);
    for (unsigned long done = 0, of = 0; RE2::FindAndConsume(&rest, round, &done, &of);)
        EXPECT_LE(done, of) << "round " << done << "/" << of;
    const auto piped = perfgauge(args);
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(piped.err.find("round 1/3"), std::string::npos) << piped.err;
}

TEST(CliAnswer, UnknownFormatIsStillRefused) {
    const auto r = perfgauge({"run", "--format", "answers", "--sizes", "1K"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("answers"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace perfgauge::test
