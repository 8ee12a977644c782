// history's texts about series: show (run by run, change points marked), check (the gate's
// verdict per series) and compare --by machine (classes side by side).
#include <cmath>

#include <fmt/format.h>

#include "perfgauge/harness/history_text.hpp"

namespace perfgauge::harness {
namespace {

using Kind = GateVerdict::Kind;

// A share as a signed percentage: 0.123 -> "+12.3%".
std::string percent(double share) {
    return fmt::format("{:+.1f}%", 100 * share);
}

std::string show_one(const ShownSeries& s) {
    // In its unit with an SI prefix (69.18 ms/run, not 6.91757e+07 count/run); the spread in
    // the value's unit, without repeating what it is per.
    auto spread_policy = s.policy;
    spread_policy.per.clear();
    std::string out =
        fmt::format("{} [{}] on {} ({}){}\n", s.key.benchmark, s.key.metric, s.key.machine_class,
                    s.machine_summary, s.deterministic ? ", deterministic" : "");
    std::size_t next = 0;
    for (std::size_t i = 0; i < s.entries.size(); ++i) {
        const auto& e = s.entries[i];
        std::string mark;
        if (next < s.changes.size() && s.changes[next].index == i) {
            const auto& c = s.changes[next++];
            mark = fmt::format("  <- change {} [{}, {}] {}{}", percent(c.size), percent(c.size_low),
                               percent(c.size_high), c.regression ? "regression" : "improvement",
                               c.p_value > 0 ? fmt::format(" (p {:.3f})", c.p_value) : "");
        }
        auto line =
            fmt::format("  run {:>5}  {:<10}  {:>16} +- {:<10}{}", e.run_id, short_commit(e.commit),
                        format_metric_value(e.point.value, s.policy),
                        format_metric_value(e.point.spread, spread_policy), mark);
        out += line.erase(line.find_last_not_of(' ') + 1) + "\n";
    }
    return out;
}

std::string interval(const GateVerdict& v) {
    if (v.exact)
        return "exactly";
    return fmt::format("[{}, {}]", percent(v.size_low), percent(v.size_high));
}

std::string run_and_commit(const SeriesEntry& e) {
    return fmt::format("run {} ({})", e.run_id, short_commit(e.commit));
}

// The verdict of a series that moved, or might have: regression, improvement, pending,
// inconclusive.
std::string moved_text(const JudgedSeries& j, const std::string& resolves) {
    const auto& v = j.verdict;
    const auto& e = j.entries;
    const auto& newest = e.back();
    if (v.kind == Kind::regression || v.kind == Kind::improvement)
        return fmt::format("{} {} {} since {}: {} -> {} (baseline: {} runs from run {}){}",
                           v.kind == Kind::regression ? "REGRESSION" : "improvement",
                           percent(v.size), interval(v), run_and_commit(e[v.current_first]),
                           format_metric_value(v.baseline, j.policy),
                           format_metric_value(v.current, j.policy), v.baseline_runs,
                           e[v.baseline_first].run_id, resolves);
    if (v.kind == Kind::pending)
        return fmt::format(
            "pending {}: {} is beyond the band of +-{:.1f}% but one run is not yet a change "
            "point (the next run confirms it or not){}",
            percent(v.newest_size), run_and_commit(newest), 100 * v.band, resolves);
    return fmt::format(
        "inconclusive {}: {}'s own interval (+-{:.1f}%) is wider than what the series "
        "resolves (+-{:.1f}%); more repetitions, a count metric (instructions, "
        "task-clock) or run --against would decide",
        percent(v.newest_size), run_and_commit(newest), 100 * v.newest_spread, 100 * v.band);
}

std::string verdict_text(const JudgedSeries& j) {
    const auto& v = j.verdict;
    const auto& e = j.entries;
    const std::string resolves =
        v.detectable > 0 ? fmt::format("; resolves {:.1f}% within 3 runs", 100 * v.detectable) : "";
    if (v.kind == Kind::too_short)
        return fmt::format("too few runs to judge ({} since the baseline; {} needed)",
                           v.baseline_runs, v.exact ? 2 : GateOptions{}.min_baseline + 1);
    if (v.kind != Kind::unchanged)
        return moved_text(j, resolves);
    if (!v.steps.empty())
        return fmt::format(
            "unchanged {} against the baseline (its changes since run {} cancel or "
            "are below the minimum change of {:.1f}%){}",
            percent(v.size), e[v.baseline_first].run_id, 100 * j.options.min_change, resolves);
    return fmt::format("unchanged: {} {} within +-{:.1f}% of the {} runs from run {}{}",
                       run_and_commit(e.back()), percent(v.newest_size), 100 * v.band,
                       v.baseline_runs, e[v.baseline_first].run_id, resolves);
}

std::string ratio(double value, double reference) {
    return reference > 0 ? fmt::format("{:.3f}x", value / reference) : "-";
}

std::string compared_row(const ComparedBenchmark& row) {
    std::string out = fmt::format("{:<32} {:>14.6g}", row.benchmark, row.values[0]);
    for (std::size_t i = 1; i < row.values.size(); ++i)
        out += fmt::format(" {:>10}", ratio(row.values[i], row.values[0]));
    out += "\n";
    if (row.per_instruction.empty())
        return out;
    const double ref_per = *row.per_instruction[0];
    out += fmt::format("{:<32} {:>14.6g}", "  per instruction", ref_per);
    for (std::size_t i = 1; i < row.per_instruction.size(); ++i) {
        const auto& v = row.per_instruction[i];
        out += fmt::format(" {:>10}", v ? ratio(*v, ref_per) : "-");
    }
    return out + "\n";
}

}  // namespace

std::string history_show_text(const std::vector<ShownSeries>& series) {
    std::string out;
    for (const auto& s : series)
        out += show_one(s);
    return out;
}

std::string history_check_text(const CheckOutcome& o) {
    std::string out;
    for (const auto& u : o.unmeasured)
        out += fmt::format(
            "{} [{}] on {}: run {}: no clean sample, nothing to judge in it (every sample "
            "set aside as disturbed, or interrupted before one)\n",
            u.key.benchmark, u.key.metric, u.key.machine_class.substr(0, 8), u.last_run);
    for (const auto& j : o.judged)
        out += fmt::format("{} [{}] on {}: {}{}\n", j.key.benchmark, j.key.metric,
                           j.key.machine_class.substr(0, 8), verdict_text(j),
                           j.accepted
                               ? fmt::format(" [baseline accepted at {}: {}]",
                                             short_commit(j.accepted->commit), j.accepted->reason)
                               : "");
    if (o.below)
        out += fmt::format(
            "note: --min-change {:.1f}% is below what {} of the series resolve within 3 runs "
            "(their lines say how much): a change that small goes unseen there\n",
            100 * *o.min_change, o.below);
    out += fmt::format(
        "{} series checked, {} regression{}{}{}, expected false alarms <= {:.2g}\n", o.checked,
        o.regressions, o.regressions == 1 ? "" : "s",
        o.pending ? fmt::format(", {} pending", o.pending) : "",
        o.unmeasured.empty()
            ? ""
            : fmt::format(", {} with no clean sample in their latest run", o.unmeasured.size()),
        o.expected_false_alarms);
    return out;
}

std::string history_compare_text(const MachineComparison& c) {
    std::string out = "machine classes (ratios: value / the reference's; larger is slower):\n";
    for (std::size_t i = 0; i < c.classes.size(); ++i)
        out += fmt::format("  M{}  {}  {}{}\n", i, c.classes[i], c.summaries[i],
                           i == 0 ? "  (reference)" : "");
    out += fmt::format("{:<32} {:>14}", "benchmark [" + c.metric + "]", "M0");
    for (std::size_t i = 1; i < c.classes.size(); ++i)
        out += fmt::format(" {:>10}", fmt::format("M{}/M0", i));
    out += "\n";
    for (const auto& row : c.rows)
        out += compared_row(row);
    out += fmt::format("{:<32} {:>14}", "geometric mean", "");
    for (std::size_t i = 1; i < c.classes.size(); ++i)
        out += fmt::format(" {:>10}", fmt::format("{:.3f}x", c.geometric_means[i]));
    const std::size_t common = c.rows.size();
    out += fmt::format(
        "\n{} benchmark{} on every class{}\n", common, common == 1 ? "" : "s",
        c.left_out ? fmt::format(", {} left out (not measured on every class)", c.left_out) : "");
    return out;
}

}  // namespace perfgauge::harness
