// How the run table and compare read: changes said as people say them (never a percentage of
// almost nothing), rows zero on both sides left out and named once, the simulation caveat once,
// the footer's sample count the samples the medians rest on. Hand-made results, no timing.
#include <gtest/gtest.h>

#include <string>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_report.hpp"

namespace perfgauge::harness {
namespace {

MetricComparison metric(const std::string& name, bool is_time, double baseline, double contender,
                        double threshold) {
    MetricComparison m;
    m.metric = is_time ? "time" : name;
    m.is_time = is_time;
    if (!is_time)
        m.source = EventSource::simulated;
    m.method = is_time ? Method::paired : Method::deterministic;
    m.baseline_median = baseline;
    m.contender_median = contender;
    m.ratio = baseline > 0 ? contender / baseline : 0;
    m.change_pct = 100 * (m.ratio - 1);
    m.shift = contender - baseline;
    m.ci_low = m.ci_high = m.shift;
    m.threshold = threshold;
    m.baseline_samples = m.contender_samples = 12;
    m.verdict = m.shift > threshold    ? Verdict::higher
                : m.shift < -threshold ? Verdict::lower
                                       : Verdict::equivalent;
    return m;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(ReportWording, ChangesReadLikePeopleSpeak) {
    EXPECT_EQ(change_text(metric("", true, 8.103, 3.43, 0.08)), "2.4x faster");
    EXPECT_EQ(change_text(metric("", true, 5.33, 7.14, 0.05)), "34.0% slower");
    EXPECT_EQ(change_text(metric("", true, 4, 6.4, 0.04)), "1.60x slower");
    EXPECT_EQ(change_text(metric("", true, 3.0, 3.15, 0.03)), "5.0% slower");
    EXPECT_EQ(change_text(metric("", true, 3.0, 2.9, 0.03)), "3.3% faster");
    EXPECT_EQ(change_text(metric("instructions", false, 31.5, 26, 1)), "17.5% fewer");
    EXPECT_EQ(change_text(metric("branch-misses", false, 0.565, 0.0435, 0.01)), "13.0x fewer");
    EXPECT_EQ(change_text(metric("instructions", false, 30, 30, 1)), "none");
}

TEST(ReportWording, AChangeFromNearZeroIsADifferenceNotAPercentage) {
    // 0.00005 -> 0.167 branch-misses per item was "+333320.0%".
    const auto m = metric("branch-misses", false, 5e-05, 0.167, 0.01);
    EXPECT_EQ(change_text(m), "+0.167/item from ~0");
    EXPECT_EQ(change_text(metric("branch-misses", false, 0, 0.5, 0.01)), "+0.5/item from ~0");
    EXPECT_EQ(change_text(metric("branch-misses", false, 0.936, 4e-05, 0.01)), "-0.936/item to ~0");
    EXPECT_EQ(change_text(metric("instructions", false, 2500, 10, 1)), "250x fewer");
    MetricComparison none = m;
    none.contender_samples = 0;
    EXPECT_EQ(change_text(none), "-");

    Comparison c;
    c.benchmarks.push_back({"varint/hot/16B", "a", "b", {metric("", true, 3.58, 3.23, 0.04), m}});
    for (const auto format : {OutputFormat::table, OutputFormat::markdown}) {
        const std::string text = render_comparison(c, format);
        EXPECT_NE(text.find("+0.167/item from ~0"), std::string::npos) << text;
        EXPECT_EQ(text.find("333"), std::string::npos) << text;
        EXPECT_NE(text.find("9.8% faster"), std::string::npos) << text;
    }
}

TEST(ReportWording, RowsZeroOnBothSidesAreLeftOutAndNamedOnce) {
    Comparison c;
    for (const char* name : {"varint/hot/1K", "varint/hot/2K"}) {
        auto faults = metric("page-faults", false, 0, 0, 0.001);
        faults.source = EventSource::software;
        auto switches = metric("context-switches", false, 0, 0, 0.001);
        switches.source = EventSource::software;
        c.benchmarks.push_back({name, "a", "b", {metric("", true, 3, 1, 0.03), faults, switches}});
    }
    for (const auto format : {OutputFormat::table, OutputFormat::markdown}) {
        const std::string text = render_comparison(c, format);
        EXPECT_EQ(occurrences(text, "page-faults/item"), 1u) << text;
        EXPECT_EQ(occurrences(text, "context-switches/item"), 1u) << text;
        EXPECT_NE(text.find("left out: 4 rows zero on both sides (page-faults/item [sw], "
                            "context-switches/item [sw])"),
                  std::string::npos)
            << text;
        EXPECT_EQ(occurrences(text, "3.0x faster"), 2u) << text;
    }
    // Machine-readable formats keep every row.
    EXPECT_EQ(occurrences(render_comparison(c, OutputFormat::csv), "page-faults"), 2u);
    EXPECT_EQ(occurrences(render_comparison(c, OutputFormat::json), "page-faults"), 2u);
}

TEST(ReportWording, SimulatedMissesAgainstTheTimeAreMarkedAndExplainedOnce) {
    // Branchy measured faster (bmi2 slower) although callgrind gives branchy the misses.
    EXPECT_TRUE(
        simulation_disagrees(Verdict::higher, "branch-misses", EventSource::simulated, 0.9, 0.0));
    EXPECT_TRUE(
        simulation_disagrees(Verdict::lower, "LL-misses", EventSource::simulated, 0.0, 0.5));
    EXPECT_FALSE(simulation_disagrees(Verdict::lower, "branch-misses", EventSource::simulated, 0.9,
                                      0.0));  // fewer misses and faster: they agree
    EXPECT_FALSE(simulation_disagrees(Verdict::higher, "branch-misses", EventSource::hardware, 0.9,
                                      0.0));  // the machine's own count
    EXPECT_FALSE(simulation_disagrees(Verdict::higher, "instructions", EventSource::simulated, 30,
                                      12));  // not a miss
    EXPECT_FALSE(simulation_disagrees(Verdict::higher, "branch-misses", EventSource::simulated,
                                      0.005, 0.0));  // below the floor for misses
    EXPECT_FALSE(simulation_disagrees(Verdict::inconclusive, "branch-misses",
                                      EventSource::simulated, 0.9, 0.0));

    Comparison c;
    for (const char* name : {"varint/hot/1K", "varint/hot/2K"}) {
        c.benchmarks.push_back(
            {name,
             "a",
             "b",
             {metric("", true, 1, 2.6, 0.01), metric("branch-misses", false, 0.9, 0.0, 0.01)}});
    }
    for (const auto format : {OutputFormat::table, OutputFormat::markdown}) {
        const std::string text = render_comparison(c, format);
        EXPECT_EQ(occurrences(text, "fewer *"), 2u) << text;
        EXPECT_EQ(occurrences(text, "callgrind's branch predictor and caches are simple models"),
                  1u)
            << text;
    }
}

BenchmarkResult entry(const std::string& name, std::size_t kept, std::size_t disturbed) {
    BenchmarkResult b;
    b.name = name;
    b.iterations = 100;
    for (std::size_t i = 0; i < kept; ++i) {
        b.ns_per_item.push_back(2.0 + 0.01 * static_cast<double>(i % 3));
        b.rounds.push_back(i);
    }
    b.raw_ns_per_item = b.ns_per_item;
    b.disturbed.resize(disturbed);
    return b;
}

TEST(ReportWording, TheFooterCountsTheSamplesTheMediansRestOn) {
    RunResult r;
    r.repetitions = 10;
    r.seed = 7;
    r.benchmarks = {entry("a", 10, 0), entry("b", 10, 0)};
    EXPECT_NE(render_run(r, OutputFormat::table)
                  .find("medians of 10 undisturbed samples per benchmark (interleaved"),
              std::string::npos);
    r.benchmarks = {entry("a", 10, 0), entry("b", 2, 8)};
    EXPECT_NE(render_run(r, OutputFormat::table)
                  .find("medians of 2 to 10 undisturbed samples per benchmark (10 planned)"),
              std::string::npos)
        << render_run(r, OutputFormat::table);
    // Every sample disturbed: no "medians of 10" over samples that were all left out.
    r.benchmarks = {entry("a", 0, 10), entry("b", 0, 12)};
    const std::string table = render_run(r, OutputFormat::table);
    EXPECT_NE(table.find("no undisturbed sample in any benchmark (10 planned)"), std::string::npos)
        << table;
    EXPECT_EQ(table.find("medians of"), std::string::npos) << table;
}

TEST(ReportWording, AWarningEveryMeasuringProcessGaveIsSaidOnce) {
    RunResult r;
    r.repetitions = 10;
    r.benchmarks = {entry("a", 10, 0)};
    r.warnings = {"load: 1-minute load average 3", "skipped: 'avx512' needs AVX-512",
                  "load: 1-minute load average 3"};
    const std::string table = render_run(r, OutputFormat::table);
    EXPECT_EQ(occurrences(table, "warning: load: 1-minute load average 3"), 1u) << table;
    EXPECT_EQ(occurrences(table, "warning: skipped: 'avx512'"), 1u) << table;
    // The Markdown summary has them too (its answer says they are below the table).
    const std::string md = render_run(r, OutputFormat::markdown);
    EXPECT_EQ(occurrences(md, "- warning: load: 1-minute load average 3\n"), 1u) << md;
}

TEST(ReportWording, SkippedVariantsAreReadFromTheRunsWarnings) {
    RunResult r;
    r.warnings = {"load: 1-minute load average 3",
                  "skipped: 'avx512' cannot run under valgrind, which does not decode AVX-512 "
                  "instructions (no simulated counts for it), and this run simulates counters",
                  "skipped: 'avx512' cannot run under valgrind (said again by a second process)",
                  "skipped: 'bmi2' needs BMI2 (pext, bzhi), which this CPU (X) does not have",
                  "skipped: no quotes, no name",
                  "skipped: '' empty"};
    const auto skipped = skipped_variants(r);
    ASSERT_EQ(skipped.size(), 2u);
    EXPECT_EQ(skipped[0].name, "avx512");
    EXPECT_EQ(skipped[0].why.rfind("'avx512' cannot run under valgrind, which", 0), 0u);
    EXPECT_EQ(skipped[1].name, "bmi2");
    EXPECT_EQ(skipped[1].why, "'bmi2' needs BMI2 (pext, bzhi), which this CPU (X) does not have");
}

}  // namespace
}  // namespace perfgauge::harness
