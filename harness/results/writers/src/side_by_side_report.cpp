// Rendering `perfgauge stat -- A ::: B`: the commands' medians side by side, then each against
// the first with the verdicts perfgauge compare gives (paired by round).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/stat_report.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/text_table.hpp"
#include "stat_report_parts.hpp"

namespace perfgauge::harness {

namespace {

using namespace detail;

std::string plural(std::size_t n, const char* word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::string header_text(const SideBySideResult& r) {
    std::string out = fmt::format(
        "\n Performance counter stats, {} side by side ({} of {} planned, interleaved: A B, then "
        "B A, ...{}{}):\n\n",
        plural(r.commands.size(), "command"), plural(r.complete_rounds(), "round"),
        r.rounds_planned,
        r.warmup > 0 ? fmt::format("; {} uncounted each first", plural(r.warmup, "warmup run"))
                     : "",
        r.prepare.empty() ? "" : fmt::format("; '{}' before every run", r.prepare));
    for (std::size_t c = 0; c < r.commands.size(); ++c)
        out += fmt::format("   {}  {}\n", side_by_side_letter(c), r.labels[c]);
    return out + "\n";
}

// Why the rounds ended before the plan, or "" when they did not.
std::string stop_text(const SideBySideResult& r) {
    if (r.failed_prepare) {
        return fmt::format("stopped: --prepare '{}' {}; {} reported", r.prepare,
                           r.failed_prepare->describe(),
                           plural(r.complete_rounds(), "complete round"));
    }
    if (r.failed_command) {
        const StatResult& c = r.commands[*r.failed_command];
        return fmt::format("stopped: '{}' {}{}; {} reported", r.labels[*r.failed_command],
                           c.exit.describe(), r.failed_in_warmup ? " in a warmup run" : "",
                           plural(r.complete_rounds(), "complete round"));
    }
    if (!r.interrupted_by.empty()) {
        return fmt::format("interrupted by {}: {} reported", r.interrupted_by,
                           plural(r.complete_rounds(), "complete round"));
    }
    return "";
}

std::string seconds_cell(const std::vector<double>& seconds) {
    if (seconds.empty())
        return "";
    return fmt::format("{:.3f} msec {}", 1e3 * median(seconds), spread_text(seconds));
}

std::vector<double> cpu_seconds(const StatResult& s) {
    std::vector<double> out;
    for (std::size_t k = 0; k < s.user_seconds.size() && k < s.system_seconds.size(); ++k)
        out.push_back(s.user_seconds[k] + s.system_seconds[k]);
    return out;
}

std::string event_cell(const StatResult& s, const std::string& name) {
    const auto it = std::find_if(s.events.begin(), s.events.end(),
                                 [&](const auto& e) { return e.name == name; });
    if (it == s.events.end())
        return "";
    if (!it->counted || it->samples.empty())
        return "<" + status_text(*it) + ">";
    const auto [value, unit] = display_value(*it);
    return fmt::format("{}{}{} {}", value, unit.empty() ? "" : " ", unit, spread_text(*it));
}

std::string render_table(const SideBySideResult& r, const Comparison& comparison) {
    std::string out = header_text(r);
    std::vector<std::string> headers = {"METRIC", "SOURCE"};
    std::vector<TextTable::Align> align = {TextTable::Align::left, TextTable::Align::left};
    for (std::size_t c = 0; c < r.commands.size(); ++c) {
        headers.push_back(side_by_side_letter(c));
        align.push_back(TextTable::Align::right);
    }
    TextTable table(headers, align);
    const auto row = [&](std::string metric, std::string source, auto cell) {
        std::vector<std::string> cells = {std::move(metric), std::move(source)};
        for (const auto& s : r.commands)
            cells.push_back(cell(s));
        table.add_row(std::move(cells));
    };
    row("elapsed", "", [](const StatResult& s) { return seconds_cell(s.elapsed_seconds); });
    row("cpu-time (user+sys)", "",
        [](const StatResult& s) { return seconds_cell(cpu_seconds(s)); });
    for (const auto& e : r.commands.front().events) {
        row(e.name, std::string(source_name(e.source)),
            [&](const StatResult& s) { return event_cell(s, e.name); });
    }
    // Derived ratios (IPC, miss rates) where any command has them.
    std::vector<std::string> derived;
    for (const auto& s : r.commands) {
        for (const auto& m : derive_metrics(s)) {
            if (std::find(derived.begin(), derived.end(), m.name) == derived.end())
                derived.push_back(m.name);
        }
    }
    for (const auto& name : derived) {
        row(name, "", [&](const StatResult& s) -> std::string {
            for (const auto& m : derive_metrics(s)) {
                if (m.name == name)
                    return fmt::format("{:.3f}", m.value);
            }
            return "";
        });
    }
    out += table.render();
    std::vector<const StatResult*> all;
    for (const auto& s : r.commands)
        all.push_back(&s);
    out += refusals_text(all);
    // A note every command has (how simulation was set up, ...) once; the others by letter.
    const auto everywhere = [&](const std::string& note) {
        return std::all_of(r.commands.begin(), r.commands.end(), [&](const StatResult& s) {
            return std::find(s.notes.begin(), s.notes.end(), note) != s.notes.end();
        });
    };
    for (const auto& note : r.commands.front().notes) {
        if (everywhere(note))
            out += fmt::format("\n  note: {}\n", note);
    }
    for (std::size_t c = 0; c < r.commands.size(); ++c) {
        for (const auto& note : r.commands[c].notes) {
            if (!everywhere(note))
                out += fmt::format("\n  note ({}): {}\n", side_by_side_letter(c), note);
        }
    }
    for (const auto& note : r.notes)
        out += fmt::format("\n  note: {}\n", note);
    if (const auto stop = stop_text(r); !stop.empty())
        out += fmt::format("\n  {}\n", stop);
    // The commands by their letters: the lines above name them in full.
    Comparison lettered = comparison;
    lettered.baseline_label = "A";
    lettered.contender_label = r.commands.size() == 2 ? "B" : "each of B...";
    for (auto& b : lettered.benchmarks) {
        const auto it = std::find(r.labels.begin(), r.labels.end(), b.contender);
        if (it != r.labels.end())
            b.name = side_by_side_letter(static_cast<std::size_t>(it - r.labels.begin()));
    }
    out += fmt::format("\n Each command against A, paired by round:\n\n{}",
                       render_comparison(lettered, OutputFormat::table));
    return out;
}

std::string render_json(const SideBySideResult& r, const Comparison& comparison) {
    nlohmann::json j;
    j[kSchemaVersionKey] = kResultSchemaVersion;
    j["side_by_side"] = true;
    j["labels"] = r.labels;
    j["rounds"] = r.complete_rounds();
    j["rounds_planned"] = r.rounds_planned;
    j["order"] = "interleaved: A B ..., then ... B A, alternating";
    j["warmup"] = r.warmup;
    j["prepare"] = r.prepare.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.prepare);
    j["exit_status"] = r.exit_status();
    j["stopped"] = r.failed_command || r.failed_prepare ? nlohmann::json(stop_text(r))
                                                        : nlohmann::json(nullptr);
    j["interrupted"] =
        r.interrupted_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.interrupted_by);
    j["notes"] = r.notes;
    j["commands"] = nlohmann::json::array();
    for (const auto& s : r.commands)
        j["commands"].push_back(stat_json(s));
    j["comparison"] = nlohmann::json::parse(render_comparison(comparison, OutputFormat::json));
    return json_text(j);
}

// The comparison of a metric of command `label` with the first, if any.
const MetricComparison* comparison_of(const Comparison& c, const std::string& label,
                                      const std::string& metric) {
    for (const auto& b : c.benchmarks) {
        if (b.contender != label)
            continue;
        for (const auto& m : b.metrics) {
            if (m.metric == metric)
                return &m;
        }
    }
    return nullptr;
}

std::string render_csv(const SideBySideResult& r, const Comparison& comparison) {
    std::vector<std::string> header = {"command"};
    for (auto& column : csv_columns(kStatCsvHeader))
        header.push_back(std::move(column));
    for (const char* column :
         {"ratio", "change_pct", "ci_low_pct", "ci_high_pct", "verdict", "method"})
        header.emplace_back(column);
    TextTable table(header);
    for (std::size_t c = 0; c < r.commands.size(); ++c) {
        for (auto& row : stat_csv_rows(r.commands[c])) {
            const std::string& name = row.front();
            const MetricComparison* m =
                c == 0 ? nullptr
                       : comparison_of(comparison, r.labels[c], name == "elapsed" ? "time" : name);
            row.insert(row.begin(), r.labels[c]);
            if (m != nullptr) {
                // Ratio and interval only where they mean something; the verdict always.
                const bool numbers =
                    m->baseline_median != 0 && m->verdict != Verdict::too_few_samples;
                const double base = std::fabs(m->baseline_median);
                for (const auto& cell : {numbers ? fmt::format("{}", m->ratio) : "",
                                         numbers ? fmt::format("{}", m->change_pct) : "",
                                         numbers ? fmt::format("{}", 100 * m->ci_low / base) : "",
                                         numbers ? fmt::format("{}", 100 * m->ci_high / base) : "",
                                         verdict_text(*m), std::string(method_name(m->method))})
                    row.push_back(cell);
            }
            row.resize(header.size());
            table.add_row(std::move(row));
        }
    }
    return table.render_csv();
}

std::string render_markdown(const SideBySideResult& r, const Comparison& comparison) {
    std::string out = fmt::format(
        "{} commands side by side: {} of {} planned rounds, interleaved{}{}\n\n", r.commands.size(),
        r.complete_rounds(), r.rounds_planned,
        r.warmup > 0 ? fmt::format(", {} uncounted", plural(r.warmup, "warmup run")) : "",
        r.prepare.empty() ? "" : fmt::format(", `{}` before every run", r.prepare));
    for (std::size_t c = 0; c < r.commands.size(); ++c)
        out += fmt::format("- **{}**: `{}`\n", side_by_side_letter(c), r.labels[c]);
    std::vector<std::string> headers = {"metric", "source"};
    std::vector<TextTable::Align> align = {TextTable::Align::left, TextTable::Align::left};
    for (std::size_t c = 0; c < r.commands.size(); ++c) {
        headers.push_back(side_by_side_letter(c));
        align.push_back(TextTable::Align::right);
    }
    TextTable table(headers, align);
    const auto add = [&](std::vector<std::string> cells, auto cell) {
        for (const auto& s : r.commands)
            cells.push_back(cell(s));
        table.add_row(std::move(cells));
    };
    add({"elapsed", ""}, [](const StatResult& s) { return seconds_cell(s.elapsed_seconds); });
    add({"cpu-time (user+sys)", ""},
        [](const StatResult& s) { return seconds_cell(cpu_seconds(s)); });
    for (const auto& e : r.commands.front().events) {
        add({"`" + e.name + "`", std::string(source_name(e.source))},
            [&](const StatResult& s) { return event_cell(s, e.name); });
    }
    out += "\n" + table.render_markdown();
    if (const auto stop = stop_text(r); !stop.empty())
        out += fmt::format("\n{}\n", stop);
    out += "\n" + render_comparison(comparison, OutputFormat::markdown);
    return out;
}

}  // namespace

std::string side_by_side_letter(std::size_t i) {
    return i < 26 ? std::string(1, static_cast<char>('A' + i)) : std::to_string(i + 1);
}

std::string render_side_by_side(const SideBySideResult& result, const Comparison& comparison,
                                OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
            return render_table(result, comparison);
        case OutputFormat::csv:
            return render_csv(result, comparison);
        case OutputFormat::json:
            return render_json(result, comparison);
        case OutputFormat::markdown:
            return render_markdown(result, comparison);
        case OutputFormat::answer:
            return render_side_by_side_answer(result, comparison);
        case OutputFormat::bmf:
            break;
    }
    no_writer("a side-by-side result", format);
}

}  // namespace perfgauge::harness
