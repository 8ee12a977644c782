// The one-screen answer built from hand-made results: rows per cache state and size band,
// ratios as people say them, counters with their source, memcpy's share, the simulation caveat.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <fmt/format.h>

#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_report.hpp"

namespace perfgauge::harness {
namespace {

constexpr std::size_t kSamples = 12;

// A varint or memcpy entry of the suite's shape, its time per item `ns` give or take 1% in a
// repeating pattern (rounds 0..11, paired across variants), its counters constant.
BenchmarkResult entry(const std::string& workload, const std::string& variant,
                      const std::string& cache, std::uint64_t size, double ns,
                      std::vector<double> counters) {
    BenchmarkResult b;
    b.name = workload == "memcpy"
                 ? fmt::format("memcpy/log-uniform/{}/{}", cache, size)
                 : fmt::format("varint/{}/log-uniform/end-on-end/{}/{}", variant, cache, size);
    b.params = {{"workload", workload},  {"variant", variant},
                {"dist", "log-uniform"}, {"shape", workload == "memcpy" ? "-" : "end-on-end"},
                {"cache", cache},        {"size_bytes", std::to_string(size)}};
    for (std::size_t i = 0; i < kSamples; ++i) {
        b.ns_per_item.push_back(ns * (1 + 0.01 * static_cast<double>(i % 3)));
        b.rounds.push_back(i);
    }
    b.raw_ns_per_item = b.ns_per_item;
    for (const double c : counters)
        b.counters_per_item.emplace_back(kSamples, c);
    b.raw_counters_per_item = b.counters_per_item;
    b.running_fraction.assign(counters.size(), 1.0);
    return b;
}

RunResult result_with(EventSource source) {
    RunResult r;
    r.context = {{"l1d_bytes", "32768"}, {"l2_bytes", "1048576"}, {"l3_bytes", "33554432"}};
    r.events = {EventColumn{"instructions", pmu::EventKind::hardware, source, true, {}},
                EventColumn{"branch-misses", pmu::EventKind::hardware, source, true, {}}};
    return r;
}

TEST(RunAnswer, SizeBandsFollowTheCachesAndNeverClaimMemoryWithoutAnL3) {
    EXPECT_EQ(size_band(4096, 32768, 1 << 20, 32 << 20), SizeBand::l1);
    EXPECT_EQ(size_band(65536, 32768, 1 << 20, 32 << 20), SizeBand::l2);
    EXPECT_EQ(size_band(4 << 20, 32768, 1 << 20, 32 << 20), SizeBand::l3);
    EXPECT_EQ(size_band(64 << 20, 32768, 1 << 20, 32 << 20), SizeBand::memory);
    EXPECT_EQ(size_band(64 << 20, 32768, 1 << 20, 0), SizeBand::beyond_l2);
}

TEST(RunAnswer, RatiosReadLikePeopleSpeak) {
    EXPECT_EQ(speak_ratio(1 / 3.7), "3.7x faster");
    EXPECT_EQ(speak_ratio(1.2), "1.20x slower");
    EXPECT_EQ(speak_ratio(1.0), "same time");
    EXPECT_EQ(speak_ratio(0), "no ratio");
}

TEST(RunAnswer, OneRowPerCacheStateAndBandWithRatioCountersAndMemcpyShare) {
    RunResult r = result_with(EventSource::simulated);
    for (const std::uint64_t size : {1024u, 4096u}) {
        r.benchmarks.push_back(entry("varint", "branchy", "hot", size, 4.0, {30, 0.9}));
        r.benchmarks.push_back(entry("varint", "bmi2", "hot", size, 1.0, {12, 0.0}));
        r.benchmarks.push_back(entry("memcpy", "memcpy", "hot", size, 0.5, {2, 0}));
    }
    r.benchmarks.push_back(entry("varint", "branchy", "cold", 64 << 20, 8.0, {30, 0.9}));
    r.benchmarks.push_back(entry("varint", "bmi2", "cold", 64 << 20, 8.0, {12, 0.0}));

    const Answer a = build_answer(r);
    ASSERT_EQ(a.rows.size(), 2u);
    const AnswerRow& hot = a.rows[0];
    EXPECT_EQ(hot.cache, "hot");
    EXPECT_EQ(hot.band, SizeBand::l1);
    EXPECT_EQ(hot.sizes, 2u);
    EXPECT_EQ(hot.smallest, 1024u);
    EXPECT_EQ(hot.largest, 4096u);
    EXPECT_EQ(hot.baseline, "branchy");
    EXPECT_EQ(hot.contender, "bmi2");
    EXPECT_NEAR(hot.time_ratio, 0.25, 1e-9);
    EXPECT_TRUE(hot.has_interval);
    EXPECT_LE(hot.ratio_low, 0.25);
    EXPECT_GE(hot.ratio_high, 0.25);
    EXPECT_EQ(hot.verdict, Verdict::lower);
    EXPECT_FALSE(hot.mixed);
    ASSERT_EQ(hot.counters.size(), 2u);
    EXPECT_EQ(hot.counters[0].event, "instructions");
    EXPECT_EQ(hot.counters[0].source, EventSource::simulated);
    EXPECT_DOUBLE_EQ(hot.counters[0].baseline, 30);
    EXPECT_DOUBLE_EQ(hot.counters[0].contender, 12);
    ASSERT_TRUE(hot.baseline_of_memcpy && hot.contender_of_memcpy);
    EXPECT_NEAR(*hot.baseline_of_memcpy, 0.125, 1e-9);
    EXPECT_NEAR(*hot.contender_of_memcpy, 0.5, 1e-9);
    EXPECT_FALSE(hot.simulation_contradicts);  // fewer misses and faster: they agree

    const AnswerRow& cold = a.rows[1];
    EXPECT_EQ(cold.cache, "cold");
    EXPECT_EQ(cold.band, SizeBand::memory);
    EXPECT_EQ(cold.verdict, Verdict::equivalent);
    EXPECT_FALSE(cold.contender_of_memcpy);  // no memcpy at that size

    const std::string text = render_answer(a);
    EXPECT_NE(text.find("bmi2 against branchy"), std::string::npos) << text;
    EXPECT_NE(text.find("4.0x faster"), std::string::npos) << text;
    EXPECT_NE(text.find("hot L1 1K-4K"), std::string::npos) << text;
    EXPECT_NE(text.find("instr sim"), std::string::npos) << text;
    EXPECT_NE(text.find("30.0 vs 12.0"), std::string::npos) << text;
    EXPECT_NE(text.find(" vs 50%"), std::string::npos) << text;
    EXPECT_NE(text.find("equivalent ±1% (1.00-1.00x)"), std::string::npos) << text;
    EXPECT_EQ(text.find("disagree"), std::string::npos) << text;
}

TEST(RunAnswer, SimulatedMissesAgainstTheTimeAreFlaggedOnceWithTheReason) {
    RunResult r = result_with(EventSource::simulated);
    for (const std::uint64_t size : {1024u, 2048u, 4096u}) {
        r.benchmarks.push_back(entry("varint", "branchy", "hot", size, 1.0, {30, 0.9}));
        r.benchmarks.push_back(entry("varint", "bmi2", "hot", size, 2.6, {12, 0.0}));
    }
    r.benchmarks.push_back(entry("varint", "branchy", "cold", 2048, 1.0, {30, 0.9}));
    r.benchmarks.push_back(entry("varint", "bmi2", "cold", 2048, 2.6, {12, 0.0}));
    const Answer a = build_answer(r);
    ASSERT_EQ(a.rows.size(), 2u);
    EXPECT_TRUE(a.rows[0].simulation_contradicts);
    EXPECT_TRUE(a.rows[1].simulation_contradicts);
    EXPECT_EQ(a.rows[0].verdict, Verdict::higher);
    const std::string text = render_answer(a);
    EXPECT_NE(text.find("2.6x slower"), std::string::npos) << text;
    EXPECT_NE(text.find("0.90 vs 0.00 *"), std::string::npos) << text;
    // One caveat for every flagged row, with the reason, on one line.
    const auto first = text.find(
        "\n* Simulated misses vs time: callgrind's models are simple; real predictors learn small "
        "hot buffers\n");
    ASSERT_NE(first, std::string::npos) << text;
    EXPECT_EQ(text.find("callgrind's models", first + 30), std::string::npos) << text;

    // The full table says it too, once, naming where; the Markdown summary once in all (its
    // answer says it above the table).
    const std::string table = render_run(r, OutputFormat::table);
    const std::string said =
        "[sim] Simulated misses disagree with the measured time (bmi2 hot L1, bmi2 cold L1 "
        "against branchy): callgrind's branch predictor";
    const auto at = table.find(said);
    ASSERT_NE(at, std::string::npos) << table;
    EXPECT_EQ(table.find("callgrind's branch predictor", at + said.size()), std::string::npos);
    const std::string md = render_run(r, OutputFormat::markdown);
    const auto md_first = md.find("callgrind's branch predictor");
    ASSERT_NE(md_first, std::string::npos) << md;
    EXPECT_EQ(md.find("callgrind's branch predictor", md_first + 1), std::string::npos) << md;

    // Measured counts never carry the caveat: the machine itself counted them.
    RunResult measured = r;
    for (auto& e : measured.events)
        e.source = EventSource::software;
    EXPECT_FALSE(build_answer(measured).rows[0].simulation_contradicts);
}

TEST(RunAnswer, FitsOneScreenAndLeavesOutCountersZeroOnBothSides) {
    RunResult r = result_with(EventSource::software);
    const std::uint64_t sizes[] = {16, 1024, 32768, 65536, 1 << 20, 4 << 20, 32 << 20, 64 << 20};
    for (const char* cache : {"hot", "cold"}) {
        for (const std::uint64_t size : sizes) {
            r.benchmarks.push_back(entry("varint", "branchy", cache, size, 3.0, {0, 0}));
            r.benchmarks.push_back(entry("varint", "bmi2", cache, size, 1.1, {0, 0}));
            r.benchmarks.push_back(entry("memcpy", "memcpy", cache, size, 0.3, {0, 0}));
        }
    }
    r.warnings.push_back("the avx512 variant is skipped: valgrind cannot decode AVX-512");
    const Answer a = build_answer(r);
    EXPECT_EQ(a.rows.size(), 8u);  // hot and cold x L1, L2, L3, memory
    ASSERT_EQ(a.notes.size(), 1u);
    const std::string text = render_answer(a);
    EXPECT_EQ(text.find("instr "), std::string::npos) << text;
    EXPECT_EQ(text.find("br-miss"), std::string::npos) << text;
    EXPECT_NE(text.find("avx512 variant is skipped"), std::string::npos) << text;
    std::istringstream lines(text);
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count)
        EXPECT_LE(line.size(), 100u) << line;
    EXPECT_LE(count, 25u) << text;

    const std::string md = render_answer_markdown(a);
    EXPECT_EQ(md.rfind("## Answer", 0), 0u) << md;
    EXPECT_NE(md.find("| hot L1 16B-32K |"), std::string::npos) << md;
}

// The widest rows a loaded machine gave (stop 37's quick start): sizes that disagree, intervals
// that reach a time of zero, two counters and memcpy's share still fit 100 columns, and no
// factor is negative.
TEST(RunAnswer, MixedRowsWithOpenIntervalsFitOneHundredColumns) {
    Answer a;
    const auto row = [](const char* cache, SizeBand band, double ratio, double low, double high,
                        Verdict verdict, std::size_t agreeing, std::size_t sizes) {
        AnswerRow r;
        r.dist = "log-uniform";
        r.cache = cache;
        r.band = band;
        r.smallest = 3;
        r.largest = 24 << 10;
        r.sizes = sizes;
        r.baseline = "branchy";
        r.contender = "bmi2";
        r.time_ratio = ratio;
        r.ratio_low = low;
        r.ratio_high = high;
        r.has_interval = true;
        r.verdict = verdict;
        r.mixed = agreeing < sizes;
        r.agreeing = agreeing;
        r.counters = {{"instructions", EventSource::simulated, 31.5, 24.3},
                      {"branch-misses", EventSource::simulated, 0.91, 0.0}};
        r.baseline_of_memcpy = 0.07;
        r.contender_of_memcpy = 0.14;
        return r;
    };
    a.rows = {row("hot", SizeBand::l1, 1.32, -0.4, 3.7, Verdict::inconclusive, 5, 8),
              row("hot", SizeBand::l3, 1 / 2.4, -0.2, 0.98, Verdict::too_few_samples, 2, 3),
              row("cold", SizeBand::l1, 1 / 1.93, -0.1, 1.9, Verdict::lower, 6, 8)};
    const std::string text = render_answer(a);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        EXPECT_LE(line.size(), 100u) << line;
    // Sizes that disagree speak no factor: a band's "1.32x slower" would claim what its
    // interval does not hold.
    EXPECT_NE(text.find("mixed: 5/8 inconclusive (<=3.7x)"), std::string::npos) << text;
    EXPECT_NE(text.find("mixed: 2/3 too few samples (>=1.02x)"), std::string::npos) << text;
    EXPECT_NE(text.find("mixed: 6/8 faster (>=0.53x)"), std::string::npos) << text;
    EXPECT_EQ(text.find("1.32x slower"), std::string::npos) << text;
    EXPECT_EQ(text.find("(-"), std::string::npos) << text;

    // With a second decoder (the default suite where avx2 runs; stop 38's widest rows were 109
    // columns) the table turns compact: pairs as a/b, "too few", no header over the decoders.
    auto bmi2 =
        row("hot", SizeBand::l3, 1 / 2.1, 1 / 7.0, 1 / 1.33, Verdict::too_few_samples, 2, 3);
    auto avx2 = bmi2;
    avx2.contender = "avx2";
    avx2.ratio_low = 1 / 75.8;
    a.rows = {row("hot", SizeBand::l1, 1.33, 0.74, 2.1, Verdict::inconclusive, 6, 8), bmi2, avx2};
    a.rows[0].baseline_of_memcpy = 0.08;
    a.rows[0].contender_of_memcpy = 0.18;
    const std::string both = render_answer(a);
    std::istringstream both_lines(both);
    for (std::string line; std::getline(both_lines, line);)
        EXPECT_LE(line.size(), 100u) << line;
    for (const char* cell : {"mixed: 2/3 too few (1.33-75.8x)", "31.5/24.3", "0.91/0.00", "7%/14%"})
        EXPECT_NE(both.find(cell), std::string::npos) << cell << "\n" << both;
    EXPECT_NE(both.find("Counters: per item, branchy/the"), std::string::npos) << both;
    // The Markdown has room: it keeps the words.
    EXPECT_NE(render_answer_markdown(a).find("31.5 vs 24.3"), std::string::npos);
}

TEST(RunAnswer, SizesWithoutSamplesEnoughGiveNoIntervalAndNoRatio) {
    RunResult r = result_with(EventSource::software);
    r.benchmarks.push_back(entry("varint", "branchy", "hot", 1024, 2.0, {1, 0}));
    r.benchmarks.push_back(entry("varint", "bmi2", "hot", 1024, 1.0, {1, 0}));
    for (auto& b : r.benchmarks) {  // two samples each: too few for any interval
        b.ns_per_item.resize(2);
        b.raw_ns_per_item.resize(2);
        b.rounds.resize(2);
        for (auto& c : b.counters_per_item)
            c.resize(2);
        b.raw_counters_per_item = b.counters_per_item;
    }
    r.benchmarks.push_back(entry("varint", "branchy", "hot", 1 << 20, 2.0, {1, 0}));
    r.benchmarks.push_back(entry("varint", "bmi2", "hot", 1 << 20, 1.0, {1, 0}));
    r.benchmarks.back().ns_per_item.clear();  // every sample disturbed: no time at all
    r.benchmarks.back().raw_ns_per_item.clear();
    r.benchmarks.back().rounds.clear();
    for (auto& c : r.benchmarks.back().counters_per_item)
        c.clear();
    r.benchmarks.back().raw_counters_per_item = r.benchmarks.back().counters_per_item;
    const Answer a = build_answer(r);
    ASSERT_EQ(a.rows.size(), 2u);
    EXPECT_EQ(a.rows[0].verdict, Verdict::too_few_samples);
    EXPECT_FALSE(a.rows[0].has_interval);
    const std::string text = render_answer(a);
    EXPECT_NE(text.find("2.0x faster, too few samples"), std::string::npos) << text;
    EXPECT_NE(text.find("no samples to compare"), std::string::npos) << text;
    EXPECT_EQ(a.rows[1].counters.size(), 0u);  // no counts from a side without samples
}

// Cold evicted instead of rotated (no usable last-level size): the answer says how, once, with
// where the size search ended; the suite's own warning about it is not repeated.
TEST(RunAnswer, ColdEvictedIsSaidOnceWithTheMethodAndTheSizeSearch) {
    RunResult r = result_with(EventSource::software);
    for (const char* cache : {"hot", "cold"}) {
        r.benchmarks.push_back(entry("varint", "branchy", cache, 4096, 3.0, {1, 1}));
        r.benchmarks.push_back(entry("varint", "bmi2", cache, 4096, 1.5, {1, 1}));
    }
    r.context = {{"l1d_bytes", "32768"},
                 {"l2_bytes", "524288"},
                 {"l3_bytes", "0"},
                 {"cold_method", "clflushopt"},
                 {"l3_found_by", "sysfs reports none, and a staircase showed no step to memory"}};
    r.warnings.push_back("cold is evicted, not rotated: no last-level cache size was found, ...");
    const Answer a = build_answer(r);
    ASSERT_EQ(a.notes.size(), 1u);
    EXPECT_EQ(a.notes.front(),
              "cold data is evicted by clflushopt before every iteration (timer paused), not "
              "rotated; last-level cache: sysfs reports none, and a staircase showed no step to "
              "memory");
    // Rotation names the size it outgrows, as before.
    r.context = {{"l1d_bytes", "32768"},
                 {"l2_bytes", "524288"},
                 {"l3_bytes", "33554432"},
                 {"cold_method", "rotation"},
                 {"l3_found_by", "reported by sysfs"}};
    r.warnings.clear();
    const Answer rotated = build_answer(r);
    ASSERT_EQ(rotated.notes.size(), 1u);
    EXPECT_EQ(rotated.notes.front(),
              "cold data rotates over 2x the last-level cache, 32M (reported by sysfs)");
}

// The default suite where the CPU runs avx2 (stop 38): two decoders against branchy in every
// band, simulated counters that disagree with the time in hot L1, a variant skipped, an event
// not counted and many warnings about single entries: still one screen of 100 columns, each
// band's decoders together, the band said once.
TEST(RunAnswer, TwoDecodersInEveryBandStillFitOneScreen) {
    RunResult r = result_with(EventSource::simulated);
    r.events.push_back(
        EventColumn{"cycles", pmu::EventKind::hardware, EventSource::hardware, false, {}});
    const std::uint64_t sizes[] = {16, 1024, 32768, 65536, 1 << 20, 4 << 20, 32 << 20, 64 << 20};
    for (const char* cache : {"hot", "cold"}) {
        for (const std::uint64_t size : sizes) {
            const bool small_hot = std::string(cache) == "hot" && size <= 32768;
            r.benchmarks.push_back(entry("varint", "branchy", cache, size, 1.0, {30, 0.9}));
            r.benchmarks.push_back(
                entry("varint", "bmi2", cache, size, small_hot ? 2.6 : 0.5, {24, 0}));
            r.benchmarks.push_back(entry("varint", "avx2", cache, size, 0.4, {10, 0}));
            r.benchmarks.push_back(entry("memcpy", "memcpy", cache, size, 0.05, {2, 0}));
        }
    }
    r.context.emplace_back("l3_found_by", "reported by sysfs");
    r.warnings.push_back(
        "skipped: 'avx512' needs AVX-512 F/BW/VBMI/VBMI2 and BMI2, which this CPU (AMD EPYC 7B13 "
        "64-Core Processor) or its OS does not provide");
    for (int i = 0; i < 70; ++i)
        r.warnings.push_back(fmt::format("varint/branchy/log-uniform/end-on-end/hot/{}: ...", i));
    const Answer a = build_answer(r);
    ASSERT_EQ(a.rows.size(), 16u);  // hot and cold x L1, L2, L3, memory x bmi2, avx2
    EXPECT_EQ(a.rows[0].contender, "bmi2");
    EXPECT_EQ(a.rows[1].contender, "avx2");
    EXPECT_EQ(a.rows[1].cache, a.rows[0].cache);
    EXPECT_EQ(a.rows[1].band, a.rows[0].band);
    EXPECT_EQ(a.rows[2].band, SizeBand::l2);
    EXPECT_EQ(a.not_counted, std::vector<std::string>{"cycles"});
    const std::string text = render_answer(a, "results/perfgauge-run-20261128-040000.json");
    std::istringstream lines(text);
    std::vector<std::string> all;
    for (std::string line; std::getline(lines, line);) {
        EXPECT_LE(line.size(), 100u) << line;
        all.push_back(line);
    }
    EXPECT_LE(all.size(), 25u) << text;
    ASSERT_GE(all.size(), 3u);
    EXPECT_EQ(all[0].rfind("cache, size", 0), 0u) << text;
    for (const char* column : {"decoder", "against branchy", "instr sim", "of memcpy"})
        EXPECT_NE(all[0].find(column), std::string::npos) << column;
    EXPECT_EQ(all[1].find("hot L1 16B-32K"), 0u) << text;
    EXPECT_EQ(all[2].find("                "), 0u) << text;  // avx2's row: the band said above
    EXPECT_NE(all[2].find("avx2"), std::string::npos) << text;
    EXPECT_NE(text.find("Note: skipped: 'avx512'"), std::string::npos) << text;
    EXPECT_NE(text.find("Note: cold data rotates over 2x the last-level cache, 32M"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Not counted: cycles. 70 more warnings"), std::string::npos) << text;
    EXPECT_EQ(all.back(),
              "  perfgauge export results/perfgauge-run-20261128-040000.json --format table");
}

TEST(RunAnswer, NoAnswerWithFewerThanTwoDecoders) {
    RunResult r = result_with(EventSource::software);
    r.benchmarks.push_back(entry("varint", "branchy", "hot", 1024, 1.0, {1, 1}));
    r.benchmarks.push_back(entry("memcpy", "memcpy", "hot", 1024, 0.5, {1, 1}));
    const Answer a = build_answer(r);
    EXPECT_TRUE(a.rows.empty());
    EXPECT_EQ(render_answer(a), "");
    EXPECT_EQ(render_answer_markdown(a), "");
}

}  // namespace
}  // namespace perfgauge::harness
