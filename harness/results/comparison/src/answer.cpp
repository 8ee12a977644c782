// The answer of a run as typed data: the decoders' paired comparisons summarised per cache
// regime and size band, the run's notes that bear on every row, the skipped variants.
#include "perfgauge/harness/answer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "perfgauge/harness/size_text.hpp"
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
AnswerRow band_row(const RowKey& key, const std::string& baseline,
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

// The run's own warnings that bear on every row (cold not cold, variants skipped); those about
// one benchmark are counted, and read in the table.
void note_run_warnings(const RunResult& result, Answer& answer) {
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
}

// Whether "cold" is cold rests on the last-level size its rotation outgrows, or, without one,
// on the eviction before every iteration: said first among the notes, with where the size
// came from.
void note_cold(const RunResult& result, Answer& answer) {
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
                              detail::size_text(l3_bytes), found_by)
                : fmt::format("no last-level cache size ({}): cold is not cold", found_by));
    }
}

// memcpy's median time per item by (dist, cache, size): its speed of light there.
using MemcpyTimes = std::map<std::tuple<std::string, std::string, std::uint64_t>, double>;

MemcpyTimes memcpy_times(const RunResult& result) {
    MemcpyTimes memcpy_ns;
    for (const auto& b : result.benchmarks) {
        if (param_of(b, "workload") == "memcpy" && !b.ns_per_item.empty())
            memcpy_ns[{param_of(b, "dist"), param_of(b, "cache"), size_of(b)}] =
                median(b.ns_per_item);
    }
    return memcpy_ns;
}

// One size of a row: benchmark `b` as its paired comparison `bc` compared it, against memcpy.
SizePoint size_point(const BenchmarkResult& b, const BenchmarkComparison& bc,
                     const MemcpyTimes& memcpy_ns) {
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
    return p;
}

// Band by band, each band's decoders together, in the order the result lists them.
void order_by_band(std::vector<RowKey>& order) {
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
}

}  // namespace

std::string detail::size_text(std::uint64_t bytes) {
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
    note_run_warnings(result, answer);
    if (decoders.size() < 2)
        return answer;
    note_cold(result, answer);
    const std::string baseline =
        std::find(decoders.begin(), decoders.end(), "branchy") != decoders.end() ? "branchy"
                                                                                 : decoders.front();
    const std::uint64_t l1d = context_bytes(result, "l1d_bytes");
    const std::uint64_t l2 = context_bytes(result, "l2_bytes");
    const std::uint64_t l3 = context_bytes(result, "l3_bytes");

    const MemcpyTimes memcpy_ns = memcpy_times(result);
    std::map<std::string, const BenchmarkResult*> by_name;
    for (const auto& b : result.benchmarks)
        by_name[b.name] = &b;

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
            SizePoint p = size_point(b, bc, memcpy_ns);
            RowKey key{param_of(b, "dist"), param_of(b, "cache"), size_band(p.size, l1d, l2, l3),
                       contender};
            if (!points.count(key))
                order.push_back(key);
            points[key].push_back(std::move(p));
        }
    }
    order_by_band(order);
    for (const auto& key : order)
        answer.rows.push_back(band_row(key, baseline, points[key]));
    for (const auto& e : result.events) {
        if (!e.counted)
            answer.not_counted.push_back(e.name);
    }
    return answer;
}

}  // namespace perfgauge::harness
