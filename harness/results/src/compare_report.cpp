// Rendering comparisons: console table, CSV, Markdown and JSON, each stating the thresholds
// the verdicts used; and the regression lines compare --fail-on-regression prints.
#include "perfgauge/harness/compare.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

namespace {

// "hw", "sw", "sim"; "" for time.
std::string source_text(const MetricComparison& m) {
    return m.source ? std::string(source_name(*m.source)) : std::string();
}

std::string format_p(double p) {
    return p < 0.001 ? fmt::format("{:.1e}", p) : fmt::format("{:.3f}", p);
}

std::vector<std::string> cells(const BenchmarkComparison& b, const MetricComparison& m) {
    return {b.name,
            m.is_time ? "time/item" : fmt::format("{}/item [{}]", m.metric, source_text(m)),
            m.is_time ? format_duration_ns(m.baseline_median) : format_si(m.baseline_median),
            m.is_time ? format_duration_ns(m.contender_median) : format_si(m.contender_median),
            m.baseline_median != 0 ? fmt::format("{:.3f}", m.ratio) : "-",
            m.baseline_median != 0 ? fmt::format("{:+.1f}%", m.change_pct) : "-",
            format_p(m.p_value),
            verdict_text(m)};
}

// The thresholds actually used, so a reader never assumes the defaults.
std::string thresholds_text(const CompareOptions& o) {
    return fmt::format(
        "a verdict needs P < {:g} and a change of at least {:g}% (and at least {:g} per item for "
        "instructions, cycles and branches), with at least {} samples a side",
        o.alpha, o.min_change * 100, o.min_work_delta, o.min_samples);
}

// Benchmark and metric names left, numbers right, the verdict left.
TextTable comparison_table(const std::vector<std::string>& headers) {
    std::vector<TextTable::Align> align(headers.size(), TextTable::Align::right);
    align[0] = align[1] = align.back() = TextTable::Align::left;
    return TextTable(headers, align);
}

std::string render_table(const Comparison& c) {
    auto table = comparison_table(
        {"BENCHMARK", "METRIC", "BASELINE", "CONTENDER", "RATIO", "CHANGE", "P", "VERDICT"});
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics)
            table.add_row(cells(b, m));
    }
    std::string out =
        fmt::format("baseline: {}\ncontender: {}\n", c.baseline_label, c.contender_label);
    out += table.render();
    out += "RATIO = contender / baseline medians; P = two-sided Mann-Whitney U; " +
           thresholds_text(c.options) + "\n";
    for (const auto& n : c.notes)
        out += fmt::format("note: {}\n", n);
    return out;
}

std::string render_csv(const Comparison& c) {
    TextTable table({"benchmark", "metric", "baseline_median", "contender_median", "ratio",
                     "change_pct", "hodges_lehmann_shift", "p_value", "baseline_samples",
                     "contender_samples", "verdict", "source"});
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            table.add_row({b.name, m.is_time ? "ns_per_item" : m.metric,
                           fmt::format("{}", m.baseline_median),
                           fmt::format("{}", m.contender_median), fmt::format("{}", m.ratio),
                           fmt::format("{}", m.change_pct), fmt::format("{}", m.shift),
                           fmt::format("{}", m.p_value), std::to_string(m.baseline_samples),
                           std::to_string(m.contender_samples), verdict_text(m), source_text(m)});
        }
    }
    return table.render_csv();
}

std::string render_markdown(const Comparison& c) {
    std::string out =
        fmt::format("Baseline: `{}` · contender: `{}`\n\n", c.baseline_label, c.contender_label);
    auto table = comparison_table(
        {"benchmark", "metric", "baseline", "contender", "ratio", "change", "p", "verdict"});
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            auto row = cells(b, m);
            if (m.verdict == Verdict::lower || m.verdict == Verdict::higher)
                row.back() = "**" + row.back() + "**";
            table.add_row(std::move(row));
        }
    }
    out += table.render_markdown();
    out += "\n" + thresholds_text(c.options) + ".\n";
    for (const auto& n : c.notes)
        out += fmt::format("\n- {}", n);
    if (!c.notes.empty())
        out += "\n";
    return out;
}

std::string render_json(const Comparison& c) {
    nlohmann::json j;
    j["baseline"] = c.baseline_label;
    j["contender"] = c.contender_label;
    j["notes"] = c.notes;
    j["thresholds"] = {{"alpha", c.options.alpha},
                       {"min_change", c.options.min_change},
                       {"min_work_delta_per_item", c.options.min_work_delta},
                       {"min_samples", c.options.min_samples}};
    j["benchmarks"] = nlohmann::json::array();
    for (const auto& b : c.benchmarks) {
        nlohmann::json e{{"name", b.name}, {"baseline", b.baseline}, {"contender", b.contender}};
        e["metrics"] = nlohmann::json::array();
        for (const auto& m : b.metrics) {
            e["metrics"].push_back({{"metric", m.is_time ? "ns_per_item" : m.metric},
                                    {"source", source_text(m)},
                                    {"baseline_median", m.baseline_median},
                                    {"contender_median", m.contender_median},
                                    {"ratio", m.ratio},
                                    {"change_pct", m.change_pct},
                                    {"hodges_lehmann_shift", m.shift},
                                    {"p_value", m.p_value},
                                    {"baseline_samples", m.baseline_samples},
                                    {"contender_samples", m.contender_samples},
                                    {"verdict", verdict_text(m)}});
        }
        j["benchmarks"].push_back(e);
    }
    return j.dump(2) + "\n";
}

}  // namespace

std::string verdict_text(const MetricComparison& m) {
    switch (m.verdict) {
        case Verdict::lower:
            return m.is_time ? "faster" : "fewer";
        case Verdict::higher:
            return m.is_time ? "slower" : "more";
        case Verdict::no_difference:
            return "no difference";
        case Verdict::too_few_samples:
            return "too few samples";
    }
    return "?";
}

std::string render_comparison(const Comparison& c, OutputFormat format) {
    switch (format) {
        case OutputFormat::table:
            return render_table(c);
        case OutputFormat::csv:
            return render_csv(c);
        case OutputFormat::json:
            return render_json(c);
        case OutputFormat::markdown:
            return render_markdown(c);
    }
    return {};
}

std::vector<std::string> regressions(const Comparison& c, double pct) {
    std::vector<std::string> out;
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            if (m.is_time && m.verdict == Verdict::higher && m.change_pct > pct) {
                out.push_back(fmt::format("{}: {:+.1f}% time per item (p = {})", b.name,
                                          m.change_pct, format_p(m.p_value)));
            }
        }
    }
    return out;
}

}  // namespace perfgauge::harness
