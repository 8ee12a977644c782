#include "perfgauge/harness/run_answer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

std::string param_of(const BenchmarkResult& b, const std::string& key) {
    for (const auto& [k, v] : b.params) {
        if (k == key)
            return v;
    }
    return "";
}

std::uint64_t context_bytes(const RunResult& r, const std::string& key) {
    for (const auto& [k, v] : r.context) {
        if (k == key) {
            try {
                return std::stoull(v);
            } catch (const std::exception&) {
                return 0;
            }
        }
    }
    return 0;
}

std::uint64_t size_of(const BenchmarkResult& b) {
    try {
        return std::stoull(param_of(b, "size_bytes"));
    } catch (const std::exception&) {
        return 0;
    }
}

double median_of(std::vector<double> values) {
    return values.empty() ? 0 : median(values);
}

// One size of a row, as compare_within compared it.
struct SizePoint {
    std::uint64_t size = 0;
    const MetricComparison* time = nullptr;
    std::vector<const MetricComparison*> counters;  // kAnswerCounters order, null: not counted
    std::optional<double> baseline_of_memcpy, contender_of_memcpy;
};

struct RowKey {
    std::string dist, cache;
    SizeBand band;
    std::string contender;
    auto operator<=>(const RowKey&) const = default;
};

// The row of its sizes: medians over them, the union of their intervals, their verdicts.
AnswerRow summarize(const RowKey& key, const std::string& baseline,
                    const std::vector<SizePoint>& points) {
    AnswerRow row;
    row.dist = key.dist;
    row.cache = key.cache;
    row.band = key.band;
    row.baseline = baseline;
    row.contender = key.contender;
    row.sizes = points.size();
    row.smallest = points.front().size;
    row.largest = points.front().size;
    std::vector<double> ratios, base_sol, cont_sol;
    std::map<Verdict, std::size_t> verdicts;
    double low = INFINITY, high = -INFINITY, equivalence = 0;
    for (const auto& p : points) {
        row.smallest = std::min(row.smallest, p.size);
        row.largest = std::max(row.largest, p.size);
        const MetricComparison& t = *p.time;
        if (t.ratio > 0)  // 0: a side kept no sample (every one disturbed)
            ratios.push_back(t.ratio);
        // A size with too few samples has no interval (its bounds are the estimate itself):
        // it would narrow the band's union to a point that says nothing.
        if (t.baseline_median > 0 && t.verdict != Verdict::too_few_samples) {
            low = std::min(low, 1 + t.ci_low / t.baseline_median);
            high = std::max(high, 1 + t.ci_high / t.baseline_median);
            equivalence = std::max(equivalence, t.threshold / t.baseline_median);
        }
        ++verdicts[t.verdict];
        if (p.baseline_of_memcpy)
            base_sol.push_back(*p.baseline_of_memcpy);
        if (p.contender_of_memcpy)
            cont_sol.push_back(*p.contender_of_memcpy);
    }
    row.time_ratio = median_of(ratios);
    row.has_interval = std::isfinite(low) && std::isfinite(high);
    row.ratio_low = row.has_interval ? low : row.time_ratio;
    row.ratio_high = row.has_interval ? high : row.time_ratio;
    row.equivalence = equivalence;
    // The most common verdict; ties go to the weaker claim (the enum lists decisive ones first).
    for (const auto& [verdict, count] : verdicts) {
        if (count >= row.agreeing) {
            row.verdict = verdict;
            row.agreeing = count;
        }
    }
    row.mixed = verdicts.size() > 1;
    if (!base_sol.empty())
        row.baseline_of_memcpy = median_of(base_sol);
    if (!cont_sol.empty())
        row.contender_of_memcpy = median_of(cont_sol);

    for (std::size_t c = 0; c < kAnswerCounters.size(); ++c) {
        std::vector<double> base, cont;
        std::optional<EventSource> source;
        for (const auto& p : points) {
            const MetricComparison* m = p.counters[c];
            if (m && m->baseline_samples > 0 && m->contender_samples > 0) {
                base.push_back(m->baseline_median);
                cont.push_back(m->contender_median);
                source = m->source;
            }
        }
        if (base.empty() || !source)
            continue;
        AnswerCounter counter{kAnswerCounters[c], *source, median_of(base), median_of(cont)};
        // The band's prevailing verdict, mixed or not: on small hot buffers some sizes may
        // still be undecided while most point against the model.
        if (simulation_disagrees(row.verdict, counter.event, counter.source, counter.baseline,
                                 counter.contender))
            row.simulation_contradicts = true;
        row.counters.push_back(std::move(counter));
    }
    return row;
}

// 96B, 4K, 1.5M, 64M: a working set as the suite names its sizes.
std::string size_text(std::uint64_t bytes) {
    constexpr std::uint64_t k = 1024;
    for (const auto& [unit, scale] :
         {std::pair{'G', k * k * k}, std::pair{'M', k * k}, std::pair{'K', k}}) {
        if (bytes >= scale) {
            const double v = static_cast<double>(bytes) / static_cast<double>(scale);
            return v == std::floor(v) ? fmt::format("{}{}", bytes / scale, unit)
                                      : fmt::format("{:.1f}{}", v, unit);
        }
    }
    return fmt::format("{}B", bytes);
}

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
    std::string cell = speak_ratio(r.time_ratio);
    if (r.has_interval)
        cell += " " + interval_text(r);
    if (r.mixed) {
        // Short: the whole row must fit 100 columns beside its counters.
        cell += fmt::format(
            " {}/{} {}", r.agreeing, r.sizes,
            compact && r.verdict == Verdict::too_few_samples ? "too few" : verdict_word(r.verdict));
    } else if (r.verdict == Verdict::equivalent) {
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
    // Counter columns: those counted in some row and not zero on both sides everywhere.
    std::vector<std::pair<std::string, EventSource>> columns;
    for (const auto& r : a.rows) {
        for (const auto& c : r.counters) {
            const bool known = std::any_of(columns.begin(), columns.end(),
                                           [&](const auto& col) { return col.first == c.event; });
            if (!known && (c.baseline != 0 || c.contender != 0))
                columns.emplace_back(c.event, c.source);
        }
    }
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
        band +=
            " " + (r.smallest == r.largest ? size_text(r.smallest)
                                           : size_text(r.smallest) + "-" + size_text(r.largest));
        if (a.several_dists)
            band = r.dist + " " + band;
        // A band's decoders are adjacent rows: the band is said on the first.
        cells.push_back(!one_contender && band == previous_band ? "" : band);
        previous_band = band;
        if (!one_contender)
            cells.push_back(r.contender);
        cells.push_back(time_cell(r, compact));
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

const char* size_band_name(SizeBand band) {
    switch (band) {
        case SizeBand::l1:
            return "L1";
        case SizeBand::l2:
            return "L2";
        case SizeBand::l3:
            return "L3";
        case SizeBand::memory:
            return "memory";
        case SizeBand::beyond_l2:
            return ">L2";
    }
    return "?";
}

SizeBand size_band(std::uint64_t size, std::uint64_t l1d, std::uint64_t l2, std::uint64_t l3) {
    if (l1d > 0 && size <= l1d)
        return SizeBand::l1;
    if (l2 > 0 && size <= l2)
        return SizeBand::l2;
    if (l3 == 0)
        return l2 > 0 ? SizeBand::beyond_l2 : SizeBand::memory;
    return size <= l3 ? SizeBand::l3 : SizeBand::memory;
}

bool simulation_disagrees(Verdict time, const std::string& event, EventSource source,
                          double baseline, double contender, double floor) {
    if (source != EventSource::simulated || event.find("miss") == std::string::npos)
        return false;
    const double more = contender - baseline;
    return (time == Verdict::lower && more > floor) || (time == Verdict::higher && more < -floor);
}

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

std::vector<SkippedVariant> skipped_variants(const RunResult& result) {
    constexpr std::string_view prefix = "skipped: '";
    std::vector<SkippedVariant> out;
    for (const auto& w : result.warnings) {
        if (w.rfind(prefix, 0) != 0)
            continue;
        const auto end = w.find('\'', prefix.size());
        if (end == std::string::npos || end == prefix.size())
            continue;
        SkippedVariant v{w.substr(prefix.size(), end - prefix.size()), w.substr(prefix.size() - 1)};
        const bool known = std::any_of(out.begin(), out.end(),
                                       [&](const SkippedVariant& o) { return o.name == v.name; });
        if (!known)
            out.push_back(std::move(v));
    }
    return out;
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

Answer build_answer(const RunResult& result, const CompareOptions& options) {
    Answer answer;
    // The decoders measured end on end, in the order the result lists them.
    std::vector<std::string> decoders;
    std::vector<std::string> dists;
    for (const auto& b : result.benchmarks) {
        if (param_of(b, "workload") != "varint" || param_of(b, "shape") != "end-on-end")
            continue;
        const std::string v = param_of(b, "variant");
        if (std::find(decoders.begin(), decoders.end(), v) == decoders.end())
            decoders.push_back(v);
        const std::string d = param_of(b, "dist");
        if (std::find(dists.begin(), dists.end(), d) == dists.end())
            dists.push_back(d);
    }
    answer.several_dists = dists.size() > 1;
    // The run's own warnings that bear on every row (cold not cold, variants skipped); those
    // about one benchmark are counted, and read in the table.
    for (const auto& w : result.warnings) {
        const bool one_benchmark =
            w.find("varint/") != std::string::npos || w.find("memcpy/") != std::string::npos;
        const bool whole_run = w.find("skip") != std::string::npos || w.rfind("cold", 0) == 0 ||
                               w.find("cold cannot") != std::string::npos;
        if (whole_run && !one_benchmark)
            answer.notes.push_back(w);
        else
            ++answer.other_warnings;
    }
    if (decoders.size() < 2)
        return answer;
    // Whether "cold" is cold rests on the last-level size its rotation outgrows, or, without
    // one, on the eviction before every iteration: say which, and where the size came from.
    std::string found_by, cold_method = "rotation";
    for (const auto& [k, v] : result.context) {
        if (k == "l3_found_by")
            found_by = v;
        else if (k == "cold_method")
            cold_method = v;
    }
    const bool cold =
        std::any_of(result.benchmarks.begin(), result.benchmarks.end(),
                    [](const BenchmarkResult& b) { return param_of(b, "cache") == "cold"; });
    if (cold && cold_method != "rotation") {
        // Said here with the size's story; the suite's own warning would repeat it.
        std::erase_if(answer.notes,
                      [](const std::string& n) { return n.rfind("cold is evicted", 0) == 0; });
        answer.notes.insert(answer.notes.begin(),
                            fmt::format("cold data is evicted by {} before every iteration "
                                        "(timer paused), not rotated; last-level cache: {}",
                                        cold_method, found_by.empty() ? "unknown" : found_by));
    } else if (cold && !found_by.empty()) {
        const std::uint64_t l3_bytes = context_bytes(result, "l3_bytes");
        answer.notes.insert(
            answer.notes.begin(),
            l3_bytes > 0
                ? fmt::format("cold data rotates over 2x the last-level cache, {} ({})",
                              size_text(l3_bytes), found_by)
                : fmt::format("no last-level cache size ({}): cold is not cold", found_by));
    }
    const std::string baseline =
        std::find(decoders.begin(), decoders.end(), "branchy") != decoders.end() ? "branchy"
                                                                                 : decoders.front();
    const std::uint64_t l1d = context_bytes(result, "l1d_bytes");
    const std::uint64_t l2 = context_bytes(result, "l2_bytes");
    const std::uint64_t l3 = context_bytes(result, "l3_bytes");

    // memcpy's median time per item by (dist, cache, size): its speed of light there.
    std::map<std::tuple<std::string, std::string, std::uint64_t>, double> memcpy_ns;
    std::map<std::string, const BenchmarkResult*> by_name;
    for (const auto& b : result.benchmarks) {
        by_name[b.name] = &b;
        if (param_of(b, "workload") == "memcpy" && !b.ns_per_item.empty())
            memcpy_ns[{param_of(b, "dist"), param_of(b, "cache"), size_of(b)}] =
                median(b.ns_per_item);
    }

    std::vector<RowKey> order;
    std::map<RowKey, std::vector<SizePoint>> points;
    std::vector<Comparison> comparisons;  // owns what the points point into
    comparisons.reserve(decoders.size());
    for (const auto& contender : decoders) {
        if (contender == baseline)
            continue;
        comparisons.push_back(compare_within(result, "variant", baseline, contender, options));
        for (const auto& bc : comparisons.back().benchmarks) {
            const auto it = by_name.find(bc.baseline);
            if (it == by_name.end() || bc.metrics.empty() || !bc.metrics.front().is_time)
                continue;
            const BenchmarkResult& b = *it->second;
            if (param_of(b, "workload") != "varint" || param_of(b, "shape") != "end-on-end")
                continue;
            SizePoint p;
            p.size = size_of(b);
            p.time = &bc.metrics.front();
            for (const auto& name : kAnswerCounters) {
                const auto m = std::find_if(
                    bc.metrics.begin(), bc.metrics.end(),
                    [&](const MetricComparison& mc) { return !mc.is_time && mc.metric == name; });
                p.counters.push_back(m == bc.metrics.end() ? nullptr : &*m);
            }
            const auto copy = memcpy_ns.find({param_of(b, "dist"), param_of(b, "cache"), p.size});
            if (copy != memcpy_ns.end()) {
                if (p.time->baseline_median > 0)
                    p.baseline_of_memcpy = copy->second / p.time->baseline_median;
                if (p.time->contender_median > 0)
                    p.contender_of_memcpy = copy->second / p.time->contender_median;
            }
            RowKey key{param_of(b, "dist"), param_of(b, "cache"), size_band(p.size, l1d, l2, l3),
                       contender};
            if (!points.count(key))
                order.push_back(key);
            points[key].push_back(std::move(p));
        }
    }
    // Band by band, each band's decoders together, in the order the result lists them.
    std::vector<std::tuple<std::string, std::string, SizeBand>> bands;
    for (const auto& key : order) {
        const auto band = std::make_tuple(key.dist, key.cache, key.band);
        if (std::find(bands.begin(), bands.end(), band) == bands.end())
            bands.push_back(band);
    }
    const auto band_index = [&](const RowKey& key) {
        return std::find(bands.begin(), bands.end(),
                         std::make_tuple(key.dist, key.cache, key.band)) -
               bands.begin();
    };
    std::stable_sort(order.begin(), order.end(), [&](const RowKey& x, const RowKey& y) {
        return band_index(x) < band_index(y);
    });
    for (const auto& key : order)
        answer.rows.push_back(summarize(key, baseline, points[key]));
    for (const auto& e : result.events) {
        if (!e.counted)
            answer.not_counted.push_back(e.name);
    }
    return answer;
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
