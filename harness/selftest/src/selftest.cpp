#include "perfgauge/harness/selftest.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "perfgauge/harness/runner.hpp"

namespace perfgauge::harness {

namespace {

// Read at run time, so that no compiler knows the chain's multiplier.
volatile std::uint64_t g_multiplier = 6364136223846793005ULL;

}  // namespace

const char* depth_name(SelftestDepth depth) {
    switch (depth) {
        case SelftestDepth::tiny:
            return "tiny";
        case SelftestDepth::quick:
            return "quick";
        case SelftestDepth::standard:
            return "standard";
        case SelftestDepth::thorough:
            return "thorough";
    }
    return "standard";
}

SelftestPlan plan_for(SelftestDepth depth) {
    SelftestPlan plan;
    plan.depth = depth;
    // The short correction check: three k instead of six, fewer samples (seed 000's targets
    // unchanged: |error| <= max(1 ns, 2%)). Not k = 10000: from there its batches last 5 ms,
    // and beside other builds (load average 13 on 2 CPUs) every one was disturbed (no pair).
    plan.correction.ks = {1, 100, 1000};
    plan.correction.repetitions = 11;
    plan.correction.max_time_s = 0.05;
    switch (depth) {
        case SelftestDepth::tiny:
            // Structure only: every figure rests on two runs of 3 samples.
            plan.runs = 2;
            plan.changes_pct = {5, 50};
            plan.base_operations = 200;
            plan.repetitions = 3;
            plan.precision = 0;
            plan.max_time_s = 0.005;
            plan.min_sample_time_s = 0.0002;
            plan.warmup_time_s = 0.001;
            plan.correction.ks = {1};
            plan.correction.repetitions = 3;
            plan.correction.precision = 0;
            plan.correction.max_time_s = 0.005;
            plan.correction.warmup_time_s = 0.001;
            break;
        case SelftestDepth::quick:
            plan.runs = 12;
            plan.max_time_s = 0.04;
            break;
        case SelftestDepth::standard:
            break;
        case SelftestDepth::thorough:
            plan.runs = 120;
            plan.max_time_s = 0.2;
            plan.correction.ks = {1, 10, 100, 1000, 10000, 100000};
            plan.correction.repetitions = 21;
            plan.correction.max_time_s = 0.1;
            break;
    }
    return plan;
}

Benchmark chain_benchmark(const std::string& work, std::uint64_t operations) {
    return {"chain/" + work,
            1,
            0,
            [operations](BatchState& s) {
                const std::uint64_t multiplier = g_multiplier;
                std::uint64_t x = 1;
                for (std::uint64_t i = 0; i < s.iterations(); ++i) {
                    for (std::uint64_t k = 0; k < operations; ++k) {
                        x = x * multiplier + k;  // each step waits for the last
                        asm volatile("" : "+r"(x));
                    }
                    benchmark_sink(x);
                }
            },
            {{kWorkParam, work}}};
}

void summarize_evidence(SelftestReport& report) {
    const SelftestPlan& plan = report.plan;
    const TrialEvidence& e = report.evidence;
    report.in_turn = resolution(e.in_turn, plan.changes_pct, plan.power);
    report.across = resolution(e.across, plan.changes_pct, plan.power);
    report.within_run = relative_spread(e.within_run_ratios);
    report.between_run = relative_spread(e.between_run_ratios);
    report.disturbed = {e.disturbed, e.samples};
    double largest = 0;
    for (const double c : plan.changes_pct)
        largest = std::max(largest, c);
    const Rate too_few{
        report.in_turn.too_few_samples.hits + report.across.too_few_samples.hits,
        report.in_turn.too_few_samples.trials + report.across.too_few_samples.trials};
    report.verdict =
        verdict_line(report.in_turn.smallest_change_pct, report.across.smallest_change_pct, largest,
                     too_few.trials > 0 ? too_few.share() : 0);
    report.not_covered = {
        "stat side by side (separate processes counted like perf stat)",
        "run --against and --processes across processes: the runs here are separate Runners in "
        "one process, so what lasts a whole process (code and data placement) is not varied"};
}

SelftestReport run_selftest(const SelftestPlan& plan, const SelftestProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    SelftestReport report;
    report.plan = plan;

    std::vector<Benchmark> work = {chain_benchmark(kBaseWork, plan.base_operations),
                                   chain_benchmark(kSameWork, plan.base_operations)};
    for (const double change : plan.changes_pct) {
        const auto operations = static_cast<std::uint64_t>(
            static_cast<double>(plan.base_operations) * (1 + change / 100) + 0.5);
        work.push_back(chain_benchmark(change_label(change), operations));
    }

    RunnerOptions options;
    options.events = "";  // time alone: the figures are about times
    options.repetitions = plan.repetitions;
    options.precision = plan.precision;
    options.max_time_s = plan.max_time_s;
    options.min_sample_time_s = plan.min_sample_time_s;
    options.warmup_time_s = plan.warmup_time_s;
    options.probe_cpu_gaps = false;

    std::vector<RunResult> runs;
    runs.reserve(plan.runs);
    for (std::size_t i = 0; i < plan.runs; ++i) {
        if (progress)
            progress("runs", i, plan.runs);
        // A Runner each: every run calibrates anew, as a separate perfgauge run would.
        Runner runner(options);
        runs.push_back(runner.run(work));
    }
    if (progress)
        progress("correction check", 0, 1);
    report.correction = check_correction("", plan.correction);

    report.evidence = compare_trials(runs, plan.changes_pct, plan.compare);
    summarize_evidence(report);
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

}  // namespace perfgauge::harness
