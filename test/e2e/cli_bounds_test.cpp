// End-to-end: inputs perfgauge refuses at once, with exit 2 and the numbers in the message,
// instead of hanging, running out of memory or mislabelling.
#include <gtest/gtest.h>

#include <chrono>

#include "../support/cli.hpp"

namespace perfgauge::test {
namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Exit 2, the message on stderr, nothing measured (so nothing on stdout), and quickly.
void expect_refused(const std::vector<std::string>& args, const std::string& message) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = perfgauge(args);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, message)) << "expected '" << message << "' in:\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_LT(took.count(), 20.0) << "not refused at once";
}

TEST(CliBounds, RunTimesMustBeFinite) {
    expect_refused({"run", "--min-time", "inf"}, "--min-time must be in (0, 60] s, not inf");
    expect_refused({"run", "--min-time", "nan"}, "--min-time must be in (0, 60] s, not nan");
    expect_refused({"run", "--min-time", "1e300"}, "not 1e+300");
    expect_refused({"run", "--warmup", "inf"}, "--warmup must be in [0, 60] s, not inf");
    expect_refused({"run", "--warmup", "-1"}, "--warmup must be in [0, 60] s, not -1");
    expect_refused({"run", "--max-time", "nan"}, "--max-time must be in [0, 3600] s, not nan");
    expect_refused({"run", "--precision", "inf"}, "--precision must be in [0, 100) %, not inf");
    expect_refused({"run", "-r", "0"}, "--repetitions must be 1 to 1000000, not 0");
}

TEST(CliBounds, SizesBeyondAvailableMemoryAreRefusedBeforeAllocating) {
    const auto r = perfgauge({"run", "--sizes", "1000G", "--cache", "hot", "-q"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "--sizes: the largest working set, 1000G")) << r.err;
    EXPECT_TRUE(contains(r.err, "is available (MemAvailable)")) << r.err;
    EXPECT_TRUE(contains(r.err, "bytes")) << r.err;
    EXPECT_FALSE(contains(r.err, "bad_alloc")) << r.err;
    // The largest size there is: the arithmetic saturates instead of wrapping to a small number.
    expect_refused({"run", "--sizes", "17179869183G", "--workload", "memcpy"},
                   "the largest working set, 17179869183G");
    // Cold windows cover twice the last-level cache given: a huge --l3 is data too.
    expect_refused({"run", "--l3", "4000G", "--sizes", "1K", "--cache", "cold"},
                   "is available (MemAvailable)");
}

TEST(CliBounds, CacheOverridesThatMakeColdHotAreRefused) {
    // --l3 1: the rotation over 2x it (two lines, 128 bytes) stays in L1. The machine's L1d
    // comes from sysfs or CPUID; where neither knows it, there is nothing to hold --l3 against.
    expect_refused({"run", "--l3", "1", "--cache", "cold", "--sizes", "4K"},
                   "L1 data cache, so cold would run hot");
    expect_refused({"run", "--l3", "1", "--cache", "cold"}, "a last-level cache of 1B");
    // Hot alone is fine with any override: only the label cold would be false.
    const auto hot = perfgauge(
        {"run",    "--l3",        "1",           "--cache", "hot",        "--sizes",  "4K",
         "-r",     "2",           "--processes", "1",       "--min-time", "0.0002",   "--warmup",
         "0",      "--precision", "0",           "-e",      "task-clock", "--format", "csv",
         "--json", "none",        "--backend",   "perf",    "-q"});
    EXPECT_EQ(hot.exit_code, 0) << hot.err;
}

TEST(CliBounds, OneShotWithOnlyColdIsRefused) {
    expect_refused({"run", "--shape", "one-shot", "--cache", "cold"},
                   "one-shot decodes one varint again and again, so it is never cold");
    expect_refused({"run", "--shape", "one-shot", "--cache", "cold"}, "--cache flush");
}

}  // namespace
}  // namespace perfgauge::test
