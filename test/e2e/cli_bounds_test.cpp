// End-to-end: inputs perfgauge refuses at once, with exit 2 and the numbers in the message,
// instead of hanging, running out of memory, mislabelling or comparing impossible values.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <stdexcept>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"
#include "../support/text.hpp"
#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/run_report.hpp"

namespace perfgauge::test {
namespace {

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
    expect_refused({"run", "-r", "0"}, "-r/--repeat must be 1 to 1000000, not 0");
    expect_refused({"run", "--sim-items", "100000000000"}, "--sim-items must be 1 to");
    expect_refused({"run", "--pin", "-5"}, "--pin -5: no such CPU");
    expect_refused({"run", "--pin", "100000"}, "--pin 100000: no such CPU");
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

TEST(CliBounds, CompareOptions) {
    // Checked before the files are read: none of these needs a real result.
    expect_refused({"compare", "r.json", "--baseline", "bmi2", "--contender", "bmi2"},
                   "--baseline and --contender are both 'bmi2'");
    expect_refused({"compare", "a.json", "b.json", "--fail-on-regression", "-5"},
                   "--fail-on-regression must be a finite number of at least 0 %, not -5");
    expect_refused({"compare", "a.json", "b.json", "--fail-on-regression", "nan"}, "not nan");
    expect_refused({"compare", "a.json", "b.json", "--alpha", "1"},
                   "--alpha must be in (0, 1), not 1");
    expect_refused({"compare", "a.json", "b.json", "--min-change", "inf"},
                   "--min-change must be a finite number of at least 0 %, not inf");
    expect_refused({"compare", "a.json", "b.json", "--min-miss-delta", "-0.5"},
                   "--min-miss-delta must be a finite number of at least 0, not -0.5");
    expect_refused({"compare", "a.json", "b.json", "--min-samples", "1"},
                   "--min-samples must be 2 to 1000000, not 1");
    expect_refused({"compare", "a.json", "b.json", "--floor", "-1"},
                   "--floor must be a percentage in [0, 50], not -1: give the median between-run "
                   "movement of identical work that `perfgauge selftest` reports");
    expect_refused({"compare", "a.json", "b.json", "--floor", "nan"}, "not nan");
    expect_refused({"compare", "r.json", "--baseline", "a", "--contender", "b", "--floor", "1"},
                   "--floor is the noise between separate runs");
}

// A small result, then copies edited to hold values no measurement produces. Built, not
// measured: a real run on a loaded machine may keep no sample to edit (every one disturbed),
// and what is checked here is how files are read, not how a machine runs.
class CliBoundsResultFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        harness::RunResult r;
        r.repetitions = 3;
        r.clock = "steady_clock";
        r.date = "2026-11-27T12:00:00";
        r.events = {harness::native_column("task-clock", pmu::EventKind::software, true)};
        harness::BenchmarkResult b;
        b.name = "memcpy/hot/1K";
        b.params = {{"workload", "memcpy"}, {"cache", "hot"}, {"size_bytes", "1024"}};
        b.items_per_iteration = 1024;
        b.bytes_per_iteration = 1024;
        b.iterations = 200;
        b.ns_per_item = {0.050, 0.052, 0.049};
        b.raw_ns_per_item = {0.051, 0.053, 0.050};
        b.cpu_ns_per_item = b.raw_ns_per_item;
        b.counters_per_item = {b.ns_per_item};
        b.raw_counters_per_item = {b.raw_ns_per_item};
        b.running_fraction = {1.0};
        b.rounds = {0, 1, 2};
        b.processes = {0, 0, 0};
        r.benchmarks = {b};
        good_ = nlohmann::json::parse(harness::render_run(r, harness::OutputFormat::json));
    }

    // The result with the first sample's `key` replaced by the raw JSON text `value`.
    std::string edited(const std::string& name, const std::string& key, const std::string& value) {
        nlohmann::json j = good_;
        for (auto& b : j["benchmarks"]) {
            if (b["run_type"] == "iteration") {
                b[key] = "@@";
                break;
            }
        }
        std::string text = j.dump(1);
        const auto at = text.find("\"@@\"");
        if (at == std::string::npos)
            throw std::logic_error("edited: the result holds no iteration entry");
        text.replace(at, 4, value);  // e.g. 1e400, which JSON allows
        const auto path = dir_.path() / name;
        std::ofstream(path) << text;
        return path.string();
    }

    std::string good_file() {
        const auto path = dir_.path() / "good.json";
        std::ofstream(path) << good_.dump(1);
        return path.string();
    }

    TempDir dir_;
    nlohmann::json good_;
};

TEST_F(CliBoundsResultFiles, NegativeTimeIsRefusedNamingTheFile) {
    const auto good = good_file();
    ASSERT_EQ(perfgauge({"compare", good, good}).exit_code, 0);
    const auto bad = edited("negative.json", "perfgauge_ns_per_item", "-3.5");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"compare", good, bad}, {"export", bad}, {"plot", bad, "-o", "x.png"}}) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
        EXPECT_TRUE(contains(r.err, bad + ": impossible value")) << r.err;
        EXPECT_TRUE(contains(r.err, "sample 0: perfgauge_ns_per_item is -3.5")) << r.err;
        EXPECT_FALSE(contains(r.out, "slower")) << r.out;
    }
}

TEST_F(CliBoundsResultFiles, NonFiniteAndOverflowingValuesAreRefused) {
    const auto good = good_file();
    const auto expect_bad = [&](const std::string& file, const std::string& message) {
        const auto r = perfgauge({"compare", good, file});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, file)) << r.err;
        EXPECT_TRUE(contains(r.err, message)) << r.err;
    };
    expect_bad(edited("inf.json", "perfgauge_ns_per_item", "1e400"), "number overflow");
    expect_bad(edited("raw.json", "perfgauge_raw_task-clock", "-1"),
               "perfgauge_raw_task-clock is -1");
    expect_bad(edited("iterations.json", "iterations", "-1"), "'iterations' is -1, not a count");
    expect_bad(edited("big.json", "iterations", "1e30"), "not a count");
    expect_bad(edited("process.json", "perfgauge_process", "18446744073709551616"), "not a count");
    expect_bad(edited("items.json", "perfgauge_items_per_iteration", "0"),
               "perfgauge_items_per_iteration is 0");
}

}  // namespace
}  // namespace perfgauge::test
