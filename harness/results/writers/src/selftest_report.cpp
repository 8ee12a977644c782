#include "perfgauge/harness/selftest_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

namespace {

std::string counter_lines(const std::vector<CounterCheck>& checks) {
    std::string out;
    for (const auto& c : checks)
        out += fmt::format("{:<12}{}: {}\n", verdict_name(c.verdict), c.name, c.detail);
    return out;
}

nlohmann::json checks_json(const std::vector<CounterCheck>& checks) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : checks) {
        list.push_back({{"name", c.name},
                        {"verdict", verdict_name(c.verdict)},
                        {"measured", number_or_null(c.measured)},
                        {"expected", number_or_null(c.expected)},
                        {"unit", c.unit},
                        {"detail", c.detail}});
    }
    return list;
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
nlohmann::json verdicts_json(const std::vector<Verdict>& verdicts) {
    const auto count = [&verdicts](Verdict v) {
        return std::count(verdicts.begin(), verdicts.end(), v);
    };
    return {{"faster", count(Verdict::lower)},
            {"slower", count(Verdict::higher)},
            {"equivalent", count(Verdict::equivalent)},
            {"inconclusive", count(Verdict::inconclusive)},
            {"too_few_samples", count(Verdict::too_few_samples)}};
}

nlohmann::json resolution_json(const ResolutionFigures& f, const ComparisonTrials& trials) {
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
            {"smallest_change_pct", number_or_null(f.smallest_change_pct)}};
}

// A way across processes: as resolution_json, and why it stopped early (null: it did not).
nlohmann::json process_json(const SelftestWay& way) {
    nlohmann::json j = resolution_json(way.figures, way.trials);
    j["seconds"] = way.seconds;
    j["stopped_early"] =
        way.stopped_early.empty() ? nlohmann::json(nullptr) : nlohmann::json(way.stopped_early);
    return j;
}

nlohmann::json spread_json(const Spread& s) {
    return {
        {"count", s.count}, {"median", number_or_null(s.median)}, {"p90", number_or_null(s.p90)}};
}

nlohmann::json report_json(const SelftestSummary& r) {
    const auto& c = r.correction;
    double worst_share = 0;
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : c.rows) {
        rows.push_back({{"k", row.k},
                        {"reference_ns", number_or_null(row.reference_ns)},
                        {"error_ns", number_or_null(row.error_ns)},
                        {"tolerance_ns", number_or_null(correction_tolerance_ns(row))},
                        {"spread_ns", row.spread_ns},
                        {"pairs", row.pairs},
                        {"pass", correction_passes(row)}});
        const double share = std::fabs(correction_error_share(row));
        if (std::isfinite(share))
            worst_share = std::max(worst_share, share);
    }
    return {
        {kSchemaVersionKey, kResultSchemaVersion},
        {"depth", r.depth},
        {"runs", r.runs},
        {"base_operations", r.base_operations},
        {"changes_pct", r.changes_pct},
        {"power_target", r.power},
        {"min_change", r.min_change},
        {"seconds", r.seconds},
        {"noise_floor",
         {{"within_run", spread_json(r.within_run)}, {"between_runs", spread_json(r.between_run)}}},
        {"in_turn", resolution_json(r.in_turn.figures, r.in_turn.trials)},
        {"across_runs", resolution_json(r.across.figures, r.across.trials)},
        {"across_runs_without_floor",
         resolution_json(r.across_without_floor.figures, r.across_without_floor.trials)},
        {"stat_side_by_side", process_json(r.side_by_side)},
        {"run_against", process_json(r.against)},
        {"processes",
         {{"side_by_side_trials", r.side_by_side_trials},
          {"side_by_side_rounds", r.side_by_side_rounds},
          {"side_by_side_iterations", r.side_by_side_iterations},
          {"against_trials", r.against_trials},
          {"against_pairs", r.against_pairs},
          {"against_max_pairs", r.against_max_pairs}}},
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
std::string smallest_text(const ResolutionFigures& f) {
    std::string text =
        f.smallest_change_pct ? fmt::format("{:g}%", *f.smallest_change_pct) : "none of these";
    const std::size_t trials = f.false_positives.trials;
    if (trials < kTrialsForARate)
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
std::string ways_table(const SelftestSummary& r) {
    using Align = TextTable::Align;
    const std::vector<const ResolutionFigures*> ways = {
        &r.in_turn.figures, &r.across.figures, &r.across_without_floor.figures,
        &r.side_by_side.figures, &r.against.figures};
    TextTable table(
        {"", "IN TURN", "ACROSS RUNS", "(NO --FLOOR)", "STAT SIDE BY SIDE", "RUN --AGAINST"},
        {Align::left, Align::right, Align::right, Align::right, Align::right, Align::right});
    const auto row = [&](std::string label, const auto& cell) {
        std::vector<std::string> cells = {std::move(label)};
        for (const auto* way : ways)
            cells.push_back(cell(*way));
        table.add_row(cells);
    };
    row("A/A called different",
        [](const ResolutionFigures& f) { return rate_cell(f.false_positives); });
    for (std::size_t i = 0; i < r.changes_pct.size(); ++i) {
        row(fmt::format("{} found (slower)", change_label(r.changes_pct[i])),
            [i](const ResolutionFigures& f) {
                return i < f.power.size() ? rate_cell(f.power[i].detected) : "-";
            });
    }
    row(fmt::format("smallest found in {:.0f}%", 100 * r.power), [](const ResolutionFigures& f) {
        return f.false_positives.trials == 0 ? std::string("-") : smallest_text(f);
    });
    row("too few clean samples",
        [](const ResolutionFigures& f) { return rate_cell(f.too_few_samples); });
    return table.render();
}

std::string selftest_table(const SelftestSummary& r) {
    std::string out;
    add(out,
        "perfgauge selftest ({}: {} runs of a chain of {} dependent multiply-adds, {:.0f} s)\n\n",
        r.depth, r.runs, r.base_operations, r.seconds);
    add(out,
        "noise floor: identical work's medians moved {} within a run (90%: {}), {} between "
        "runs (90%: {})\n",
        pct(r.within_run.median, 2), pct(r.within_run.p90, 2), pct(r.between_run.median, 2),
        pct(r.between_run.p90, 2));
    add(out, "disturbed samples: {}\n\n", rate_text(r.disturbed));

    add(out, "{}", ways_table(r));
    const auto methods = [](const ComparisonTrials& t) {
        return t.methods.empty() ? std::string("-") : fmt::format("{}", fmt::join(t.methods, ", "));
    };
    add(out,
        "(compare's threshold: {:g}%; 95% intervals in parentheses; methods: in turn {}, across "
        "runs {}, side by side {}, run --against {})\n",
        100 * r.min_change, methods(r.in_turn.trials), methods(r.across.trials),
        methods(r.side_by_side.trials), methods(r.against.trials));
    add(out, "{}\n", floor_text(r.across_floors));
    add(out,
        "(stat side by side: {} trials of {} rounds, each process the chain {} times, timed "
        "whole, {:.0f} s; run --against: {})\n\n",
        r.side_by_side_trials, r.side_by_side_rounds, r.side_by_side_iterations,
        r.side_by_side.seconds,
        r.against_trials == 0
            ? std::string("not at this depth")
            : fmt::format("{} trials, {} to {} pairs of processes per work, {:.0f} s",
                          r.against_trials, r.against_pairs, r.against_max_pairs,
                          r.against.seconds));

    const auto& c = r.correction;
    std::vector<std::string> rows;
    for (const auto& row : c.rows) {
        rows.push_back(row.pairs == 0
                           ? fmt::format("k={}: no pair", row.k)
                           : fmt::format("k={}: {:+.2f} ns (±{:.2f} ns{}: {})", row.k, row.error_ns,
                                         correction_tolerance_ns(row),
                                         held_to_spread(row) ? ", the pair's spread" : "",
                                         correction_passes(row) ? "ok" : "FAIL"));
    }
    add(out, "correction check (seed 000, {}, no counters; perfgauge calibrate for more): {}; {}\n",
        r.whole_sweep ? "whole sweep" : "short", c.passes() ? "pass" : "FAIL",
        fmt::join(rows, ", "));
    for (const auto& what : r.not_covered)
        add(out, "not covered: {}\n", what);
    for (const auto& what : r.not_measured)
        add(out, "not measured: {}\n", what);
    add(out, "\n{}\n", r.verdict);
    return out;
}

// The counter section of the default selftest: the checks when a hardware event opens here,
// else one line saying why they were not run.
std::string counter_section(const SelftestSummary& r) {
    if (r.counters_unavailable) {
        return fmt::format(
            "counter checks: unavailable, no hardware event opens here: {} "
            "(perfgauge selftest --counters: each check)\n",
            *r.counters_unavailable);
    }
    return "counter checks (perfgauge selftest --counters: these alone):\n" +
           counter_lines(r.counter_checks);
}

}  // namespace

std::string render_selftest(const SelftestSummary& summary, OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
            return selftest_table(summary) + "\n" + counter_section(summary);
        case OutputFormat::json: {
            nlohmann::json j = report_json(summary);
            j["counter_checks"] = checks_json(summary.counter_checks);
            return json_text(j);
        }
        case OutputFormat::csv:
        case OutputFormat::markdown:
        case OutputFormat::bmf:
        case OutputFormat::answer:
            break;
    }
    no_writer("selftest's report", format);
}

std::string render_counter_checks(const std::vector<CounterCheck>& checks, OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
            return "perfgauge selftest --counters (loops of known work, counted)\n\n" +
                   counter_lines(checks);
        case OutputFormat::json:
            return json_text(
                {{kSchemaVersionKey, kResultSchemaVersion}, {"checks", checks_json(checks)}});
        case OutputFormat::csv:
        case OutputFormat::markdown:
        case OutputFormat::bmf:
        case OutputFormat::answer:
            break;
    }
    no_writer("selftest --counters' report", format);
}

}  // namespace perfgauge::harness
