#include "perfgauge/harness/selftest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <utility>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

// The trials of every way of measuring, as one Rate: how many ended with too few samples.
Rate too_few_of(std::initializer_list<const ResolutionFigures*> ways) {
    Rate all;
    for (const ResolutionFigures* f : ways) {
        all.hits += f->too_few_samples.hits;
        all.trials += f->too_few_samples.trials;
    }
    return all;
}

// The base chain's time per iteration in the first run that kept a sample of it (NaN: none).
double base_ns_per_iteration(const std::vector<RunResult>& runs) {
    for (const RunResult& run : runs) {
        for (const auto& b : run.benchmarks) {
            if (b.name == "chain/" + std::string(kBaseWork) && !b.ns_per_item.empty())
                return median(b.ns_per_item);
        }
    }
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

void summarize_evidence(SelftestReport& report) {
    const SelftestPlan& plan = report.plan;
    const TrialEvidence& e = report.evidence;
    report.in_turn = resolution(e.in_turn, plan.changes_pct, plan.power);
    report.across = resolution(e.across, plan.changes_pct, plan.power);
    for (ProcessFigures* way : {&report.side_by_side, &report.against})
        way->figures = resolution(way->measured.trials, plan.changes_pct, plan.power);
    report.within_run = relative_spread(e.within_run_ratios);
    report.between_run = relative_spread(e.between_run_ratios);
    report.disturbed = {e.disturbed, e.samples};
    double largest = 0;
    for (const double c : plan.changes_pct)
        largest = std::max(largest, c);
    std::vector<VerdictPart> parts = {{report.in_turn.smallest_change_pct, "measured in turn"},
                                      {report.across.smallest_change_pct, "across separate runs"}};
    // A way without a single trial (none planned, or its first failed) says nothing.
    if (report.side_by_side.figures.false_positives.trials > 0)
        parts.push_back(
            {report.side_by_side.figures.smallest_change_pct, "side by side in processes (stat)"});
    if (report.against.figures.false_positives.trials > 0)
        parts.push_back(
            {report.against.figures.smallest_change_pct, "in pairs of processes (run --against)"});
    const Rate too_few = too_few_of(
        {&report.in_turn, &report.across, &report.side_by_side.figures, &report.against.figures});
    report.verdict = verdict_line(parts, largest, too_few.trials > 0 ? too_few.share() : 0);
    report.not_covered = {};
    if (!report.runs_failure.empty())
        report.not_covered.push_back(
            fmt::format("the separate runs stopped early: {}", report.runs_failure));
    if (plan.processes.against_trials == 0)
        report.not_covered.push_back(
            "run --against (pairs of processes): not at this depth (the default measures 2 "
            "trials, about 20 s each)");
    for (const auto& [way, what] : {std::pair{&report.side_by_side, "stat side by side"},
                                    std::pair{&report.against, "run --against"}}) {
        if (!way->measured.failure.empty())
            report.not_covered.push_back(
                fmt::format("{} stopped early: {}", what, way->measured.failure));
    }
}

SelftestReport run_selftest(const SelftestPlan& plan, const ChainArgv& argv,
                            const SelftestProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    SelftestReport report;
    report.plan = plan;

    const auto separate = measure_separate_runs(plan, argv, progress);
    report.runs_failure = separate.failure;
    const std::vector<RunResult>& runs = separate.runs;
    report.side_by_side_iterations = iterations_lasting(
        plan.processes.process_work_s, base_ns_per_iteration(runs), plan.base_operations);
    const auto timed = [](const auto& measure) {
        const auto begin = std::chrono::steady_clock::now();
        ProcessTrials trials = measure();
        trials.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        return trials;
    };
    report.side_by_side.measured = timed(
        [&] { return side_by_side_trials(plan, report.side_by_side_iterations, argv, progress); });
    report.against.measured = timed([&] { return against_trials(plan, argv, progress); });
    if (progress)
        progress("correction check", 0, 1);
    report.correction = check_correction("", plan.correction);
    stop_if_interrupted();

    report.evidence = compare_trials(runs, plan.changes_pct, plan.compare);
    summarize_evidence(report);
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

}  // namespace perfgauge::harness
