#include "perfgauge/harness/selftest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <utility>
#include <vector>

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

namespace {

// Whether a way of comparing made any trial at all (a trial with too few samples is one).
bool made_a_trial(const ResolutionFigures& f) {
    return f.too_few_samples.trials > 0;
}

// Each way of measuring in the verdict, the unplanned left out (run --against at --quick); a
// planned way without a single trial goes into report.not_measured, saying why.
std::vector<VerdictPart> verdict_parts(SelftestReport& report) {
    const std::string runs_why = report.runs_failure.empty()
                                     ? std::string("no run completed")
                                     : "the separate runs: " + report.runs_failure;
    struct Way {
        const ResolutionFigures* figures;
        const char* how;
        const char* name;
        bool planned;
        std::string why;
    };
    const SelftestPlan& plan = report.plan;
    const auto process_why = [](const ProcessFigures& way) {
        return way.measured.failure.empty() ? std::string("no trial completed")
                                            : way.measured.failure;
    };
    // The floor a user would give compare: the one every run of this selftest measured.
    const bool floored =
        std::any_of(report.evidence.across_floors.begin(), report.evidence.across_floors.end(),
                    [](double f) { return f > 0; });
    const std::string across_how =
        floored ? fmt::format("across separate runs with compare --floor {:.2f}",
                              100 * report.between_run.median)
                : std::string("across separate runs");
    const std::vector<Way> ways = {
        {&report.in_turn, "measured in turn", "in turn", true, runs_why},
        {&report.across, across_how.c_str(), "across separate runs", true,
         report.runs_failure.empty() ? std::string("fewer than two runs completed") : runs_why},
        {&report.side_by_side.figures, "side by side in processes (stat)", "stat side by side",
         plan.processes.side_by_side_trials > 0, process_why(report.side_by_side)},
        {&report.against.figures, "in pairs of processes (run --against)", "run --against",
         plan.processes.against_trials > 0, process_why(report.against)}};
    std::vector<VerdictPart> parts;
    std::vector<std::pair<std::string, std::string>> unmeasured;  // (ways, why)
    for (const Way& way : ways) {
        if (!way.planned)
            continue;
        const bool measured = made_a_trial(*way.figures);
        parts.push_back({way.figures->smallest_change_pct, way.how, measured, way.name,
                         way.figures->false_positives.trials});
        if (measured)
            continue;
        if (!unmeasured.empty() && unmeasured.back().second == way.why)  // one reason, once
            unmeasured.back().first += std::string(" and ") + way.name;
        else
            unmeasured.emplace_back(way.name, way.why);
    }
    report.not_measured = {};
    for (const auto& [names, why] : unmeasured)
        report.not_measured.push_back(fmt::format("{}: {}", names, why));
    return parts;
}

// What was measured only in part: ways that stopped early after some trials, and run --against
// where the depth plans none.
std::vector<std::string> not_covered(const SelftestReport& report) {
    std::vector<std::string> out;
    if (!report.runs_failure.empty() && made_a_trial(report.in_turn))
        out.push_back(fmt::format("the separate runs stopped early: {}", report.runs_failure));
    if (report.plan.processes.against_trials == 0)
        out.push_back(
            "run --against (pairs of processes): not at this depth (the default measures 2 "
            "trials, about 20 s each)");
    for (const auto& [way, what] : {std::pair{&report.side_by_side, "stat side by side"},
                                    std::pair{&report.against, "run --against"}}) {
        if (!way->measured.failure.empty() && made_a_trial(way->figures))
            out.push_back(fmt::format("{} stopped early: {}", what, way->measured.failure));
    }
    return out;
}

}  // namespace

void summarize_evidence(SelftestReport& report) {
    const SelftestPlan& plan = report.plan;
    const TrialEvidence& e = report.evidence;
    report.in_turn = resolution(e.in_turn, plan.changes_pct, plan.power);
    report.across = resolution(e.across, plan.changes_pct, plan.power);
    report.across_without_floor = resolution(e.across_without_floor, plan.changes_pct, plan.power);
    for (ProcessFigures* way : {&report.side_by_side, &report.against})
        way->figures = resolution(way->measured.trials, plan.changes_pct, plan.power);
    report.within_run = relative_spread(e.within_run_ratios);
    report.between_run = relative_spread(e.between_run_ratios);
    report.disturbed = {e.disturbed, e.samples};
    double largest = 0;
    for (const double c : plan.changes_pct)
        largest = std::max(largest, c);
    const std::vector<VerdictPart> parts = verdict_parts(report);
    const Rate too_few = too_few_of(
        {&report.in_turn, &report.across, &report.side_by_side.figures, &report.against.figures});
    report.verdict = verdict_line(parts, largest, too_few.trials > 0 ? too_few.share() : 0);
    report.not_covered = not_covered(report);
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
