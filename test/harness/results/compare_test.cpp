#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/compare_report.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

// n values spread evenly over `spread` around `centre`, in a scrambled order: samples taken one
// after another on a steady machine do not drift (a sorted ramp would read as drift between
// blocks of consecutive samples across results).
std::vector<double> samples(double centre, std::size_t n, double spread = 0.01) {
    const std::size_t step = std::gcd(n, std::size_t{7}) == 1 ? 7 : 1;
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i)
        v.push_back(centre * (1 + spread * (static_cast<double>(i * step % n) / n - 0.5)));
    return v;
}

BenchmarkResult bench(std::string name, std::string variant, double ns, double instructions,
                      std::size_t n = 10) {
    BenchmarkResult b;
    b.name = std::move(name);
    b.params = {{"workload", "varint"}, {"variant", std::move(variant)}, {"size_bytes", "1024"}};
    b.items_per_iteration = 100;
    b.bytes_per_iteration = 300;
    b.iterations = 50;
    b.ns_per_item = samples(ns, n);
    b.raw_ns_per_item = samples(ns * 1.01, n);
    b.counters_per_item = {samples(instructions, n, 0.0), std::vector<double>(n, 0.0)};
    b.raw_counters_per_item = b.counters_per_item;
    b.running_fraction = {1.0, 1.0};
    return b;
}

RunResult result(std::vector<BenchmarkResult> benchmarks) {
    RunResult r;
    r.repetitions = benchmarks.empty() ? 0 : benchmarks[0].ns_per_item.size();
    r.events = {
        native_column("instructions", pmu::EventKind::hardware, true),
        native_column("cycles", pmu::EventKind::hardware, false, {"not supported", "test", ""})};
    r.context = {{"l3_bytes", "65536"}};
    r.benchmarks = std::move(benchmarks);
    return r;
}

TEST(Compare, ABenchmarkTimedApartOnOneSideOnlyIsNoted) {
    auto apart = bench("a", "x", 8, 30.8);
    apart.snapshot_pause_ns = std::vector<double>(10, 40.0);
    const auto c =
        compare_results(result({bench("a", "x", 8, 30.8)}), result({apart}), CompareOptions{});
    const auto noted = std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
        return n.find("a: timed apart from its counter snapshots in the contender only") == 0 &&
               n.find("40 ns a pause") != std::string::npos;
    });
    EXPECT_TRUE(noted) << fmt::format("{}", fmt::join(c.notes, "\n"));
    const auto both = compare_results(result({apart}), result({apart}), CompareOptions{});
    for (const auto& n : both.notes)
        EXPECT_EQ(n.find("timed apart"), std::string::npos) << n;
}

TEST(Compare, KnownMediansGiveKnownRatioAndVerdict) {
    // Baseline 8 ns and 30.8 instructions, contender 4 ns and 15 instructions, 10 samples each
    // without overlap: exact Mann-Whitney p = 2 / C(20,10) = 1.08e-5.
    const auto c = compare_results(result({bench("a", "x", 8, 30.8)}),
                                   result({bench("a", "x", 4, 15)}), CompareOptions{});
    ASSERT_EQ(c.benchmarks.size(), 1u);
    const auto& time = c.benchmarks[0].metrics[0];
    EXPECT_TRUE(time.is_time);
    EXPECT_NEAR(time.ratio, 0.5, 1e-12);
    EXPECT_NEAR(time.change_pct, -50, 1e-9);
    ASSERT_TRUE(time.p_value);
    EXPECT_NEAR(*time.p_value, 2.0 / 184756, 1e-9);
    EXPECT_EQ(time.method, Method::independent);
    EXPECT_LT(time.ci_high, -time.threshold) << "the whole interval is beyond the threshold";
    EXPECT_EQ(verdict_text(time), "faster");
    ASSERT_EQ(c.benchmarks[0].metrics.size(), 2u) << "cycles is not counted: not compared";
    const auto& instructions = c.benchmarks[0].metrics[1];
    EXPECT_EQ(instructions.metric, "instructions");
    EXPECT_NEAR(instructions.ratio, 15 / 30.8, 1e-12);
    EXPECT_EQ(verdict_text(instructions), "fewer");
    EXPECT_NE(c.notes.back().find("cycles"), std::string::npos);
    // The other way round: slower, more.
    const auto back = compare_results(result({bench("a", "x", 4, 15)}),
                                      result({bench("a", "x", 8, 30.8)}), CompareOptions{});
    EXPECT_EQ(verdict_text(back.benchmarks[0].metrics[0]), "slower");
    EXPECT_EQ(verdict_text(back.benchmarks[0].metrics[1]), "more");
    EXPECT_EQ(regressions(back, 10).size(), 1u);
    EXPECT_TRUE(regressions(back, 150).empty()) << "+100% is not above 150%";
    EXPECT_TRUE(regressions(c, 10).empty());
}

TEST(Compare, HardwareAndSimulatedCountsAreNeverCompared) {
    auto simulated = result({bench("a", "x", 4, 15)});
    for (auto& e : simulated.events)
        e.source = EventSource::simulated;
    const auto mixed =
        compare_results(result({bench("a", "x", 8, 30.8)}), simulated, CompareOptions{});
    ASSERT_EQ(mixed.benchmarks[0].metrics.size(), 1u) << "time only";
    const auto note = std::find_if(mixed.notes.begin(), mixed.notes.end(), [](const auto& n) {
        return n.find("instructions: hw in the baseline, sim in the contender") !=
               std::string::npos;
    });
    EXPECT_NE(note, mixed.notes.end());
    // Simulated on both sides: compared, and labelled.
    auto simulated_baseline = result({bench("a", "x", 8, 30.8)});
    for (auto& e : simulated_baseline.events)
        e.source = EventSource::simulated;
    const auto both = compare_results(simulated_baseline, simulated, CompareOptions{});
    ASSERT_EQ(both.benchmarks[0].metrics.size(), 2u);
    EXPECT_EQ(both.benchmarks[0].metrics[1].source, EventSource::simulated);
    EXPECT_NE(render_comparison(both, OutputFormat::table).find("instructions/item [sim]"),
              std::string::npos);
}

TEST(Compare, IdenticalInputsAreEquivalent) {
    const auto r = result({bench("a", "x", 5, 20), bench("b", "x", 7, 9)});
    const auto c = compare_results(r, r, CompareOptions{});
    ASSERT_EQ(c.benchmarks.size(), 2u);
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            EXPECT_EQ(m.verdict, Verdict::equivalent) << b.name << " " << m.metric;
            EXPECT_NE(verdict_text(m).find("equivalent (±"), std::string::npos);
            EXPECT_DOUBLE_EQ(m.ratio, 1.0);
        }
    }
}

TEST(Compare, TinySamplesAreTooFew) {
    const auto c = compare_results(result({bench("a", "x", 8, 30, 3)}),
                                   result({bench("a", "x", 4, 15, 3)}), CompareOptions{});
    EXPECT_EQ(verdict_text(c.benchmarks[0].metrics[0]), "too few samples");
    EXPECT_NEAR(c.benchmarks[0].metrics[0].ratio, 0.5, 1e-12) << "medians are still shown";
}

TEST(Compare, DeterministicCountsAreComparedExactlyAgainstTheirFloor) {
    // Half an instruction per item less, in constant (simulated-like) samples: exact, no test,
    // and below one instruction per item.
    auto c = compare_results(result({bench("a", "x", 8, 10.5)}), result({bench("a", "x", 8, 10)}),
                             CompareOptions{});
    const auto& instructions = c.benchmarks[0].metrics[1];
    EXPECT_EQ(instructions.method, Method::deterministic);
    EXPECT_FALSE(instructions.p_value);
    EXPECT_DOUBLE_EQ(instructions.ci_low, -0.5);
    EXPECT_DOUBLE_EQ(instructions.ci_high, -0.5);
    EXPECT_EQ(instructions.verdict, Verdict::equivalent);
    EXPECT_NE(render_comparison(c, OutputFormat::table).find("exact"), std::string::npos);
    // Two instructions fewer: called, still without a p-value.
    c = compare_results(result({bench("a", "x", 8, 12)}), result({bench("a", "x", 8, 10)}),
                        CompareOptions{});
    EXPECT_EQ(c.benchmarks[0].metrics[1].verdict, Verdict::lower);
    const auto j = nlohmann::json::parse(render_comparison(c, OutputFormat::json));
    EXPECT_TRUE(j["benchmarks"][0]["metrics"][1]["p_value"].is_null());
}

TEST(Compare, CounterFloorsFollowWhatTheCounterCounts) {
    // 0.005 branch-misses per item fewer (constant samples): below the 0.01 miss floor.
    auto base = result({bench("a", "x", 8, 10)});
    auto contender = base;
    base.events[0] = native_column("branch-misses", pmu::EventKind::hardware, true);
    contender.events[0] = base.events[0];
    base.benchmarks[0].counters_per_item[0].assign(10, 0.020);
    contender.benchmarks[0].counters_per_item[0].assign(10, 0.015);
    EXPECT_EQ(compare_results(base, contender, CompareOptions{}).benchmarks[0].metrics[1].verdict,
              Verdict::equivalent);
    contender.benchmarks[0].counters_per_item[0].assign(10, 0.005);
    EXPECT_EQ(compare_results(base, contender, CompareOptions{}).benchmarks[0].metrics[1].verdict,
              Verdict::lower);
}

TEST(Compare, SmallChangesAreEquivalentInconclusiveOrCalledByTheInterval) {
    // 0.5% faster, samples spread over 1%, two results: the interval spans the blocks' batch
    // means widened by their spread (~0.3%), which reaches past ±1%: not shown to be
    // equivalent within 1%...
    auto c = compare_results(result({bench("a", "x", 8, 10)}), result({bench("a", "x", 7.96, 10)}),
                             CompareOptions{});
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::inconclusive);
    EXPECT_EQ(c.benchmarks[0].metrics[0].baseline_blocks, 3u);
    // ...but within 3%.
    CompareOptions loose;
    loose.min_change = 0.03;
    c = compare_results(result({bench("a", "x", 8, 10)}), result({bench("a", "x", 7.96, 10)}),
                        loose);
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::equivalent);
    EXPECT_EQ(verdict_text(c.benchmarks[0].metrics[0]), "equivalent (±3.0%)");
    // Asking for 0.1%: across two results the interval (Moses, and the batch means of blocks
    // of three or four samples) straddles it: inconclusive, not "faster".
    CompareOptions strict;
    strict.min_change = 0.001;
    c = compare_results(result({bench("a", "x", 8, 10)}), result({bench("a", "x", 7.96, 10)}),
                        strict);
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::inconclusive);
    EXPECT_EQ(verdict_text(c.benchmarks[0].metrics[0]), "inconclusive");
    // The same two variants measured in the same rounds of one result: paired, the round-to-round
    // spread cancels and -0.5% is clearly faster.
    const auto one = result({bench("v/a/1K", "a", 8, 10), bench("v/b/1K", "b", 7.96, 10)});
    c = compare_within(one, "variant", "a", "b", strict);
    ASSERT_EQ(c.benchmarks.size(), 1u);
    EXPECT_EQ(c.benchmarks[0].metrics[0].method, Method::paired);
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::lower);
}

TEST(Compare, MachineDriftBetweenRunsWidensTheTimeInterval) {
    // 8% faster with tight samples: called when both runs' machine probes agree...
    auto base = result({bench("a", "x", 8, 10)});
    auto contender = result({bench("a", "x", 7.36, 10)});
    base.machine_probe_ns = contender.machine_probe_ns = 4400;
    auto c = compare_results(base, contender, CompareOptions{});
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::lower);
    ASSERT_TRUE(c.machine_drift);
    EXPECT_DOUBLE_EQ(*c.machine_drift, 0);
    const double low_when_steady = c.benchmarks[0].metrics[0].ci_low;
    // ...but not when the machine itself ran 10% faster in the contender's run: the interval's
    // ratios are divided and multiplied by the machine's factor (1 / 0.9) on both sides, so -8%
    // is inconclusive (not "equivalent within ±10%", which a real change of 8% is not), and no
    // bound reaches -100% however far the machine moved.
    contender.machine_probe_ns = 3960;
    c = compare_results(base, contender, CompareOptions{});
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::inconclusive);
    const double base_median = c.benchmarks[0].metrics[0].baseline_median;
    EXPECT_NEAR(c.benchmarks[0].metrics[0].ci_low,
                base_median * ((1 + low_when_steady / base_median) * 0.9 - 1), 1e-9);
    EXPECT_LT(c.benchmarks[0].metrics[0].threshold, 0.02 * 8) << "the threshold is not raised";
    EXPECT_EQ(c.benchmarks[0].metrics[1].verdict, Verdict::equivalent) << "counts do not drift";
    const auto note = std::find_if(c.notes.begin(), c.notes.end(), [](const auto& n) {
        return n.find("the machine itself was -10.0%") != std::string::npos;
    });
    ASSERT_NE(note, c.notes.end());
    EXPECT_NE(note->find("; to see a smaller change, measure the two builds in turn (perfgauge "
                         "run --against OTHER)"),
              std::string::npos)
        << *note;
    // The chains agree but the copies' medians moved by 10% (a busy sibling thread on the
    // host, which the chain does not feel): the same caution, naming that probe.
    contender.machine_probe_ns = 4400;
    base.machine_copy_probe_ns = 1300;
    contender.machine_copy_probe_ns = 1430;
    c = compare_results(base, contender, CompareOptions{});
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::inconclusive);
    EXPECT_NEAR(*c.machine_drift, 0.1, 1e-9);
    // A drift within --min-change is the probes' own wander: nothing widens.
    contender.machine_copy_probe_ns = 1306;
    c = compare_results(base, contender, CompareOptions{});
    EXPECT_EQ(c.benchmarks[0].metrics[0].verdict, Verdict::lower);
    contender.machine_copy_probe_ns = 1430;
    c = compare_results(base, contender, CompareOptions{});
    EXPECT_NE(std::find_if(c.notes.begin(), c.notes.end(),
                           [](const auto& n) {
                               return n.find("+10.0%") != std::string::npos &&
                                      n.find("fixed copy probe") != std::string::npos;
                           }),
              c.notes.end());
    // Files without a probe say that drift cannot be told apart.
    base.machine_probe_ns = 0;
    c = compare_results(base, contender, CompareOptions{});
    EXPECT_FALSE(c.machine_drift);
    EXPECT_NE(c.notes.front().find("no machine probe"), std::string::npos);
}

TEST(ResultFile, ABenchmarkWhoseEverySampleWasDisturbedIsKept) {
    auto r = result({bench("a", "x", 8, 10)});
    auto& b = r.benchmarks[0];
    for (std::size_t k = 0; k < b.ns_per_item.size(); ++k)
        b.disturbed.push_back({k, b.ns_per_item[k], 2e6, 1e6, 1, 1.0});
    b.ns_per_item.clear();
    b.raw_ns_per_item.clear();
    for (auto& c : b.counters_per_item)
        c.clear();
    for (auto& c : b.raw_counters_per_item)
        c.clear();
    const auto back = parse_run_json(render_run(r, OutputFormat::json), "test");
    ASSERT_EQ(back.benchmarks.size(), 1u);
    EXPECT_TRUE(back.benchmarks[0].ns_per_item.empty());
    EXPECT_EQ(back.benchmarks[0].disturbed.size(), 10u);
    EXPECT_EQ(back.benchmarks[0].disturbed[3].involuntary_switches, 1u);
    EXPECT_NE(render_run(back, OutputFormat::table).find("no undisturbed sample"),
              std::string::npos);
    EXPECT_EQ(verdict_text(compare_results(back, back, CompareOptions{}).benchmarks[0].metrics[0]),
              "too few samples");
}

TEST(Compare, VariantsMatchOnEverythingButTheVariant) {
    auto other_size = bench("varint/bmi2/2K", "bmi2", 3, 15);
    other_size.params[2].second = "2048";
    const auto r = result({bench("varint/branchy/1K", "branchy", 8, 30.8),
                           bench("varint/bmi2/1K", "bmi2", 4, 15), other_size});
    const auto c = compare_within(r, "variant", "branchy", "bmi2", CompareOptions{});
    ASSERT_EQ(c.benchmarks.size(), 1u);
    EXPECT_EQ(c.benchmarks[0].name, "varint/1K");
    EXPECT_EQ(c.benchmarks[0].baseline, "varint/branchy/1K");
    EXPECT_EQ(c.benchmarks[0].contender, "varint/bmi2/1K");
    EXPECT_EQ(verdict_text(c.benchmarks[0].metrics[0]), "faster");
    EXPECT_TRUE(
        compare_within(r, "variant", "branchy", "unrolled", CompareOptions{}).benchmarks.empty());
}

TEST(Compare, RendersEveryFormat) {
    const auto c = compare_results(result({bench("a", "x", 8, 30.8)}),
                                   result({bench("a", "x", 4, 15)}), CompareOptions{});
    const auto csv = render_comparison(c, OutputFormat::csv);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "benchmark,metric,baseline_median,contender_median,ratio,change_pct,"
              "hodges_lehmann_shift,p_value,baseline_samples,contender_samples,verdict,source,"
              "ci_low,ci_high,threshold,method,paired_by,shift,run_pairs");
    std::stringstream row(csv.substr(csv.find('\n') + 1));
    std::vector<std::string> fields;
    for (std::string field; std::getline(row, field, ',') && fields.size() < 6;)
        fields.push_back(field);
    ASSERT_EQ(fields.size(), 6u) << csv;
    EXPECT_EQ(fields[0], "a");
    EXPECT_EQ(fields[1], "ns_per_item");
    EXPECT_NEAR(std::stod(fields[2]), 8, 0.01);
    EXPECT_NEAR(std::stod(fields[3]), 4, 0.01);
    EXPECT_NEAR(std::stod(fields[4]), 0.5, 1e-9);
    EXPECT_NEAR(std::stod(fields[5]), -50, 1e-6);
    EXPECT_NE(render_comparison(c, OutputFormat::markdown).find("| **faster** |"),
              std::string::npos);
    EXPECT_NE(render_comparison(c, OutputFormat::table).find("faster\n"), std::string::npos);
    const auto j = nlohmann::json::parse(render_comparison(c, OutputFormat::json));
    EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["verdict"], "faster");
}

TEST(Compare, EveryFormatStatesTheThresholdsAndWhatRatioMeans) {
    CompareOptions strict;
    strict.alpha = 0.01;
    strict.min_change = 0.05;
    const auto c = compare_results(result({bench("a", "x", 8, 30.8)}),
                                   result({bench("a", "x", 4, 15)}), strict);
    for (const auto format : {OutputFormat::table, OutputFormat::markdown}) {
        const auto text = render_comparison(c, format);
        EXPECT_NE(text.find("CI = 99% interval"), std::string::npos) << text;
        EXPECT_NE(text.find("the largest of 5% of the baseline"), std::string::npos) << text;
        EXPECT_NE(text.find("RATIO = contender / baseline medians"), std::string::npos) << text;
        // Why a paired row's medians need not be the run table's.
        EXPECT_NE(text.find("BASELINE, CONTENDER = medians (paired rows: of the rounds both sides "
                            "kept"),
                  std::string::npos)
            << text;
        EXPECT_EQ(text.find("0.05"), std::string::npos) << text;
    }
    const auto j = nlohmann::json::parse(render_comparison(c, OutputFormat::json));
    EXPECT_DOUBLE_EQ(j["thresholds"]["alpha"].get<double>(), 0.01);
    EXPECT_DOUBLE_EQ(j["thresholds"]["min_change"].get<double>(), 0.05);
}

TEST(ResultFile, JsonRoundTrip) {
    const auto original = result(
        {bench("varint/branchy/1K", "branchy", 8, 30.8), bench("memcpy/1K", "memcpy", 0.3, 2)});
    const auto back = parse_run_json(render_run(original, OutputFormat::json), "test");
    EXPECT_EQ(back.events, original.events);  // names, kinds, sources, counted, refusals
    EXPECT_EQ(refusal_lines(back), (std::vector<std::string>{"cycles: not supported: test"}));
    EXPECT_EQ(back.context, original.context);
    ASSERT_EQ(back.benchmarks.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& a = original.benchmarks[i];
        const auto& b = back.benchmarks[i];
        EXPECT_EQ(b.name, a.name);
        auto sorted = a.params;  // JSON objects keep keys sorted
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(b.params, sorted);
        EXPECT_EQ(b.items_per_iteration, a.items_per_iteration);
        EXPECT_EQ(b.bytes_per_iteration, a.bytes_per_iteration);
        EXPECT_EQ(b.iterations, a.iterations);
        EXPECT_EQ(b.ns_per_item, a.ns_per_item);
        EXPECT_EQ(b.raw_ns_per_item, a.raw_ns_per_item);
        EXPECT_EQ(b.counters_per_item[0], a.counters_per_item[0]);
        EXPECT_EQ(b.raw_counters_per_item[0], a.raw_counters_per_item[0]);
    }
    // Rendering the read-back result gives the same CSV.
    EXPECT_EQ(render_run(back, OutputFormat::csv), render_run(original, OutputFormat::csv));
    // A result written by another perfgauge (run --against saves one) keeps naming that build.
    auto other = original;
    other.version = "0.1-other";
    other.compiler = "GNU 9";
    other.compiler_flags = "-O1";
    const auto other_back = parse_run_json(render_run(other, OutputFormat::json), "other");
    EXPECT_EQ(other_back.version, "0.1-other");
    EXPECT_EQ(other_back.compiler, "GNU 9");
    EXPECT_EQ(other_back.compiler_flags, "-O1");
    EXPECT_NE(back.version, "0.1-other");  // this build's own, written as such
    EXPECT_FALSE(back.version.empty());
}

TEST(MergeProcesses, SamplesAreTaggedAndRoundsNeverShared) {
    auto first = result({bench("a", "x", 8, 10, 5), bench("b", "y", 4, 10, 5)});
    first.machine_probe_ns = 4400;
    first.benchmarks[0].disturbed.push_back({5, 9, 1, 1, 1, 1.2, 2e7});  // a retake round: 0..5
    first.benchmarks[1].snapshot_pause_ns = {40, 41, 42, 43, 44};        // timed apart
    auto second = result({bench("a", "x", 9, 10, 4), bench("b", "y", 4, 10, 4)});
    second.benchmarks[0].snapshot_pause_ns = {50, 51, 52, 53};  // timed apart in one part only
    second.machine_probe_ns = 4300;
    first.pause_calibration_drift = 0.04;
    second.pause_calibration_drift = -0.12;  // the larger drift, whichever way
    second.warnings = {"only in the second"};
    const auto merged = merge_processes({first, second});
    EXPECT_EQ(merged.processes, 2u);
    EXPECT_EQ(merged.repetitions, 9u);
    EXPECT_EQ(merged.machine_probe_ns, 4300);
    EXPECT_EQ(merged.pause_calibration_drift, -0.12);
    EXPECT_EQ(
        parse_run_json(render_run(merged, OutputFormat::json), "merged").pause_calibration_drift,
        -0.12);
    // A part that could not measure its drift leaves the other's; none measured stays unknown
    // (null in the JSON), not a drift of 0.
    first.pause_calibration_drift.reset();
    EXPECT_EQ(merge_processes({first, second}).pause_calibration_drift, -0.12);
    second.pause_calibration_drift.reset();
    const auto unknown = merge_processes({first, second});
    EXPECT_FALSE(unknown.pause_calibration_drift.has_value());
    EXPECT_FALSE(parse_run_json(render_run(unknown, OutputFormat::json), "merged")
                     .pause_calibration_drift.has_value());
    // One process's warning says so: the merged benchmark counts both processes' samples.
    EXPECT_EQ(merged.warnings,
              (std::vector<std::string>{"only in the second (in measuring process 2 of 2)"}));
    const std::vector<std::string> files = {"a.json", "b.json"};
    EXPECT_EQ(merge_processes({first, second}, files).warnings,
              (std::vector<std::string>{"only in the second (in b.json)"}));
    const auto& a = merged.benchmarks[0];
    ASSERT_EQ(a.ns_per_item.size(), 9u);
    EXPECT_EQ(a.processes, (std::vector<std::size_t>{0, 0, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(a.rounds, (std::vector<std::size_t>{0, 1, 2, 3, 4, 6, 7, 8, 9}));
    EXPECT_EQ(a.ns_per_item[5], second.benchmarks[0].ns_per_item[0]);
    EXPECT_EQ(a.counters_per_item[0].size(), 9u);
    ASSERT_EQ(a.disturbed.size(), 1u);
    EXPECT_EQ(a.disturbed[0].round, 5u);
    // One value per sample once a part has them: the other part's samples have none (NaN).
    ASSERT_EQ(a.snapshot_pause_ns.size(), 9u);
    EXPECT_TRUE(std::isnan(a.snapshot_pause_ns[4]));
    EXPECT_EQ(a.snapshot_pause_ns[5], 50);
    const auto& b = merged.benchmarks[1].snapshot_pause_ns;
    ASSERT_EQ(b.size(), 9u);
    EXPECT_EQ(b[4], 44);
    EXPECT_TRUE(std::isnan(b[5]));
    EXPECT_EQ(median_snapshot_pause_ns(merged.benchmarks[1]), 42) << "NaN left out";
    // The tags survive the result file.
    const auto back = parse_run_json(render_run(merged, OutputFormat::json), "test");
    EXPECT_EQ(back.processes, 2u);
    EXPECT_EQ(back.benchmarks[0].processes, a.processes);
    EXPECT_EQ(back.benchmarks[0].disturbed[0].probe_slowdown, 1.2);
    EXPECT_EQ(back.benchmarks[0].disturbed[0].steal_ns, 2e7);
    ASSERT_EQ(back.benchmarks[1].snapshot_pause_ns.size(), 9u) << "NaN is written as null";
    EXPECT_TRUE(std::isnan(back.benchmarks[1].snapshot_pause_ns[5]));
    // Parts that measured different things are refused.
    auto other = result({bench("c", "x", 8, 10, 5), bench("b", "y", 4, 10, 5)});
    EXPECT_THROW(merge_processes({first, other}), std::invalid_argument);
    EXPECT_THROW(merge_processes({}), std::invalid_argument);
}

// perfgauge run --against: each benchmark measured in processes of its own, merged per benchmark,
// then joined. Samples of different benchmarks were never taken in one round.
TEST(JoinBenchmarks, RoundsAreMovedApartAndFactsCombined) {
    auto a =
        merge_processes({result({bench("a", "x", 8, 10, 4)}), result({bench("a", "x", 8, 10, 3)})});
    a.machine_probe_ns = 4400;
    a.machine_copy_probe_ns = 100;
    auto b =
        merge_processes({result({bench("b", "y", 4, 10, 2)}), result({bench("b", "y", 4, 10, 5)})});
    b.machine_probe_ns = 4300;
    b.machine_copy_probe_ns = 300;
    b.warnings = {"only in b"};
    b.benchmarks[0].disturbed.push_back({1, 9, 1, 1, 1, 1.2, 0});
    b.in_turn_with = "token";  // the joined result takes the first part's (the caller sets it)
    const auto joined = join_benchmarks({a, b});
    ASSERT_EQ(joined.benchmarks.size(), 2u);
    EXPECT_EQ(joined.processes, 2u);
    EXPECT_EQ(joined.repetitions, 7u);  // the most any benchmark had, not their sum
    EXPECT_EQ(joined.machine_probe_ns, 4300);
    EXPECT_EQ(joined.machine_copy_probe_ns, 200);
    EXPECT_EQ(joined.warnings, (std::vector<std::string>{"only in b"}));
    EXPECT_EQ(joined.benchmarks[0].rounds, a.benchmarks[0].rounds);
    EXPECT_EQ(joined.benchmarks[0].processes, (std::vector<std::size_t>{0, 0, 0, 0, 1, 1, 1}));
    // b's rounds follow a's last (6): 7, 8 from its first process, 9.. from its second.
    EXPECT_EQ(joined.benchmarks[1].rounds, (std::vector<std::size_t>{7, 8, 9, 10, 11, 12, 13}));
    EXPECT_EQ(joined.benchmarks[1].processes, b.benchmarks[0].processes);
    EXPECT_EQ(joined.benchmarks[1].ns_per_item, b.benchmarks[0].ns_per_item);
    ASSERT_EQ(joined.benchmarks[1].disturbed.size(), 1u);
    EXPECT_EQ(joined.benchmarks[1].disturbed[0].round, 8u);
    // So no sample of a is paired with one of b when variants are compared within the result.
    const auto within = compare_within(joined, "variant", "x", "y", CompareOptions{});
    ASSERT_EQ(within.benchmarks.size(), 1u);
    EXPECT_EQ(within.benchmarks[0].metrics[0].method, Method::independent);
    EXPECT_THROW(join_benchmarks({a, a}), std::invalid_argument);  // a measured twice
    auto three =
        merge_processes({result({bench("c", "x", 8, 10, 3)}), result({bench("c", "x", 8, 10, 3)}),
                         result({bench("c", "x", 8, 10, 3)})});
    // A benchmark that took more processes than another (run --against adds pairs where the
    // interval is still wide): the joined result counts the most, each benchmark keeps its own.
    const auto mixed = join_benchmarks({a, three});
    EXPECT_EQ(mixed.processes, 3u);
    EXPECT_EQ(mixed.benchmarks[0].processes, a.benchmarks[0].processes);
    EXPECT_EQ(mixed.benchmarks[1].processes, three.benchmarks[0].processes);
    EXPECT_THROW(join_benchmarks({}), std::invalid_argument);
}

TEST(MergeProcesses, KeepsTheGapsOfThePartThatLostMostAndOneWarningAboutThem) {
    const auto with_gaps = [](double share, const std::string& warning) {
        auto r = result({bench("a", "x", 8, 10, 5)});
        CpuGaps g;
        g.window_ns = 50e6;
        g.lost_share = share;
        g.count = 40;
        r.system.cpu_gaps = g;
        r.warnings = {"load: 1-minute load average " + std::to_string(share), warning};
        return r;
    };
    // Results merged by compare may come from runs that spun (each its own) or not (older).
    auto older = result({bench("a", "x", 8, 10, 5)});
    older.warnings = {"load: 1-minute load average 1.05"};
    const auto merged = merge_processes({older, with_gaps(0.02, "interruptions: 2% lost"),
                                         with_gaps(0.05, "interruptions: 5% lost"),
                                         with_gaps(0.03, "interruptions: 3% lost")});
    ASSERT_TRUE(merged.system.cpu_gaps.has_value());
    EXPECT_EQ(merged.system.cpu_gaps->lost_share, 0.05);
    // One line each about the machine, not one per process: the first load, the worst gaps.
    EXPECT_EQ(merged.warnings, (std::vector<std::string>{"load: 1-minute load average 1.05",
                                                         "interruptions: 5% lost"}));
    // And through the result file.
    const auto back = parse_run_json(render_run(merged, OutputFormat::json), "test");
    ASSERT_TRUE(back.system.cpu_gaps.has_value());
    EXPECT_EQ(back.system.cpu_gaps->lost_share, 0.05);
    EXPECT_EQ(back.system.cpu_gaps->count, 40u);
    EXPECT_EQ(back.system.cpu_gaps->window_ns, 50e6);
}

// A measuring process on a loaded machine can have every sample of a benchmark disturbed: the
// benchmark then has an aggregate entry only. It keeps its place, so that the processes' results
// still merge benchmark by benchmark.
TEST(MergeProcesses, ABenchmarkWithEverySampleDisturbedKeepsItsPlace) {
    auto first = result({bench("a", "x", 8, 10, 3), bench("b", "y", 4, 10, 3)});
    auto second = first;
    auto& a = second.benchmarks[0];
    for (std::size_t k = 0; k < a.ns_per_item.size(); ++k)
        a.disturbed.push_back({k, a.ns_per_item[k], 2e6, 1e6, 1, 1.0});
    a.ns_per_item.clear();
    a.raw_ns_per_item.clear();
    for (auto& c : a.counters_per_item)
        c.clear();
    for (auto& c : a.raw_counters_per_item)
        c.clear();
    const auto back = parse_run_json(render_run(second, OutputFormat::json), "second");
    ASSERT_EQ(back.benchmarks.size(), 2u);
    EXPECT_EQ(back.benchmarks[0].name, "a");
    EXPECT_EQ(back.benchmarks[0].disturbed.size(), 3u);
    EXPECT_EQ(back.benchmarks[1].name, "b");
    // What a benchmark's item is survives without a sample: the merged result takes it from
    // the first process, and a per-iteration time built on 1 item would be off by the items.
    EXPECT_EQ(back.benchmarks[0].items_per_iteration, 100);
    EXPECT_EQ(back.benchmarks[0].bytes_per_iteration, 300);
    const auto front = parse_run_json(render_run(first, OutputFormat::json), "first");
    for (const auto& merged : {merge_processes({front, back}), merge_processes({back, front})}) {
        EXPECT_EQ(merged.benchmarks[0].ns_per_item.size(), 3u);
        EXPECT_EQ(merged.benchmarks[1].ns_per_item.size(), 6u);
        EXPECT_EQ(merged.benchmarks[0].items_per_iteration, 100);
        EXPECT_EQ(merged.benchmarks[0].bytes_per_iteration, 300);
    }
    // A file from before aggregates said it: the facts come from the process with samples.
    auto older = nlohmann::json::parse(render_run(second, OutputFormat::json));
    for (auto& entry : older["benchmarks"]) {
        if (entry["run_type"] == "aggregate") {
            entry.erase("perfgauge_items_per_iteration");
            entry.erase("perfgauge_bytes_per_iteration");
        }
    }
    const auto old_back = parse_run_json(older.dump(), "older");
    ASSERT_EQ(old_back.benchmarks[0].items_per_iteration, 1);  // what such a file says alone
    const auto merged = merge_processes({old_back, front});
    EXPECT_EQ(merged.benchmarks[0].items_per_iteration, 100);
    EXPECT_EQ(merged.benchmarks[0].bytes_per_iteration, 300);
}

// A result of two measuring processes of five samples each whose medians disagree by 12% (one
// ran in a slow state).
RunResult processes_apart() {
    auto base = result({bench("a", "x", 8, 10)});
    auto& b = base.benchmarks[0];
    b.ns_per_item = samples(8, 5);
    const auto slow = samples(8.96, 5);
    b.ns_per_item.insert(b.ns_per_item.end(), slow.begin(), slow.end());
    b.processes = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    base.processes = 2;
    return base;
}

TEST(Compare, ASideWithBlocksWidensTheIntervalEvenAgainstOneWithout) {
    // The baseline's two processes disagree by 12%; the contender, one process of 5 samples,
    // has no blocks: the baseline's spread still widens the interval, so -6% is not called.
    const auto base = processes_apart();
    const auto c = compare_results(base, result({bench("a", "x", 7.96, 10, 5)}), CompareOptions{});
    const auto& time = c.benchmarks[0].metrics[0];
    EXPECT_EQ(time.baseline_blocks, 2u);
    EXPECT_EQ(time.contender_blocks, 0u);
    EXPECT_EQ(time.verdict, Verdict::inconclusive);
    EXPECT_LT(time.ci_low, -0.48 - 0.9) << "widened by the blocks' SD, 0.96 / sqrt(2) ~ 0.68";
}

TEST(Compare, AThresholdFromASidesOwnSpreadNeverSaysEquivalent) {
    // Five samples a side (one process, too few for blocks), spread over 10%: each side's IQR
    // (~4%) sets the threshold, and a change within it is not shown to be absent.
    auto base = result({bench("a", "x", 8, 10, 5)});
    auto contender = result({bench("a", "x", 8.08, 10, 5)});
    base.benchmarks[0].ns_per_item = samples(8, 5, 0.10);
    contender.benchmarks[0].ns_per_item = samples(8.08, 5, 0.10);
    const auto wide = compare_results(base, contender, CompareOptions{});
    const auto& m = wide.benchmarks[0].metrics[0];
    EXPECT_GT(m.threshold, 0.02 * 8);
    EXPECT_EQ(m.baseline_blocks, 0u);
    EXPECT_FALSE(m.equivalence_shown);
    EXPECT_NE(m.verdict, Verdict::equivalent);
    // The same with samples tight enough that --min-change sets the threshold: equivalent.
    base.benchmarks[0].ns_per_item = samples(8, 5, 0.002);
    contender.benchmarks[0].ns_per_item = samples(8.02, 5, 0.002);
    const auto tight = compare_results(base, contender, CompareOptions{});
    EXPECT_TRUE(tight.benchmarks[0].metrics[0].equivalence_shown);
    EXPECT_EQ(tight.benchmarks[0].metrics[0].verdict, Verdict::equivalent);
}

TEST(Compare, TimeBlocksFollowProcessesAndRoundOrder) {
    BenchmarkResult b;
    // Two processes; the first's samples stored out of round order; the second has 7 samples.
    b.ns_per_item.assign(13, 1.0);
    b.processes = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
    b.rounds = {5, 4, 3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12};
    // Six samples: two blocks of three, by round (rounds 0-2, then 3-5); seven: two blocks.
    EXPECT_EQ(time_blocks(b), (std::vector<std::size_t>{1, 1, 1, 0, 0, 0, 2, 2, 2, 2, 3, 3, 3}));
    // At most max_per_process blocks, however many samples.
    b.ns_per_item.assign(100, 1.0);
    b.processes.clear();
    b.rounds.clear();
    const auto many = time_blocks(b, 6, 3);
    EXPECT_EQ(*std::max_element(many.begin(), many.end()), 5u);
    EXPECT_TRUE(std::is_sorted(many.begin(), many.end()));
    // Fewer samples than one block: all in block 0.
    b.ns_per_item.assign(2, 1.0);
    EXPECT_EQ(time_blocks(b), (std::vector<std::size_t>{0, 0}));
}

TEST(Compare, AChangeAcrossResultsMustStandOutFromTheDifferencesBetweenProcesses) {
    // The baseline's two processes disagree by 12% (one ran in a slow state); the contender is
    // 6% faster than the baseline's median: not a verdict the processes support.
    auto base = processes_apart();
    auto& b = base.benchmarks[0];
    auto contender = result({bench("a", "x", 8.0, 10)});
    contender.benchmarks[0].processes = b.processes;
    contender.processes = 2;
    // Five samples a process: one block each, so each side has two blocks, one per process.
    EXPECT_EQ(time_blocks(b), (std::vector<std::size_t>{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}));
    auto c = compare_results(base, contender, CompareOptions{});
    const auto& time = c.benchmarks[0].metrics[0];
    EXPECT_EQ(time.baseline_blocks, 2u);
    EXPECT_EQ(time.contender_blocks, 2u);
    // The interval spans the processes' disagreement (Welch's t on two blocks, one degree of
    // freedom), far wider than the samples' own spread.
    EXPECT_LT(time.ci_low, -0.96);
    EXPECT_GT(time.ci_high, 0.0);
    EXPECT_EQ(time.verdict, Verdict::inconclusive);
    // Without the tags compare cannot see what lasts a process, and says so.
    base.benchmarks[0].processes.clear();
    base.processes = 1;
    c = compare_results(base, contender, CompareOptions{});
    const auto note = std::find_if(c.notes.begin(), c.notes.end(), [](const auto& n) {
        return n.find("baseline was measured in one process") != std::string::npos;
    });
    EXPECT_NE(note, c.notes.end());
}

// Runs joined as one side (process i = run i), each run's samples `scale[i]` times `ns`: the
// machine ran at a different speed in each run.
RunResult joined_runs(double ns, const std::vector<double>& scale) {
    auto r = result({bench("a", "x", ns, 10, 0)});
    auto& b = r.benchmarks[0];
    b.counters_per_item.assign(2, {});
    for (std::size_t run = 0; run < scale.size(); ++run) {
        for (const double v : samples(ns * scale[run], 7)) {
            b.ns_per_item.push_back(v);
            b.raw_ns_per_item.push_back(v);
            b.processes.push_back(run);
            b.counters_per_item[0].push_back(10);
            b.counters_per_item[1].push_back(0);
        }
    }
    b.raw_counters_per_item = b.counters_per_item;
    r.processes = scale.size();
    return r;
}

TEST(Compare, PairedRunsCancelWhatChangesFromOneRunToTheNext) {
    // Three pairs of runs; the machine ran 15% slower in the second pair, 8% faster in the
    // third. The contender is 4% slower within every pair.
    const std::vector<double> drift = {1.0, 1.15, 0.92};
    const auto base = joined_runs(8, drift);
    const auto slower = joined_runs(8 * 1.04, drift);
    // Compared as blocks, the runs' disagreement swamps 4%.
    const auto blocks = compare_results(base, slower, CompareOptions{});
    EXPECT_EQ(blocks.benchmarks[0].metrics[0].method, Method::independent);
    EXPECT_EQ(blocks.benchmarks[0].metrics[0].verdict, Verdict::inconclusive);
    // Paired run by run, the drift cancels: slower, and the interval is about the 4%.
    const auto paired = compare_results(base, slower, CompareOptions{}, true);
    EXPECT_EQ(paired.paired_runs, 3u);
    const auto& time = paired.benchmarks[0].metrics[0];
    EXPECT_EQ(time.method, Method::paired_runs);
    EXPECT_EQ(time.run_pairs, 3u);
    EXPECT_EQ(time.verdict, Verdict::higher);
    EXPECT_GT(time.ci_low, 0.02 * 8);
    EXPECT_LT(time.ci_high, 0.06 * 8);
    // Ratio and change follow the pairs, which the regression gate reads. Times are paired by
    // their ratios: every pair is exactly 4% apart whatever its run's speed (differences would
    // make it 4% of a mean run, 4.09%, and spread the pairs by the drift).
    EXPECT_NEAR(time.change_pct, 4.0, 1e-9);
    // No machine-drift widening and no blocks note: the note says how the runs were paired.
    EXPECT_TRUE(std::any_of(paired.notes.begin(), paired.notes.end(), [](const auto& n) {
        return n.find("taken in turn") != std::string::npos;
    }));
    // Counters constant on both sides stay exact.
    EXPECT_EQ(paired.benchmarks[0].metrics[1].method, Method::deterministic);
    // The same code in every pair: not called, whatever the drift.
    const auto same = compare_results(base, joined_runs(8, drift), CompareOptions{}, true);
    EXPECT_EQ(same.benchmarks[0].metrics[0].verdict, Verdict::equivalent);
    // A pair that disagrees with the others widens the interval: one pair +20%, two +0%.
    const auto odd = compare_results(base, joined_runs(8, {1.2 * drift[0], drift[1], drift[2]}),
                                     CompareOptions{}, true);
    EXPECT_EQ(odd.benchmarks[0].metrics[0].verdict, Verdict::inconclusive);
}

// A shared host puts a whole process now and then in a state twice as slow: one such pair
// among many must not decide, or hide, the change the other pairs agree on.
TEST(Compare, PairedRunsOfSixOrMoreRestOnTheMedianPair) {
    EXPECT_EQ(min_sign_test_pairs(0.95), 6u);
    EXPECT_EQ(min_sign_test_pairs(0.99), 8u);
    // Ten pairs, the contender 10% slower in each, except that the baseline's process of pair 3
    // and the contender's of pair 7 ran at half speed.
    std::vector<double> base_scale(10, 1.0), contender_scale(10, 1.0);
    base_scale[3] = 2;
    contender_scale[7] = 2;
    const auto c = compare_results(joined_runs(8, base_scale),
                                   joined_runs(8 * 1.1, contender_scale), CompareOptions{}, true);
    const auto& time = c.benchmarks[0].metrics[0];
    EXPECT_EQ(time.method, Method::paired_runs);
    EXPECT_TRUE(time.run_pairs_median);
    EXPECT_EQ(time.run_pairs, 10u);
    EXPECT_EQ(time.verdict, Verdict::higher);
    EXPECT_NEAR(time.change_pct, 10, 1e-9);
    // The sign-test interval of ten pairs is their 2nd to 9th: both 1.1 (in ns: 10% of the
    // baseline's pooled median).
    EXPECT_NEAR(time.ci_low, 0.1 * time.baseline_median, 1e-9);
    EXPECT_NEAR(time.ci_high, 0.1 * time.baseline_median, 1e-9);
    // Student's t over the same ten log ratios (mean 0.095, the two flips 0.79 and -0.60)
    // would straddle the 1% threshold: inconclusive.
    std::vector<double> logs(10, std::log(1.1));
    logs[3] = std::log(1.1 / 2);
    logs[7] = std::log(2.2);
    EXPECT_LT(mean_interval(logs).low, std::log(1.01));
    const auto j = nlohmann::json::parse(render_comparison(c, OutputFormat::json));
    EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["pair_center"], "median");
    EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
        return n.find("sign-test interval from 6 pairs on") != std::string::npos;
    }));
    // Six pairs, one flipped: the median stays at +10%, but six pairs' interval is [min, max]
    // and reaches the flip - inconclusive (from 9 pairs on one flip at each end is left out).
    std::vector<double> six_base(6, 1.0);
    six_base[2] = 2;
    const auto six = compare_results(
        joined_runs(8, six_base), joined_runs(8 * 1.1, {1, 1, 1, 1, 1, 1}), CompareOptions{}, true);
    EXPECT_TRUE(six.benchmarks[0].metrics[0].run_pairs_median);
    EXPECT_NEAR(six.benchmarks[0].metrics[0].change_pct, 10, 1e-9);
    EXPECT_EQ(six.benchmarks[0].metrics[0].verdict, Verdict::inconclusive);
    // Five pairs have no 95% sign-test interval: Student's t over their mean, said in JSON.
    const auto five =
        compare_results(joined_runs(8, {1, 1.1, 0.9, 1, 1.2}),
                        joined_runs(8.8, {1, 1.1, 0.9, 1, 1.2}), CompareOptions{}, true);
    EXPECT_FALSE(five.benchmarks[0].metrics[0].run_pairs_median);
    EXPECT_EQ(five.benchmarks[0].metrics[0].verdict, Verdict::higher);
    const auto j5 = nlohmann::json::parse(render_comparison(five, OutputFormat::json));
    EXPECT_EQ(j5["benchmarks"][0]["metrics"][0]["pair_center"], "mean");
}

TEST(Compare, PairedRunsNeedThreePairsWithSamplesOnBothSides) {
    // Two runs a side are too few pairs: the caller must not ask (compare does not).
    EXPECT_THROW(compare_results(joined_runs(8, {1, 1.1}), joined_runs(8.32, {1, 1.1}),
                                 CompareOptions{}, true),
                 std::invalid_argument);
    EXPECT_THROW(compare_results(joined_runs(8, {1, 1.1, 1}), joined_runs(8.32, {1, 1.1}),
                                 CompareOptions{}, true),
                 std::invalid_argument);
    // Three runs a side, but every sample of the contender's third run was disturbed: two pairs
    // with samples, so that metric is compared as blocks, widened by the probes' drift (+10%),
    // and named.
    auto base = joined_runs(8, {1, 1, 1});
    auto slower = joined_runs(8 * 1.04, {1, 1, 1});
    base.machine_probe_ns = 100;
    slower.machine_probe_ns = 110;
    auto& b = slower.benchmarks[0];
    for (std::size_t i = b.ns_per_item.size(); i-- > 0;) {
        if (b.processes[i] == 2) {
            b.ns_per_item.erase(b.ns_per_item.begin() + static_cast<std::ptrdiff_t>(i));
            b.raw_ns_per_item.erase(b.raw_ns_per_item.begin() + static_cast<std::ptrdiff_t>(i));
            b.processes.erase(b.processes.begin() + static_cast<std::ptrdiff_t>(i));
            for (auto* counts : {&b.counters_per_item, &b.raw_counters_per_item}) {
                for (auto& c : *counts)
                    c.erase(c.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
    }
    const auto fell_back = compare_results(base, slower, CompareOptions{}, true);
    const auto& time = fell_back.benchmarks[0].metrics[0];
    EXPECT_EQ(time.method, Method::independent);
    EXPECT_EQ(time.run_pairs, 0u);
    // 4% slower in every sample, but the machine's 10% drift spans it.
    EXPECT_LT(time.ci_low, -0.05 * time.baseline_median);
    EXPECT_EQ(time.verdict, Verdict::inconclusive);
    const auto said = [&](const std::string& text) {
        return std::any_of(fell_back.notes.begin(), fell_back.notes.end(),
                           [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(
        said("1 metric was not paired (fewer than 3 runs with clean samples on both "
             "sides), compared as blocks of samples instead: a time"));
    EXPECT_TRUE(said("the machine itself was +10.0% in the contender's run"));
    EXPECT_FALSE(said("to see a smaller change")) << "runs in turn were taken already";
    // The same runs whole, the probes 10% apart as before: paired, the drift is recorded but
    // widens nothing and is not said.
    auto whole_contender = joined_runs(8 * 1.04, {1, 1, 1});
    whole_contender.machine_probe_ns = 110;
    const auto whole = compare_results(base, whole_contender, CompareOptions{}, true);
    const auto& paired_time = whole.benchmarks[0].metrics[0];
    EXPECT_EQ(paired_time.method, Method::paired_runs);
    EXPECT_TRUE(paired_time.log_ratio_pairs);
    ASSERT_TRUE(whole.machine_drift.has_value());
    EXPECT_NEAR(*whole.machine_drift, 0.10, 1e-12);
    EXPECT_GT(paired_time.ci_low, 0.03 * paired_time.baseline_median);
    EXPECT_LT(paired_time.ci_high, 0.05 * paired_time.baseline_median);
    EXPECT_EQ(paired_time.verdict, Verdict::higher);
    EXPECT_FALSE(std::any_of(whole.notes.begin(), whole.notes.end(), [](const std::string& n) {
        return n.find("widened") != std::string::npos;
    }));
}

TEST(Compare, PairedRoundsReportTheMedianRatioTheVerdictRestsOn) {
    // Per-round ratios 2, 1.25, 1.1, 1.25, 1.25, 1.0: their median is 1.25, while the ratio of
    // the two sides' medians is 4.15 / 3.5 = 1.186. Ratio, change and shift follow the pairs.
    const std::vector<double> a = {1, 2, 3, 4, 5, 6};
    const std::vector<double> b = {2, 2.5, 3.3, 5, 6.25, 6};
    const auto m = compare_samples("time", true, a, b, CompareOptions{}, Method::paired);
    EXPECT_EQ(m.method, Method::paired);
    EXPECT_TRUE(m.log_ratio_pairs);
    EXPECT_NEAR(m.ratio, 1.25, 1e-12);
    EXPECT_NEAR(m.change_pct, 25, 1e-9);
    EXPECT_NEAR(m.shift, 0.25 * 3.5, 1e-12);
    EXPECT_NEAR(m.contender_median / m.baseline_median, 4.15 / 3.5, 1e-12);
    // Counts: the rounds' differences 1, 0.5, 0.3, 1, 1.25, 0, whose median is 0.75.
    const auto counts =
        compare_samples("instructions", false, a, b, CompareOptions{}, Method::paired);
    EXPECT_FALSE(counts.log_ratio_pairs);
    EXPECT_NEAR(counts.shift, 0.75, 1e-12);
    EXPECT_NEAR(counts.change_pct, 100 * 0.75 / 3.5, 1e-9);
}

TEST(Compare, PairedRoundsSayHowTheyWerePaired) {
    // Rounds without rounds given pair by index. A time with a value below 0 (a correction larger
    // than the time) cannot be a ratio: paired by differences, named, and said in JSON.
    auto slower = bench("varint/bmi2/1K", "bmi2", 9, 30.8);
    auto dipped = bench("varint/bmi2/1K", "bmi2", 9, 30.8);
    dipped.ns_per_item[3] = -0.5;
    for (const auto& [contender, by] : {std::pair{slower, "log-ratio"}, {dipped, "difference"}}) {
        const auto c =
            compare_within(result({bench("varint/branchy/1K", "branchy", 8, 30.8), contender}),
                           "variant", "branchy", "bmi2", CompareOptions{});
        ASSERT_EQ(c.benchmarks.size(), 1u);
        const auto& time = c.benchmarks[0].metrics[0];
        EXPECT_EQ(time.method, Method::paired);
        const auto j = nlohmann::json::parse(render_comparison(c, OutputFormat::json));
        const auto& metrics = j["benchmarks"][0]["metrics"];
        EXPECT_EQ(metrics[0]["paired_by"], by) << metrics[0];
        // Instructions, the same constant on both sides: exact, not paired.
        EXPECT_EQ(metrics[1]["method"], "deterministic") << metrics[1];
        EXPECT_TRUE(metrics[1]["paired_by"].is_null()) << metrics[1];
        const bool named = std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
            return n.find("1 time was paired by differences, not ratios") != std::string::npos &&
                   n.find("varint/1K time") != std::string::npos;
        });
        EXPECT_EQ(named, std::string(by) == "difference");
    }
    // Not paired: null.
    const auto across = compare_results(result({bench("a", "x", 8, 30.8)}),
                                        result({bench("a", "x", 4, 15)}), CompareOptions{});
    const auto j = nlohmann::json::parse(render_comparison(across, OutputFormat::json));
    EXPECT_TRUE(j["benchmarks"][0]["metrics"][0]["paired_by"].is_null());
}

TEST(Compare, PairedRunsOfOneSampleEachArePairsNotTooFewSamples) {
    // stat -r 1 or one Google Benchmark repetition, three times a side in turn: 3 samples a
    // side, fewer than min_samples pooled, but 3 pairs.
    const auto one_sample_runs = [](double ns) {
        auto r = joined_runs(ns, {1, 1.2, 0.9});
        auto& b = r.benchmarks[0];
        std::vector<double> first;
        std::vector<std::size_t> process;
        for (std::size_t i = 0; i < b.ns_per_item.size(); ++i) {
            if (i == 0 || b.processes[i] != b.processes[i - 1]) {
                first.push_back(b.ns_per_item[i]);
                process.push_back(b.processes[i]);
            }
        }
        b.ns_per_item = b.raw_ns_per_item = first;
        b.processes = process;
        b.counters_per_item.assign(2, std::vector<double>(first.size(), 10));
        b.raw_counters_per_item = b.counters_per_item;
        return r;
    };
    const auto c =
        compare_results(one_sample_runs(8), one_sample_runs(8 * 1.5), CompareOptions{}, true);
    const auto& time = c.benchmarks[0].metrics[0];
    EXPECT_EQ(time.baseline_samples, 3u);
    EXPECT_EQ(time.method, Method::paired_runs);
    EXPECT_EQ(time.run_pairs, 3u);
    // Every pair is exactly 1.5x: the ratios agree whatever each run's speed.
    EXPECT_EQ(time.verdict, Verdict::higher);
    EXPECT_NEAR(time.change_pct, 50, 1e-9);
}

TEST(ResultFile, RejectsWhatIsNotAPerfgaugeResult) {
    EXPECT_THROW(parse_run_json("not json", "x"), ResultFileError);
    EXPECT_THROW(parse_run_json("[1,2]", "x"), ResultFileError);
    try {
        parse_run_json(R"({"context": {"date": "x"}, "benchmarks": []})", "gb.json");
        FAIL();
    } catch (const ResultFileError& e) {
        EXPECT_NE(std::string(e.what()).find("gb.json: a Google Benchmark result"),
                  std::string::npos);
    }
    EXPECT_THROW(parse_run_json(R"({"context": {"perfgauge": {}}, "benchmarks": []})", "x"),
                 ResultFileError);
}

// The reason parse_run_json refused `r` once written ("" when it was accepted).
std::string refusal(const RunResult& r) {
    try {
        parse_run_json(render_run(r, OutputFormat::json), "r.json");
        return "";
    } catch (const ResultFileError& e) {
        return e.what();
    }
}

TEST(ResultFile, RefusesValuesNoMeasurementProduces) {
    auto r = result({bench("a", "x", 8, 30.8)});
    EXPECT_EQ(refusal(r), "");
    r.benchmarks[0].ns_per_item[2] = -1;
    EXPECT_NE(refusal(r).find("r.json: impossible value in a perfgauge result: 'a' sample 2: "
                              "perfgauge_ns_per_item is -1"),
              std::string::npos)
        << refusal(r);
    r = result({bench("a", "x", 8, 30.8)});
    r.benchmarks[0].raw_counters_per_item[0][0] = -3;
    EXPECT_NE(refusal(r).find("perfgauge_raw_instructions is -3"), std::string::npos);
    r = result({bench("a", "x", 8, 30.8)});
    r.benchmarks[0].running_fraction[0] = 1.5;
    EXPECT_NE(refusal(r).find("perfgauge_running_fraction_instructions is 1.5"), std::string::npos);
    // A corrected count just below 0 is the calibration's noise, not an impossible value.
    r = result({bench("a", "x", 8, 30.8)});
    r.benchmarks[0].counters_per_item[0][0] = -0.2;
    EXPECT_EQ(refusal(r), "");
}

TEST(ResultFile, RefusesNumbersThatDoNotFitTheirType) {
    const std::string good = render_run(result({bench("a", "x", 8, 30.8)}), OutputFormat::json);
    const auto with = [&](const std::string& key, const std::string& value) {
        auto j = nlohmann::json::parse(good);
        for (auto& e : j["benchmarks"]) {
            if (e["run_type"] == "iteration") {
                e[key] = "@@";
                break;
            }
        }
        std::string text = j.dump();
        text.replace(text.find("\"@@\""), 4, value);
        try {
            parse_run_json(text, "f.json");
            return std::string();
        } catch (const ResultFileError& e) {
            return std::string(e.what());
        }
    };
    EXPECT_NE(
        with("iterations", "-1").find("f.json: malformed perfgauge result: 'iterations' is -1"),
        std::string::npos)
        << with("iterations", "-1");
    EXPECT_NE(with("iterations", "1e30").find("not a count"), std::string::npos);
    EXPECT_NE(with("repetition_index", "2.5").find("not a count"), std::string::npos);
    // JSON has no infinity; a literal beyond double's range is refused by the JSON reader.
    EXPECT_NE(with("perfgauge_ns_per_item", "1e400").find("f.json: not JSON"), std::string::npos)
        << with("perfgauge_ns_per_item", "1e400");
    EXPECT_NE(with("perfgauge_cpu_ns_per_item", "-1e400").find("number overflow"),
              std::string::npos);
    EXPECT_EQ(with("iterations", "7"), "");
}

}  // namespace
}  // namespace perfgauge::harness
