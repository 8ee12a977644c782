// Rendering comparisons: console table, CSV, Markdown and JSON, each stating the thresholds
// the verdicts used; and the regression lines compare --fail-on-regression prints.
#include "perfgauge/harness/compare_report.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

namespace {

std::string source_text(const MetricComparison& m) {
    return m.source ? std::string(source_name(*m.source)) : std::string();
}

std::string format_p(const std::optional<double>& p) {
    if (!p)
        return "-";  // deterministic: no test
    return *p < 0.001 ? fmt::format("{:.1e}", *p) : fmt::format("{:.3f}", *p);
}

// Times by what they measure: "time" (wall) or "cpu-time" (user+system, stat results).
std::string time_name(const MetricComparison& m, const char* wall, const char* cpu) {
    return (m.metric == "time" ? wall : cpu) + m.per;
}

// How paired samples were compared: "log-ratio" or "difference"; "" when not paired.
const char* paired_by(const MetricComparison& m) {
    if (m.method != Method::paired && m.method != Method::paired_runs)
        return "";
    return m.log_ratio_pairs ? "log-ratio" : "difference";
}

// What a paired row's shift and interval are of: the pairs' "median" (sign-test interval) or,
// for too few paired runs to have one, their "mean" (Student's t); "" when not paired.
const char* pair_center(const MetricComparison& m) {
    if (m.method == Method::paired)
        return "median";
    if (m.method == Method::paired_runs)
        return m.run_pairs_median ? "median" : "mean";
    return "";
}

// `value` where it means something, else null.
template <typename T>
nlohmann::json value_if(bool meaningful, const T& value) {
    return meaningful ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// Both sides have a median, and the baseline's can divide: a ratio to a median of 0 or below (a
// corrected count) would say nothing, or the opposite of the interval.
bool has_ratio(const MetricComparison& m) {
    return m.baseline_samples > 0 && m.contender_samples > 0 && m.baseline_median > 0;
}

// A counter whose median is zero on both sides (page faults in a decoding loop): its row says
// nothing, so the table and Markdown leave it out and name it once (CSV and JSON keep it).
bool zero_on_both_sides(const MetricComparison& m) {
    return !m.is_time && m.baseline_samples > 0 && m.contender_samples > 0 &&
           m.baseline_median == 0 && m.contender_median == 0 && m.verdict != Verdict::lower &&
           m.verdict != Verdict::higher;
}

// The metric as the table's METRIC column names it.
std::string metric_label(const MetricComparison& m) {
    return m.is_time ? time_name(m, "time/", "cpu-time/")
                     : fmt::format("{}/{} [{}]", m.metric, m.per, source_text(m));
}

// The simulated miss counts of `b` that point against its measured time (simulation_disagrees).
bool disagrees_with_time(const BenchmarkComparison& b, const MetricComparison& m) {
    if (m.is_time || !m.source || b.metrics.empty() || !b.metrics.front().is_time)
        return false;
    return simulation_disagrees(b.metrics.front().verdict, m.metric, *m.source, m.baseline_median,
                                m.contender_median);
}

std::vector<std::string> cells(const BenchmarkComparison& b, const MetricComparison& m) {
    // A side without a sample has no median ("-", not 0).
    const auto median_text = [&](double median, std::size_t samples) -> std::string {
        if (samples == 0)
            return "-";
        return m.is_time ? format_duration_ns(median) : format_si(median);
    };
    return {b.name,
            metric_label(m),
            median_text(m.baseline_median, m.baseline_samples),
            median_text(m.contender_median, m.contender_samples),
            has_ratio(m) ? fmt::format("{:.3f}{}", m.ratio, medians_disagree(m) ? "^" : "") : "-",
            change_text(m),
            interval_text(m),
            format_p(m.p_value),
            verdict_text(m) + (disagrees_with_time(b, m) ? " *" : "")};
}

// The rows the table and Markdown show, and under them, said once: the counters left out for
// being zero on both sides, and the simulation caveat when a row carries its mark.
struct ShownRows {
    std::vector<std::pair<const BenchmarkComparison*, const MetricComparison*>> rows;
    std::vector<std::string> notes;
};

ShownRows shown_rows(const Comparison& c) {
    ShownRows shown;
    std::vector<std::string> zero;     // metric labels, in order of first appearance
    std::vector<std::string> medians;  // rows whose medians say otherwise than their pairs
    std::size_t zero_rows = 0;
    bool disagreement = false;
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            if (zero_on_both_sides(m)) {
                ++zero_rows;
                if (std::find(zero.begin(), zero.end(), metric_label(m)) == zero.end())
                    zero.push_back(metric_label(m));
                continue;
            }
            disagreement = disagreement || disagrees_with_time(b, m);
            if (medians_disagree(m)) {
                medians.push_back(fmt::format("{} {} (medians {:.3f})", b.name, metric_label(m),
                                              m.contender_median / m.baseline_median));
            }
            shown.rows.emplace_back(&b, &m);
        }
    }
    if (!medians.empty()) {
        constexpr std::size_t kNamed = 8;
        const std::size_t more = medians.size() > kNamed ? medians.size() - kNamed : 0;
        medians.resize(std::min(medians.size(), kNamed));
        shown.notes.push_back(fmt::format(
            "^ paired: RATIO, CHANGE, CI and VERDICT are the pairs' change (the median of the "
            "per-round or per-run ratios; of the differences for counts), and the ratio of the "
            "medians beside them lies outside its interval: the rounds differ more than the two "
            "sides do, so the medians of each side alone say otherwise: {}{}",
            fmt::join(medians, "; "), more > 0 ? fmt::format("; and {} more", more) : ""));
    }
    if (zero_rows > 0) {
        shown.notes.push_back(fmt::format(
            "left out: {} row{} zero on both sides ({}); the CSV and JSON formats keep them",
            zero_rows, zero_rows == 1 ? "" : "s", fmt::join(zero, ", ")));
    }
    if (disagreement)
        shown.notes.push_back("* " + simulation_caveat_text());
    return shown;
}

// The rules the verdicts followed, with the thresholds actually used, so a reader never assumes
// the defaults.
std::string thresholds_text(const CompareOptions& o) {
    return fmt::format(
        "CI = {:g}% interval of the change (paired per round within one result; across runs "
        "taken in turn, the median of the pairs of runs' ratios of medians (differences for "
        "counts) with its sign-test interval, Student's t over the mean below {} pairs; across "
        "other results Hodges-Lehmann and batch means over blocks of consecutive samples, widened "
        "by the blocks' spread and {}); faster/slower (fewer/more) when it lies beyond the "
        "threshold, equivalent when within, inconclusive otherwise; threshold = the "
        "largest of {:g}% of the baseline, the counter's floor per item ({:g} for "
        "instructions/cycles/branches, {:g} for misses and accesses, {:g} for switches/faults) "
        "and, across results for a side too short for two blocks, its IQR (then never "
        "equivalent); "
        "simulated counts compared exactly (no P); at least {} samples a side",
        100 * (1 - o.alpha), std::max(min_sign_test_pairs(1 - o.alpha), kMinPairedRuns),
        o.between_run_floor > 0
            ? fmt::format("for times, instead, the between-run floor of {:.2f}% (--floor) in "
                          "quadrature",
                          100 * o.between_run_floor)
            : std::string("the machine probes' drift"),
        o.min_change * 100, o.min_work_delta, o.min_miss_delta, o.min_rare_delta, o.min_samples);
}

// Benchmark and metric names left, numbers right, the verdict left.
TextTable comparison_table(const std::vector<std::string>& headers) {
    std::vector<TextTable::Align> align(headers.size(), TextTable::Align::right);
    align[0] = align[1] = align.back() = TextTable::Align::left;
    return TextTable(headers, align);
}

// What the ratio and P columns of the table and Markdown mean (the rest: thresholds_text).
std::string ratio_legend() {
    return "BASELINE, CONTENDER = medians (paired rows: of the rounds both sides kept, so they "
           "may differ from a run table's, which takes every sample kept); "
           "RATIO = contender / baseline medians, except on paired rows (one result's variants "
           "or commands, runs taken in turn): there the pairs' change, which the CI is "
           "about - the median of the per-round ratios of times (geometric mean over fewer "
           "than 6 pairs of runs), 1 + the pairs' median difference / the baseline for counts - "
           "which is not the ratio of the medians (^ marks a row where the two disagree); CI "
           "relative to the baseline's median, on the ratio scale where every value is "
           "positive (never below -100%); P = two-sided Mann-Whitney U (for reference)";
}

std::string render_table(const Comparison& c) {
    auto table = comparison_table(
        {"BENCHMARK", "METRIC", "BASELINE", "CONTENDER", "RATIO", "CHANGE", "CI", "P", "VERDICT"});
    const ShownRows shown = shown_rows(c);
    for (const auto& [b, m] : shown.rows)
        table.add_row(cells(*b, *m));
    std::string out =
        fmt::format("baseline: {}\ncontender: {}\n", c.baseline_label, c.contender_label);
    out += table.render();
    out += ratio_legend() + "; " + thresholds_text(c.options) + "\n";
    for (const auto& n : shown.notes)
        out += n + "\n";
    for (const auto& n : c.notes)
        out += fmt::format("note: {}\n", n);
    return out;
}

std::string render_csv(const Comparison& c) {
    TextTable table({"benchmark", "metric", "baseline_median", "contender_median", "ratio",
                     "change_pct", "hodges_lehmann_shift", "p_value", "baseline_samples",
                     "contender_samples", "verdict", "source", "ci_low", "ci_high", "threshold",
                     "method", "paired_by", "shift", "run_pairs"});
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            table.add_row(
                {b.name, m.is_time ? time_name(m, "ns_per_", "cpu_ns_per_") : m.metric,
                 m.baseline_samples ? fmt::format("{}", m.baseline_median) : "",
                 m.contender_samples ? fmt::format("{}", m.contender_median) : "",
                 has_ratio(m) ? fmt::format("{}", m.ratio) : "",
                 has_ratio(m) ? fmt::format("{}", m.change_pct) : "", fmt::format("{}", m.shift),
                 m.p_value ? fmt::format("{}", *m.p_value) : "", std::to_string(m.baseline_samples),
                 std::to_string(m.contender_samples), verdict_text(m), source_text(m),
                 fmt::format("{}", m.ci_low), fmt::format("{}", m.ci_high),
                 fmt::format("{}", m.threshold), method_name(m.method), paired_by(m),
                 fmt::format("{}", m.shift), std::to_string(m.run_pairs)});
        }
    }
    return table.render_csv();
}

std::string render_markdown(const Comparison& c) {
    std::string out =
        fmt::format("Baseline: `{}` · contender: `{}`\n\n", c.baseline_label, c.contender_label);
    auto table = comparison_table(
        {"benchmark", "metric", "baseline", "contender", "ratio", "change", "ci", "p", "verdict"});
    const ShownRows shown = shown_rows(c);
    for (const auto& [b, m] : shown.rows) {
        auto row = cells(*b, *m);
        if (m->verdict == Verdict::lower || m->verdict == Verdict::higher)
            row.back() = "**" + row.back() + "**";
        table.add_row(std::move(row));
    }
    out += table.render_markdown();
    out += "\n" + ratio_legend() + "; " + thresholds_text(c.options) + ".\n";
    for (const auto& n : shown.notes)
        out += "\n" + n + "\n";
    for (const auto& n : c.notes)
        out += fmt::format("\n- {}", n);
    if (!c.notes.empty())
        out += "\n";
    return out;
}

std::string render_json(const Comparison& c) {
    nlohmann::json j;
    j[kSchemaVersionKey] = kResultSchemaVersion;
    j["baseline"] = c.baseline_label;
    j["contender"] = c.contender_label;
    j["notes"] = c.notes;
    j["thresholds"] = {{"alpha", c.options.alpha},
                       {"min_change", c.options.min_change},
                       {"min_work_delta_per_item", c.options.min_work_delta},
                       {"min_miss_delta_per_item", c.options.min_miss_delta},
                       {"min_rare_delta_per_item", c.options.min_rare_delta},
                       {"min_samples", c.options.min_samples},
                       {"between_run_floor",
                        value_if(c.options.between_run_floor > 0, c.options.between_run_floor)}};
    j["machine_drift"] =
        c.machine_drift ? nlohmann::json(*c.machine_drift) : nlohmann::json(nullptr);
    j["paired_runs"] = c.paired_runs;
    j["benchmarks"] = nlohmann::json::array();
    for (const auto& b : c.benchmarks) {
        nlohmann::json e{{"name", b.name}, {"baseline", b.baseline}, {"contender", b.contender}};
        e["metrics"] = nlohmann::json::array();
        for (const auto& m : b.metrics) {
            e["metrics"].push_back(
                {{"metric", m.is_time ? time_name(m, "ns_per_", "cpu_ns_per_") : m.metric},
                 {"source", source_text(m)},
                 {"baseline_median", value_if(m.baseline_samples > 0, m.baseline_median)},
                 {"contender_median", value_if(m.contender_samples > 0, m.contender_median)},
                 {"ratio", value_if(has_ratio(m), m.ratio)},
                 {"ratio_of", ratio_of(m)},
                 {"medians_ratio",
                  value_if(has_ratio(m), m.contender_median / std::fabs(m.baseline_median))},
                 {"ratio_scale", m.ratio_scale},
                 {"change_pct", value_if(has_ratio(m), m.change_pct)},
                 {"shift", m.shift},
                 {"hodges_lehmann_shift", m.shift},
                 {"p_value", m.p_value ? nlohmann::json(*m.p_value) : nlohmann::json(nullptr)},
                 {"method", method_name(m.method)},
                 {"ci_low", m.ci_low},
                 {"ci_high", m.ci_high},
                 {"confidence", m.confidence},
                 {"threshold", m.threshold},
                 {"baseline_samples", m.baseline_samples},
                 {"contender_samples", m.contender_samples},
                 {"baseline_blocks", m.baseline_blocks},
                 {"contender_blocks", m.contender_blocks},
                 {"run_pairs", m.run_pairs},
                 {"between_run_sd", value_if(m.between_run_sd > 0, m.between_run_sd)},
                 {"paired_by", value_if(*paired_by(m) != '\0', paired_by(m))},
                 {"pair_center", value_if(*pair_center(m) != '\0', pair_center(m))},
                 {"verdict", verdict_text(m)}});
        }
        j["benchmarks"].push_back(e);
    }
    return json_text(j);
}

}  // namespace

std::string verdict_text(const MetricComparison& m) {
    switch (m.verdict) {
        case Verdict::lower:
            return m.is_time ? "faster" : "fewer";
        case Verdict::higher:
            return m.is_time ? "slower" : "more";
        case Verdict::equivalent:
            // Relative when that reads naturally; a floor far above a tiny median reads better
            // as the absolute floor per item.
            if (m.baseline_median != 0 && m.threshold <= std::fabs(m.baseline_median))
                return fmt::format("equivalent (±{:.1f}%)",
                                   100 * m.threshold / std::fabs(m.baseline_median));
            return fmt::format("equivalent (±{:g}/{})", m.threshold, m.per);
        case Verdict::inconclusive:
            return "inconclusive";
        case Verdict::too_few_samples:
            return "too few samples";
    }
    return "?";
}

std::string change_text(const MetricComparison& m) {
    if (m.baseline_samples == 0 || m.contender_samples == 0)
        return "-";
    if (m.is_time && !has_ratio(m))
        return "-";
    const std::string per = "/" + m.per;
    // A baseline below the smallest change that counts is near zero: a share of it
    // (+333320% for 0.00005 -> 0.167 branch-misses) says nothing; the difference does.
    if (!(m.baseline_median > 0) || std::fabs(m.baseline_median) < m.threshold) {
        return m.shift == 0 ? "none" : fmt::format("{:+.3g}{} from ~0", m.shift, per);
    }
    // The same to near zero: "23400x fewer" for 0.936 -> 0.00004 would overstate a floor.
    if (!m.is_time && std::fabs(m.contender_median) < m.threshold)
        return fmt::format("{:+.3g}{} to ~0", m.shift, per);
    const char* less = m.is_time ? "faster" : "fewer";
    const char* more = m.is_time ? "slower" : "more";
    const auto factor = [](double f) {
        return f >= 100 ? fmt::format("{:.0f}x", f)
               : f >= 2 ? fmt::format("{:.1f}x", f)
                        : fmt::format("{:.2f}x", f);
    };
    if (m.ratio >= 1.5)
        return factor(m.ratio) + " " + more;
    if (m.ratio > 0 && m.ratio <= 1 / 1.5)
        return factor(1 / m.ratio) + " " + less;
    if (m.change_pct == 0)
        return "none";
    return fmt::format("{:.1f}% {}", std::fabs(m.change_pct), m.change_pct < 0 ? less : more);
}

std::string interval_text(const MetricComparison& m) {
    if (m.method == Method::deterministic)
        return "exact";
    if (m.verdict == Verdict::too_few_samples || m.baseline_median == 0)
        return "-";
    return fmt::format("[{:+.1f}%, {:+.1f}%]", 100 * m.ci_low / std::fabs(m.baseline_median),
                       100 * m.ci_high / std::fabs(m.baseline_median));
}

std::string render_comparison(const Comparison& c, OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
            return render_table(c);
        case OutputFormat::csv:
            return render_csv(c);
        case OutputFormat::json:
            return render_json(c);
        case OutputFormat::markdown:
            return render_markdown(c);
        case OutputFormat::bmf:
        case OutputFormat::answer:
            break;
    }
    no_writer("a comparison", format);
}

std::vector<std::string> regressions(const Comparison& c, double pct) {
    std::vector<std::string> out;
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            // Wall time per item/run: the number a regression gate is about (CPU time, shown
            // beside it for stat results, explains it but is not a second gate).
            if (m.is_time && m.metric == "time" && m.verdict == Verdict::higher &&
                m.change_pct > pct) {
                out.push_back(fmt::format("{}: {:+.1f}% time per {} (p = {})", b.name, m.change_pct,
                                          m.per, format_p(m.p_value)));
            }
        }
    }
    return out;
}

}  // namespace perfgauge::harness
