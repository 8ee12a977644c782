// perfgauge selftest [--quick | --thorough] [--runs N] [--json FILE]
// perfgauge selftest --counters [--json FILE]
// Measures (the selftest library), renders (results' selftest_report) and writes.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <string>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "perfgauge/harness/counter_checks.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/selftest.hpp"
#include "perfgauge/harness/selftest_report.hpp"
#include "perfgauge/harness/terminal_progress.hpp"
#include "registry.hpp"
#include "selftest/options.hpp"

namespace perfgauge::cli {

namespace {

// A way across processes, as the writer takes it.
harness::SelftestWay process_way(const harness::ProcessFigures& way) {
    return {way.figures, way.measured.trials, way.measured.seconds, way.measured.failure};
}

// What the writer says (selftest_summary.hpp), from the selftest library's report and the
// counter checks (run either way: cheap where nothing opens, every check stopping at its
// first refusal).
harness::SelftestSummary summary_of(const harness::SelftestReport& r) {
    const auto& p = r.plan.processes;
    harness::SelftestSummary s{
        .depth = harness::depth_name(r.plan.depth),
        .whole_sweep = r.plan.depth == harness::SelftestDepth::thorough,
        .runs = r.plan.runs,
        .base_operations = r.plan.base_operations,
        .changes_pct = r.plan.changes_pct,
        .power = r.plan.power,
        .min_change = r.plan.compare.min_change,
        .side_by_side_trials = p.side_by_side_trials,
        .side_by_side_rounds = p.side_by_side_rounds,
        .side_by_side_iterations = r.side_by_side_iterations,
        .against_trials = p.against_trials,
        .against_pairs = p.against_pairs,
        .against_max_pairs = p.against_max_pairs,
        .seconds = r.seconds,
        .within_run = r.within_run,
        .between_run = r.between_run,
        .in_turn = {r.in_turn, r.evidence.in_turn, 0, ""},
        .across = {r.across, r.evidence.across, 0, ""},
        .across_without_floor = {r.across_without_floor, r.evidence.across_without_floor, 0, ""},
        .side_by_side = process_way(r.side_by_side),
        .against = process_way(r.against),
        .across_floors = r.evidence.across_floors,
        .disturbed = r.disturbed,
        .correction = r.correction,
        .not_covered = r.not_covered,
        .not_measured = r.not_measured,
        .verdict = r.verdict,
        .counter_checks = harness::run_counter_checks(),
        .counters_unavailable = harness::hardware_counting_unavailable()};
    return s;
}

// selftest --counters: runs the checks, prints them, writes `json_path` when not empty. Exit 0
// whatever the checks find.
int counter_selftest(const std::string& json_path) {
    using harness::OutputFormat;
    const auto checks = harness::run_counter_checks();
    std::fputs(harness::render_counter_checks(checks, OutputFormat::table).c_str(), stdout);
    if (!json_path.empty())
        harness::write_output_file(json_path,
                                   harness::render_counter_checks(checks, OutputFormat::json));
    return kExitOk;
}

}  // namespace

int selftest_command(const std::vector<std::string>& args) {
    const auto parsed = parse_selftest_request(args);
    if (!parsed)
        return kExitOk;
    const SelftestRequest& request = *parsed;
    if (request.child_job)
        return harness::run_chain_job(*request.child_job);
    if (request.counters_only)
        return counter_selftest(request.json_path);

    harness::SelftestPlan plan = harness::plan_for(request.depth);
    if (request.runs)
        plan.runs = *request.runs;
    // A Ctrl-C stops the work in progress and its child processes, and their scratch files go
    // with their owners: nothing is reported (exit 128 + N).
    const harness::InterruptHandling interrupts;
    const std::string executable = own_executable();
    const auto argv = [&executable](const harness::ChainJob& job) {
        return std::vector<std::string>{executable, "selftest",
                                        "--internal-job=" + harness::chain_job_to_json(job)};
    };
    // Progress on a terminal: each phase at its own rate (a trial of one is not one of another).
    harness::TerminalProgress progress(harness::progress_wanted(request.quiet),
                                       "perfgauge selftest", say_text);
    std::string phase_now;
    double phase_started = 0;
    const harness::SelftestReport report = harness::run_selftest(
        plan, argv, [&](std::string_view phase, std::size_t done, std::size_t total) {
            if (phase != phase_now) {
                phase_now = std::string(phase);
                phase_started = progress.elapsed();
            }
            progress.update(harness::with_time_left(fmt::format("{} {}/{}", phase, done, total),
                                                    progress.elapsed() - phase_started, done,
                                                    total));
        });
    progress.clear();
    const harness::SelftestSummary summary = summary_of(report);
    std::fputs(harness::render_selftest(summary, harness::OutputFormat::table).c_str(), stdout);
    if (!request.json_path.empty())
        harness::write_output_file(request.json_path,
                                   harness::render_selftest(summary, harness::OutputFormat::json));
    if (report.not_measured.empty())
        return kExitOk;
    // Figures of a way that made no trial are not measurements: the run failed at that.
    say("perfgauge selftest: not measured: {}; fix what stopped it and run selftest again\n",
        fmt::join(report.not_measured, "; "));
    return kExitFailure;
}

}  // namespace perfgauge::cli
