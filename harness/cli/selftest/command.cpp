// perfgauge selftest [--quick | --thorough] [--runs N] [--json FILE]
// perfgauge selftest --counters [--json FILE]
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/selftest.hpp"
#include "perfgauge/harness/terminal_progress.hpp"
#include "perfgauge/harness/text_table.hpp"
#include "registry.hpp"
#include "selftest/counters.hpp"
#include "selftest/options.hpp"

namespace perfgauge::cli {

namespace {

using harness::Rate;
using harness::SelftestReport;

nlohmann::json number_or_null(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json rate_json(const Rate& r) {
    return {{"hits", r.hits},
            {"trials", r.trials},
            {"share", number_or_null(r.share())},
            {"low95", number_or_null(r.low())},
            {"high95", number_or_null(r.high())}};
}

// How many trials ended with each verdict: what a miss was (inconclusive, too few samples, or
// a wrong answer).
nlohmann::json verdicts_json(const std::vector<harness::Verdict>& verdicts) {
    using harness::Verdict;
    const auto count = [&verdicts](Verdict v) {
        return std::count(verdicts.begin(), verdicts.end(), v);
    };
    return {{"faster", count(Verdict::lower)},
            {"slower", count(Verdict::higher)},
            {"equivalent", count(Verdict::equivalent)},
            {"inconclusive", count(Verdict::inconclusive)},
            {"too_few_samples", count(Verdict::too_few_samples)}};
}

nlohmann::json resolution_json(const harness::ResolutionFigures& f,
                               const harness::ComparisonTrials& trials) {
    nlohmann::json power = nlohmann::json::array();
    for (std::size_t i = 0; i < f.power.size(); ++i) {
        const auto& p = f.power[i];
        power.push_back({{"change_pct", p.change_pct},
                         {"detected", rate_json(p.detected)},
                         {"verdicts", i < trials.changes.size() ? verdicts_json(trials.changes[i])
                                                                : nlohmann::json::object()}});
    }
    const auto& methods = trials.methods;
    return {{"methods", methods},
            {"aa_verdicts", verdicts_json(trials.aa)},
            {"aa_false_positives", rate_json(f.false_positives)},
            {"too_few_samples", rate_json(f.too_few_samples)},
            {"power", power},
            {"smallest_change_pct", f.smallest_change_pct ? nlohmann::json(*f.smallest_change_pct)
                                                          : nlohmann::json(nullptr)}};
}

// A way across processes: as resolution_json, and why it stopped early (null: it did not).
nlohmann::json process_json(const harness::ProcessFigures& way) {
    nlohmann::json j = resolution_json(way.figures, way.measured.trials);
    j["seconds"] = way.measured.seconds;
    j["stopped_early"] = way.measured.failure.empty() ? nlohmann::json(nullptr)
                                                      : nlohmann::json(way.measured.failure);
    return j;
}

nlohmann::json spread_json(const harness::Spread& s) {
    return {
        {"count", s.count}, {"median", number_or_null(s.median)}, {"p90", number_or_null(s.p90)}};
}

nlohmann::json report_json(const SelftestReport& r) {
    const auto& c = r.correction;
    double worst_share = 0;
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : c.rows) {
        rows.push_back({{"k", row.k},
                        {"reference_ns", number_or_null(row.reference_ns)},
                        {"error_ns", number_or_null(row.error_ns)},
                        {"tolerance_ns", number_or_null(harness::correction_tolerance_ns(row))},
                        {"spread_ns", row.spread_ns},
                        {"pairs", row.pairs},
                        {"pass", harness::correction_passes(row)}});
        const double share = std::fabs(harness::correction_error_share(row));
        if (std::isfinite(share))
            worst_share = std::max(worst_share, share);
    }
    return {
        {harness::kSchemaVersionKey, harness::kResultSchemaVersion},
        {"depth", harness::depth_name(r.plan.depth)},
        {"runs", r.plan.runs},
        {"base_operations", r.plan.base_operations},
        {"changes_pct", r.plan.changes_pct},
        {"power_target", r.plan.power},
        {"min_change", r.plan.compare.min_change},
        {"seconds", r.seconds},
        {"noise_floor",
         {{"within_run", spread_json(r.within_run)}, {"between_runs", spread_json(r.between_run)}}},
        {"in_turn", resolution_json(r.in_turn, r.evidence.in_turn)},
        {"across_runs", resolution_json(r.across, r.evidence.across)},
        {"across_runs_without_floor",
         resolution_json(r.across_without_floor, r.evidence.across_without_floor)},
        {"stat_side_by_side", process_json(r.side_by_side)},
        {"run_against", process_json(r.against)},
        {"processes",
         {{"side_by_side_trials", r.plan.processes.side_by_side_trials},
          {"side_by_side_rounds", r.plan.processes.side_by_side_rounds},
          {"side_by_side_iterations", r.side_by_side_iterations},
          {"against_trials", r.plan.processes.against_trials},
          {"against_pairs", r.plan.processes.against_pairs},
          {"against_max_pairs", r.plan.processes.against_max_pairs}}},
        {"disturbed_samples", rate_json(r.disturbed)},
        {"correction_check",
         {{"events", c.events},
          {"rows", rows},
          {"pass", c.passes()},
          {"worst_error_share", worst_share}}},
        {"not_covered", r.not_covered},
        {"not_measured", r.not_measured},
        {"verdict", r.verdict}};
}

std::string pct(double share, int digits = 1) {
    return std::isfinite(share) ? fmt::format("{:.{}f}%", 100 * share, digits) : "-";
}

std::string rate_text(const Rate& r) {
    if (r.trials == 0)
        return "- (no trial)";
    return fmt::format("{}/{} = {} (95%: {}-{})", r.hits, r.trials, pct(r.share(), 0),
                       pct(r.low(), 0), pct(r.high(), 0));
}

// In the table, where four ways stand side by side: "38/40 (83-99%)".
std::string rate_cell(const Rate& r) {
    if (r.trials == 0)
        return "-";
    return fmt::format("{}/{} ({:.0f}-{})", r.hits, r.trials, 100 * r.low(), pct(r.high(), 0));
}

// "5%", or "5% (2 trials)" where so few trials cannot make a 95% rate (every one found it).
std::string smallest_text(const harness::ResolutionFigures& f) {
    std::string text =
        f.smallest_change_pct ? fmt::format("{:g}%", *f.smallest_change_pct) : "none of these";
    const std::size_t trials = f.false_positives.trials;
    if (trials < harness::kTrialsForARate)
        text += fmt::format(" ({} trial{})", trials, trials == 1 ? "" : "s");
    return text;
}

// Appends to `out`, formatted.
template <class... Args>
void add(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

// How the trials across runs were floored: each with the median between-run movement of the
// other trials' runs (compare --floor), never its own.
std::string floor_text(const std::vector<double>& floors) {
    std::vector<double> used;
    std::copy_if(floors.begin(), floors.end(), std::back_inserter(used),
                 [](double f) { return f > 0; });
    if (used.empty())
        return "(across runs: too few trials for a between-run floor, compared as compare A.json "
               "B.json compares: the (NO --FLOOR) column)";
    std::sort(used.begin(), used.end());
    return fmt::format(
        "(across runs: each trial compared with --floor, the median between-run movement of the "
        "other trials' runs, {} to {}; (NO --FLOOR): the same trials as compare A.json B.json "
        "compares them: batch means, the blocks' spread and the machine probes' drift)",
        pct(used.front(), 2), pct(used.back(), 2));
}

// Every way of comparing in a column: A/A, each change, the smallest found, too few samples.
std::string ways_table(const SelftestReport& r) {
    using Align = harness::TextTable::Align;
    const std::vector<const harness::ResolutionFigures*> ways = {
        &r.in_turn, &r.across, &r.across_without_floor, &r.side_by_side.figures,
        &r.against.figures};
    harness::TextTable table(
        {"", "IN TURN", "ACROSS RUNS", "(NO --FLOOR)", "STAT SIDE BY SIDE", "RUN --AGAINST"},
        {Align::left, Align::right, Align::right, Align::right, Align::right, Align::right});
    const auto row = [&](std::string label, const auto& cell) {
        std::vector<std::string> cells = {std::move(label)};
        for (const auto* way : ways)
            cells.push_back(cell(*way));
        table.add_row(cells);
    };
    row("A/A called different",
        [](const harness::ResolutionFigures& f) { return rate_cell(f.false_positives); });
    for (std::size_t i = 0; i < r.plan.changes_pct.size(); ++i) {
        row(fmt::format("{} found (slower)", harness::change_label(r.plan.changes_pct[i])),
            [i](const harness::ResolutionFigures& f) {
                return i < f.power.size() ? rate_cell(f.power[i].detected) : "-";
            });
    }
    row(fmt::format("smallest found in {:.0f}%", 100 * r.plan.power),
        [](const harness::ResolutionFigures& f) {
            return f.false_positives.trials == 0 ? std::string("-") : smallest_text(f);
        });
    row("too few clean samples",
        [](const harness::ResolutionFigures& f) { return rate_cell(f.too_few_samples); });
    return table.render();
}

std::string render(const SelftestReport& r) {
    std::string out;
    add(out,
        "perfgauge selftest ({}: {} runs of a chain of {} dependent multiply-adds, {:.0f} s)\n\n",
        harness::depth_name(r.plan.depth), r.plan.runs, r.plan.base_operations, r.seconds);
    add(out,
        "noise floor: identical work's medians moved {} within a run (90%: {}), {} between "
        "runs (90%: {})\n",
        pct(r.within_run.median, 2), pct(r.within_run.p90, 2), pct(r.between_run.median, 2),
        pct(r.between_run.p90, 2));
    add(out, "disturbed samples: {}\n\n", rate_text(r.disturbed));

    add(out, "{}", ways_table(r));
    const auto methods = [](const harness::ComparisonTrials& t) {
        return t.methods.empty() ? std::string("-") : fmt::format("{}", fmt::join(t.methods, ", "));
    };
    add(out,
        "(compare's threshold: {:g}%; 95% intervals in parentheses; methods: in turn {}, across "
        "runs {}, side by side {}, run --against {})\n",
        100 * r.plan.compare.min_change, methods(r.evidence.in_turn), methods(r.evidence.across),
        methods(r.side_by_side.measured.trials), methods(r.against.measured.trials));
    add(out, "{}\n", floor_text(r.evidence.across_floors));
    const auto& p = r.plan.processes;
    add(out,
        "(stat side by side: {} trials of {} rounds, each process the chain {} times, timed "
        "whole, {:.0f} s; run --against: {})\n\n",
        p.side_by_side_trials, p.side_by_side_rounds, r.side_by_side_iterations,
        r.side_by_side.measured.seconds,
        p.against_trials == 0
            ? std::string("not at this depth")
            : fmt::format("{} trials, {} to {} pairs of processes per work, {:.0f} s",
                          p.against_trials, p.against_pairs, p.against_max_pairs,
                          r.against.measured.seconds));

    const auto& c = r.correction;
    std::vector<std::string> rows;
    for (const auto& row : c.rows) {
        rows.push_back(row.pairs == 0
                           ? fmt::format("k={}: no pair", row.k)
                           : fmt::format("k={}: {:+.2f} ns (±{:.2f} ns{}: {})", row.k, row.error_ns,
                                         harness::correction_tolerance_ns(row),
                                         harness::held_to_spread(row) ? ", the pair's spread" : "",
                                         harness::correction_passes(row) ? "ok" : "FAIL"));
    }
    add(out, "correction check (seed 000, {}, no counters; perfgauge calibrate for more): {}; {}\n",
        r.plan.depth == harness::SelftestDepth::thorough ? "whole sweep" : "short",
        c.passes() ? "pass" : "FAIL", fmt::join(rows, ", "));
    for (const auto& what : r.not_covered)
        add(out, "not covered: {}\n", what);
    for (const auto& what : r.not_measured)
        add(out, "not measured: {}\n", what);
    add(out, "\n{}\n", r.verdict);
    return out;
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
    const SelftestReport report = harness::run_selftest(
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
    nlohmann::json json = report_json(report);
    std::fputs((render(report) + "\n" + counter_section(json)).c_str(), stdout);
    if (!request.json_path.empty())
        harness::write_output_file(request.json_path, harness::json_text(json));
    if (report.not_measured.empty())
        return kExitOk;
    // Figures of a way that made no trial are not measurements: the run failed at that.
    say("perfgauge selftest: not measured: {}; fix what stopped it and run selftest again\n",
        fmt::join(report.not_measured, "; "));
    return kExitFailure;
}

}  // namespace perfgauge::cli
