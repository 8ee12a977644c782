// `perfgauge stat -- A ::: B`'s default report: the answer first, on one screen (at most 12
// lines of 80 columns for two commands), as hyperfine's summary says "B ran 1.23 times faster
// than A". The per-command table, the notes and the legend are --format table's (and --help's):
// a reader who wants them asks, and nobody scrolls 91 rows to find a verdict.
#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

namespace {

constexpr std::size_t kWidth = kSideBySideAnswerWidth;
constexpr std::size_t kLines = kSideBySideAnswerLines;
// A metric name longer than this is cut ("L1-dcache-load-misses [sim]" fits).
constexpr std::size_t kMetricWidth = 28;

// Columns on a terminal: UTF-8 code points (the verdict's "±" is two bytes, one column).
std::size_t display_columns(const std::string& text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

const MetricComparison* find_metric(const BenchmarkComparison& b, const std::string& metric) {
    const auto it = std::find_if(b.metrics.begin(), b.metrics.end(),
                                 [&](const MetricComparison& m) { return m.metric == metric; });
    return it == b.metrics.end() ? nullptr : &*it;
}

// The comparison of command `c` (1 on) with A.
const BenchmarkComparison* against_a(const SideBySideResult& r, const Comparison& comparison,
                                     std::size_t c) {
    for (const auto& b : comparison.benchmarks) {
        if (b.contender == r.labels[c])
            return &b;
    }
    return nullptr;
}

bool differs(const MetricComparison& m) {
    return m.verdict == Verdict::lower || m.verdict == Verdict::higher;
}

std::string metric_name(const MetricComparison& m) {
    const std::string name =
        m.source ? fmt::format("{} [{}]", m.metric, source_name(*m.source)) : m.metric;
    return truncate(name, kMetricWidth);
}

// The point estimate of the change, signed: "-18.7%" ("-" where a ratio says nothing).
std::string change_pct(const MetricComparison& m) {
    if (m.baseline_samples == 0 || m.contender_samples == 0 || !(m.baseline_median > 0) ||
        m.verdict == Verdict::too_few_samples)
        return "-";
    return fmt::format("{:+.1f}%", m.change_pct);
}

// A duration in 4 significant digits ("114.1 ms"): the table's 3 decimals do not fit 80 columns.
std::string short_duration(double ns) {
    const double a = std::fabs(ns);
    const auto [scale, unit] = a >= 1e9   ? std::pair{1e9, "s"}
                               : a >= 1e6 ? std::pair{1e6, "ms"}
                               : a >= 1e3 ? std::pair{1e3, "us"}
                                          : std::pair{1.0, "ns"};
    const double v = std::fabs(ns / scale);
    return fmt::format("{:.{}f} {}", ns / scale, v < 10 ? 3 : v < 100 ? 2 : 1, unit);
}

std::string median_text(const MetricComparison& m, bool contender) {
    const std::size_t samples = contender ? m.contender_samples : m.baseline_samples;
    const double median = contender ? m.contender_median : m.baseline_median;
    if (samples == 0)
        return "-";
    // task-clock and cpu-clock count nanoseconds: times, said as times.
    const bool ns = m.is_time || m.metric == "task-clock" || m.metric == "cpu-clock";
    return ns ? short_duration(median) : format_si(median);
}

std::string ci_header(const Comparison& c) {
    return fmt::format("{:g}% CI", 100 * (1 - c.options.alpha));
}

std::string rounds_text(const SideBySideResult& r) {
    const std::size_t n = r.complete_rounds();
    return fmt::format("{} round{} paired", n, n == 1 ? "" : "s");
}

// The time verdict of `who` against A, in words: the answer's first line.
std::string time_sentence(const std::string& who, const MetricComparison& m,
                          const SideBySideResult& r, const CompareOptions& options) {
    const std::string ci = fmt::format("{:g}% CI {}", 100 * (1 - options.alpha), interval_text(m));
    switch (m.verdict) {
        case Verdict::lower:
        case Verdict::higher:
            return fmt::format("{} ran {} than A, {}, {}", who, change_text(m), ci, rounds_text(r));
        case Verdict::equivalent:
            return fmt::format("{} and A took the same time: {}, {}, {}", who, verdict_text(m), ci,
                               rounds_text(r));
        case Verdict::inconclusive:
            return fmt::format(
                "{} against A: time inconclusive, {}, {}: more rounds (-r) may decide", who, ci,
                rounds_text(r));
        case Verdict::too_few_samples:
            break;
    }
    return fmt::format("{} against A: too few rounds for a verdict ({} complete; -r {} or more)",
                       who, r.complete_rounds(), options.min_samples);
}

// Three or more: the fastest command found faster than A, else that none was.
std::string many_headline(const SideBySideResult& r, const Comparison& comparison) {
    const MetricComparison* best = nullptr;
    std::size_t best_c = 0;
    for (std::size_t c = 1; c < r.commands.size(); ++c) {
        const auto* b = against_a(r, comparison, c);
        const auto* m = b ? find_metric(*b, "time") : nullptr;
        if (m && m->verdict == Verdict::lower && (!best || m->ratio < best->ratio)) {
            best = m;
            best_c = c;
        }
    }
    if (best)
        return "fastest: " +
               time_sentence(side_by_side_letter(best_c), *best, r, comparison.options);
    return fmt::format("none ran faster than A ({}); each against A:", rounds_text(r));
}

// What the answer leaves to --format table, said in lines: why the rounds stopped, events not
// counted, and where the rest is.
std::vector<std::string> footer(const SideBySideResult& r, std::size_t left_out_rows) {
    std::vector<std::string> out;
    if (r.failed_prepare || r.failed_command || !r.interrupted_by.empty()) {
        if (r.failed_prepare)
            out.push_back(
                fmt::format("stopped: --prepare '{}' {}", r.prepare, r.failed_prepare->describe()));
        else if (r.failed_command)
            out.push_back(fmt::format("stopped: {} {}{}", side_by_side_letter(*r.failed_command),
                                      r.commands[*r.failed_command].exit.describe(),
                                      r.failed_in_warmup ? " in a warmup run" : ""));
        else
            out.push_back("interrupted by " + r.interrupted_by);
    }
    std::vector<std::string> not_counted;
    std::size_t notes = r.notes.size();
    for (const auto& s : r.commands) {
        notes += s.notes.size();
        for (const auto& e : s.events) {
            if ((!e.counted || e.samples.empty()) &&
                std::find(not_counted.begin(), not_counted.end(), e.name) == not_counted.end())
                not_counted.push_back(e.name);
        }
    }
    if (!not_counted.empty())
        out.push_back(
            fmt::format("not counted: {} (--format table says why)", fmt::join(not_counted, ", ")));
    std::vector<std::string> more;
    if (left_out_rows > 0)
        more.push_back(fmt::format("{} more counter{} differ{}", left_out_rows,
                                   left_out_rows == 1 ? "" : "s", left_out_rows == 1 ? "s" : ""));
    if (notes > 0)
        more.push_back(fmt::format("{} note{}", notes, notes == 1 ? "" : "s"));
    out.push_back(fmt::format("more in --format table{}; the legend: --help",
                              more.empty() ? "" : fmt::format(" ({})", fmt::join(more, ", "))));
    return out;
}

// Two commands: a row per metric that matters, each with its verdict and interval.
std::string two_commands(const SideBySideResult& r, const Comparison& comparison) {
    std::string out;
    const auto* b = against_a(r, comparison, 1);
    const auto* time = b ? find_metric(*b, "time") : nullptr;
    out += (time ? time_sentence("B", *time, r, comparison.options)
                 : "B against A: no time to compare") +
           "\n";
    for (std::size_t c = 0; c < 2; ++c)
        out += fmt::format("  {}  {}\n", side_by_side_letter(c), truncate(r.labels[c], kWidth - 5));
    std::vector<const MetricComparison*> rows, extra;
    if (b) {
        for (const auto& m : b->metrics)
            (m.is_time ? rows : extra).push_back(&m);
        extra.erase(std::remove_if(extra.begin(), extra.end(),
                                   [](const MetricComparison* m) { return !differs(*m); }),
                    extra.end());
    }
    // Lines so far (3), the table's header, the footer without a left-out count: the rest is
    // for rows; a row is given up to say how many more differ.
    const std::size_t footer_lines = footer(r, 0).size();
    const std::size_t room = kLines > 4 + footer_lines ? kLines - 4 - footer_lines : 0;
    std::size_t left_out = 0;
    if (rows.size() + extra.size() > room) {
        const std::size_t keep = room > rows.size() ? room - rows.size() : 0;
        left_out = extra.size() - keep;
        extra.resize(keep);
    }
    rows.insert(rows.end(), extra.begin(), extra.end());
    const auto render = [&](bool values) {
        std::vector<std::string> headers = {"  METRIC", "A", "B", "CHANGE", ci_header(comparison),
                                            "VERDICT"};
        if (!values)
            headers.erase(headers.begin() + 1, headers.begin() + 3);
        std::vector<TextTable::Align> align(headers.size(), TextTable::Align::right);
        align.front() = align[align.size() - 2] = align.back() = TextTable::Align::left;
        TextTable table(headers, align);
        for (const auto* m : rows) {
            std::vector<std::string> cells = {"  " + metric_name(*m)};
            if (values) {
                cells.push_back(median_text(*m, false));
                cells.push_back(median_text(*m, true));
            }
            for (auto cell : {change_pct(*m), interval_text(*m), verdict_text(*m)})
                cells.push_back(std::move(cell));
            table.add_row(std::move(cells));
        }
        return table.render();
    };
    std::string table = render(true);
    if (widest_line(table) > kWidth)
        table = render(false);  // the medians are in --format table
    out += table;
    for (const auto& line : footer(r, left_out))
        out += "  " + line + "\n";
    return out;
}

// Three or more: a row per command against A (its time), then a line per other metric that
// differs, naming the commands it differs for.
std::string many_commands(const SideBySideResult& r, const Comparison& comparison) {
    std::string out = many_headline(r, comparison) + "\n";
    TextTable table({"", "COMMAND", "TIME", "CHANGE", ci_header(comparison), "VERDICT"},
                    {TextTable::Align::left, TextTable::Align::left, TextTable::Align::right,
                     TextTable::Align::right, TextTable::Align::left, TextTable::Align::left});
    std::vector<std::string> metrics;  // metrics that differ somewhere, in event order
    std::vector<std::vector<std::string>> cells;
    for (std::size_t c = 0; c < r.commands.size(); ++c) {
        const auto* b = c == 0 ? nullptr : against_a(r, comparison, c);
        const auto* m = b ? find_metric(*b, "time") : nullptr;
        const std::string time = !r.commands[c].elapsed_seconds.empty()
                                     ? short_duration(1e9 * median(r.commands[c].elapsed_seconds))
                                     : "-";
        cells.push_back({" " + side_by_side_letter(c), r.labels[c], time, m ? change_pct(*m) : "",
                         m ? interval_text(*m) : "", m ? verdict_text(*m) : "(baseline)"});
        for (std::size_t k = 0; b != nullptr && k < b->metrics.size(); ++k) {
            const auto& x = b->metrics[k];
            if (x.metric != "time" && differs(x) &&
                std::find(metrics.begin(), metrics.end(), x.metric) == metrics.end())
                metrics.push_back(x.metric);
        }
    }
    // The command column takes what the others leave of 80 columns.
    std::size_t others = 0;
    for (std::size_t k : {0u, 2u, 3u, 4u, 5u}) {
        std::size_t w = 0;
        for (const auto& row : cells)
            w = std::max(w, display_columns(row[k]));
        others += w + 2;
    }
    const std::size_t label_width = kWidth > others + 8 ? kWidth - others : 8;
    for (auto& row : cells) {
        row[1] = truncate(row[1], label_width);
        table.add_row(std::move(row));
    }
    out += table.render();
    const std::size_t footer_lines = footer(r, 0).size();
    const std::size_t used = 2 + r.commands.size() + footer_lines;
    const std::size_t room = kLines > used ? kLines - used : 0;
    std::size_t left_out = 0;
    if (metrics.size() > room) {
        left_out = metrics.size() - room;
        metrics.resize(room);
    }
    for (const auto& metric : metrics) {
        std::vector<std::string> parts;
        std::string name = metric;
        for (std::size_t c = 1; c < r.commands.size(); ++c) {
            const auto* b = against_a(r, comparison, c);
            const auto* m = b ? find_metric(*b, metric) : nullptr;
            if (m && differs(*m)) {
                name = metric_name(*m);
                parts.push_back(fmt::format("{} {} {}", side_by_side_letter(c), change_pct(*m),
                                            m->verdict == Verdict::lower ? "fewer" : "more"));
            }
        }
        out += truncate(fmt::format("  {}: {}", name, fmt::join(parts, ", ")), kWidth) + "\n";
    }
    for (const auto& line : footer(r, left_out))
        out += "  " + line + "\n";
    return out;
}

}  // namespace

std::size_t widest_line(const std::string& text) {
    std::size_t widest = 0, start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        widest = std::max(widest, display_columns(text.substr(start, end - start)));
        start = end + 1;
    }
    return widest;
}

std::string render_side_by_side_answer(const SideBySideResult& result,
                                       const Comparison& comparison) {
    if (result.commands.size() < 2)
        return render_side_by_side(result, comparison, OutputFormat::table);
    const std::string answer = result.commands.size() == 2 ? two_commands(result, comparison)
                                                           : many_commands(result, comparison);
    // Every line within the width: a label or a list the layout could not fit is cut ("...").
    std::string out;
    for (std::size_t start = 0; start < answer.size();) {
        const auto end = std::min(answer.find('\n', start), answer.size());
        const std::string line = answer.substr(start, end - start);
        out += (display_columns(line) > kWidth ? truncate(line, kWidth - 1) : line) + "\n";
        start = end + 1;
    }
    return out;
}

}  // namespace perfgauge::harness
