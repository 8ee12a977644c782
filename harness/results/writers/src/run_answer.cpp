// Rendering the answer (answer.hpp): the table as text and Markdown, the ratio as people say it
// and the caveat where simulated misses and the measured time disagree.
#include "perfgauge/harness/run_answer.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "perfgauge/harness/size_text.hpp"

namespace perfgauge::harness {

namespace {

std::string number_text(double v) {
    const double a = std::fabs(v);
    if (a >= 100)
        return fmt::format("{:.0f}", v);
    if (a >= 10)
        return fmt::format("{:.1f}", v);
    return fmt::format("{:.2f}", v);
}

std::string factor_text(double factor) {
    return factor >= 2 ? fmt::format("{:.1f}", factor) : fmt::format("{:.2f}", factor);
}

// "(2.40-2.80x)" in the direction speak_ratio speaks of the ratio. An interval that reaches a
// time of zero (a ratio bound at or below 0) has no bound on the speed-up side: "(>=1.02x)"
// for a speed-up, "(<=3.7x)" for a slowdown - never a negative factor.
std::string interval_text(const AnswerRow& r) {
    if (r.time_ratio < 1) {  // speed-ups: the inverse of the ratio's bounds
        if (r.ratio_low <= 0)
            return fmt::format("(>={}x)", factor_text(1 / r.ratio_high));
        return fmt::format("({}-{}x)", factor_text(1 / r.ratio_high), factor_text(1 / r.ratio_low));
    }
    if (r.ratio_low <= 0)
        return fmt::format("(<={}x)", factor_text(r.ratio_high));
    return fmt::format("({}-{}x)", factor_text(r.ratio_low), factor_text(r.ratio_high));
}

const char* verdict_word(Verdict v) {
    switch (v) {
        case Verdict::lower:
            return "faster";
        case Verdict::higher:
            return "slower";
        case Verdict::equivalent:
            return "equivalent";
        case Verdict::inconclusive:
            return "inconclusive";
        case Verdict::too_few_samples:
            return "too few samples";
    }
    return "?";
}

// The time cell: the ratio as people say it, its interval, and the verdict where the ratio's
// own word does not already say it.
std::string time_cell(const AnswerRow& r, bool compact) {
    if (!(r.time_ratio > 0) || !std::isfinite(r.time_ratio))
        return "no samples to compare";
    if (!r.mixed && r.verdict == Verdict::too_few_samples)
        return speak_ratio(r.time_ratio) + ", too few samples";
    if (r.mixed) {
        // Sizes that disagree have no one factor to speak: "1.10x faster" over a band whose
        // interval reaches "slower" would claim more than it holds. The count of sizes that
        // agree, and the interval over all of them, say what is known. Short: the whole row
        // must fit 100 columns beside its counters.
        std::string cell = fmt::format(
            "mixed: {}/{} {}", r.agreeing, r.sizes,
            compact && r.verdict == Verdict::too_few_samples ? "too few" : verdict_word(r.verdict));
        if (r.has_interval)
            cell += " " + interval_text(r);
        return cell;
    }
    std::string cell = speak_ratio(r.time_ratio);
    if (r.has_interval)
        cell += " " + interval_text(r);
    if (r.verdict == Verdict::equivalent) {
        cell = fmt::format("equivalent ±{:.0f}% {}", 100 * r.equivalence, interval_text(r));
    } else if (r.verdict == Verdict::inconclusive) {
        cell += " inconclusive";
    }
    return cell;
}

std::string percent_text(const std::optional<double>& share) {
    if (!share)
        return "-";
    return fmt::format("{:.0f}%", 100 * *share);
}

// The cells of the answer's table: a header row, then one per answer row.
struct AnswerTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> legend;
    bool contradiction = false;  // a simulated miss count against the time: the caveat follows
};

// The answer's counter columns: those counted in some row and not zero on both sides everywhere.
std::vector<std::pair<std::string, EventSource>> counter_columns(const Answer& a) {
    std::vector<std::pair<std::string, EventSource>> columns;
    for (const auto& r : a.rows) {
        for (const auto& c : r.counters) {
            const bool known = std::any_of(columns.begin(), columns.end(),
                                           [&](const auto& col) { return col.first == c.event; });
            if (!known && (c.baseline != 0 || c.contender != 0))
                columns.emplace_back(c.event, c.source);
        }
    }
    return columns;
}

// A row's counter cells, one per column ("-" where the row has none): "baseline vs contender",
// marked "*" where a simulated miss count points against the time. `simulated`: a cell shows a
// simulated count.
void add_counter_cells(const AnswerRow& r,
                       const std::vector<std::pair<std::string, EventSource>>& columns,
                       const char* vs, std::vector<std::string>& cells, bool& simulated) {
    for (const auto& column : columns) {
        const std::string& event = column.first;
        const auto it = std::find_if(r.counters.begin(), r.counters.end(),
                                     [&](const AnswerCounter& c) { return c.event == event; });
        if (it == r.counters.end()) {
            cells.emplace_back("-");
            continue;
        }
        simulated = simulated || it->source == EventSource::simulated;
        const bool flag = r.simulation_contradicts && it->source == EventSource::simulated &&
                          it->event.find("miss") != std::string::npos;
        cells.push_back(fmt::format("{}{}{}{}", number_text(it->baseline), vs,
                                    number_text(it->contender), flag ? " *" : ""));
    }
}

// `compact`: for a text too wide otherwise - pairs as "31.5/24.3", a band's count of sizes
// with too few samples as "too few", no header over the decoder names.
AnswerTable answer_table(const Answer& a, bool compact) {
    const char* vs = compact ? "/" : " vs ";
    AnswerTable t;
    std::vector<std::string> contenders;
    for (const auto& r : a.rows) {
        if (std::find(contenders.begin(), contenders.end(), r.contender) == contenders.end())
            contenders.push_back(r.contender);
    }
    const bool one_contender = contenders.size() == 1;
    const std::string& baseline = a.rows.front().baseline;
    const auto columns = counter_columns(a);
    const bool memcpy = std::any_of(a.rows.begin(), a.rows.end(),
                                    [](const AnswerRow& r) { return r.baseline_of_memcpy; });
    t.header = {"cache, size"};
    if (!one_contender)
        t.header.push_back(compact ? "" : "decoder");
    t.header.push_back(one_contender ? contenders.front() + " against " + baseline
                                     : "against " + baseline);
    for (const auto& [event, source] : columns) {
        const std::string name = event == "instructions"    ? "instr"
                                 : event == "branch-misses" ? "br-miss"
                                                            : event;
        t.header.push_back(fmt::format("{} {}", name, source_name(source)));
    }
    if (memcpy)
        t.header.push_back("of memcpy");
    bool contradiction = false, simulated = false;
    std::string previous_band;
    for (const auto& r : a.rows) {
        std::vector<std::string> cells;
        std::string band = r.cache + " " + size_band_name(r.band);
        band += " " + (r.smallest == r.largest
                           ? detail::size_text(r.smallest)
                           : detail::size_text(r.smallest) + "-" + detail::size_text(r.largest));
        if (a.several_dists)
            band = r.dist + " " + band;
        // A band's decoders are adjacent rows: the band is said on the first.
        cells.push_back(!one_contender && band == previous_band ? "" : band);
        previous_band = band;
        if (!one_contender)
            cells.push_back(r.contender);
        cells.push_back(time_cell(r, compact));
        add_counter_cells(r, columns, vs, cells, simulated);
        contradiction = contradiction || r.simulation_contradicts;
        if (memcpy) {
            cells.push_back(fmt::format("{}{}{}", percent_text(r.baseline_of_memcpy), vs,
                                        percent_text(r.contender_of_memcpy)));
        }
        t.rows.push_back(std::move(cells));
    }
    // Said once, under the rows.
    // Short: two lines at most beside a row per decoder and band.
    std::string legend = "Time: median of per-round ratios (95% interval) over a band's sizes.";
    if (!columns.empty()) {
        legend += fmt::format(" Counters: per item, {}{}{} ({}).", baseline, vs,
                              one_contender ? contenders.front() : "the decoder",
                              simulated ? "sim: callgrind's model" : "hw/sw: this CPU");
    }
    if (memcpy)
        legend += " Of memcpy: share of memcpy's bytes/s (speed of light).";
    t.legend.push_back(legend);
    t.contradiction = contradiction;
    return t;
}

// Wraps `text` at `width` columns, continuation lines indented by two spaces.
std::vector<std::string> wrapped(const std::string& text, std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            lines.push_back(line);
            line = "  " + word;
        } else {
            line += (line.empty() ? "" : " ") + word;
        }
        start = end + 1;
    }
    if (!line.empty())
        lines.push_back(line);
    return lines;
}

}  // namespace

std::string simulation_caveat(const Answer& answer) {
    std::vector<std::string> where;
    for (const auto& r : answer.rows) {
        if (!r.simulation_contradicts)
            continue;
        std::string place = fmt::format("{} {} {}", r.contender, r.cache, size_band_name(r.band));
        if (answer.several_dists)
            place += " " + r.dist;
        where.push_back(std::move(place));
    }
    if (where.empty())
        return "";
    constexpr std::size_t kNamed = 3;  // one line: the first few, then how many more
    std::string places = fmt::format(
        "{}", fmt::join(where.begin(),
                        where.begin() + static_cast<std::ptrdiff_t>(std::min(where.size(), kNamed)),
                        ", "));
    if (where.size() > kNamed)
        places += fmt::format(" and {} more", where.size() - kNamed);
    return simulation_caveat_text(
        fmt::format(" ({} against {})", places, answer.rows.front().baseline));
}

std::string simulation_caveat_text(const std::string& where) {
    return fmt::format(
        "Simulated misses disagree with the measured time{}: callgrind's branch predictor and "
        "caches are simple models (a real predictor learns the repeating pattern of a small hot "
        "buffer).",
        where);
}

std::string speak_ratio(double time_ratio) {
    if (!(time_ratio > 0) || !std::isfinite(time_ratio))
        return "no ratio";
    if (time_ratio < 1)
        return fmt::format("{}x faster", factor_text(1 / time_ratio));
    if (time_ratio > 1)
        return fmt::format("{}x slower", factor_text(time_ratio));
    return "same time";
}

std::string render_answer(const Answer& answer, const std::string& saved_result) {
    if (answer.rows.empty())
        return "";
    // The table as it reads best, or compact where that is wider than 100 columns.
    const auto table_text = [](const AnswerTable& t, std::size_t& widest) {
        std::vector<std::size_t> widths(t.header.size(), 0);
        for (std::size_t c = 0; c < t.header.size(); ++c) {
            widths[c] = t.header[c].size();
            for (const auto& row : t.rows)
                widths[c] = std::max(widths[c], row[c].size());
        }
        std::string text;
        widest = 0;
        const auto line = [&](const std::vector<std::string>& cells) {
            std::string l;
            for (std::size_t c = 0; c < cells.size(); ++c)
                l +=
                    c + 1 == cells.size() ? cells[c] : fmt::format("{:<{}}  ", cells[c], widths[c]);
            widest = std::max(widest, l.size());
            text += l + "\n";
        };
        line(t.header);
        for (const auto& row : t.rows)
            line(row);
        return text;
    };
    AnswerTable t = answer_table(answer, false);
    std::size_t widest = 0;
    std::string out = table_text(t, widest);
    if (widest > 100) {
        t = answer_table(answer, true);
        out = table_text(t, widest);
    }
    for (const auto& legend : t.legend) {
        for (const auto& l : wrapped(legend, 100))
            out += l + "\n";
    }
    // One line, the reason in short (the Markdown, the table, compare and plot give it whole).
    if (t.contradiction) {
        out +=
            "* Simulated misses vs time: callgrind's models are simple; real predictors learn "
            "small hot buffers\n";
    }
    for (const auto& note : answer.notes) {
        for (const auto& l : wrapped("Note: " + note, 100))
            out += l + "\n";
    }
    // What is left out, on as few lines as fit, and where to read all of it.
    std::string left_out;
    if (!answer.not_counted.empty())
        left_out += fmt::format("Not counted: {}. ", fmt::join(answer.not_counted, ", "));
    left_out += answer.other_warnings > 0
                    ? fmt::format(
                          "{} more warning{} (disturbed samples, imprecise entries) and "
                          "every entry:",
                          answer.other_warnings, answer.other_warnings == 1 ? "" : "s")
                    : "Every entry:";
    const std::string command =
        fmt::format("perfgauge export {} --format table",
                    saved_result.empty() ? std::string("RESULT.json") : saved_result);
    if (left_out.size() + 1 + command.size() <= 100) {
        out += left_out + " " + command + "\n";
    } else {
        for (const auto& l : wrapped(left_out, 100))
            out += l + "\n";
        out += "  " + command + "\n";
    }
    return out;
}

std::string render_answer_markdown(const Answer& answer) {
    if (answer.rows.empty())
        return "";
    const AnswerTable t = answer_table(answer, false);
    std::string out = "## Answer\n\n|";
    for (const auto& h : t.header)
        out += " " + h + " |";
    out += "\n|";
    for (std::size_t c = 0; c < t.header.size(); ++c)
        out += " --- |";
    out += "\n";
    for (const auto& row : t.rows) {
        out += "|";
        for (const auto& cell : row)
            out += " " + cell + " |";
        out += "\n";
    }
    out += "\n";
    for (const auto& l : t.legend)
        out += l + "\n";
    if (t.contradiction)
        out += "* " + simulation_caveat_text() + "\n";
    for (const auto& note : answer.notes)
        out += "\nNote: " + note + "\n";
    if (answer.other_warnings > 0)
        out += fmt::format("\n{} more warnings: below the table.\n", answer.other_warnings);
    return out + "\n";
}

}  // namespace perfgauge::harness
