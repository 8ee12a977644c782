#include "perfgauge/harness/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/pmu/event_name.hpp"

namespace perfgauge::harness {

namespace {

// Events whose per-item values count executed work: a difference of less than one of them per
// item (the default floor) is not worth a verdict.
bool counts_work(const std::string& event) {
    const std::string base(pmu::without_modifiers(event));
    static const std::set<std::string> work = {"instructions", "cycles",   "cpu-cycles",
                                               "ref-cycles",   "branches", "branch-instructions"};
    return work.count(base) > 0;
}

std::size_t event_index(const RunResult& r, const std::string& event) {
    const auto it = std::find_if(r.events.begin(), r.events.end(),
                                 [&](const EventColumn& e) { return e.name == event; });
    return static_cast<std::size_t>(it - r.events.begin());
}

// Counted on both sides, by the same kind of source (never hw against sim).
bool comparable(const RunResult& a, std::size_t i, const RunResult& b, std::size_t j) {
    return j < b.events.size() && a.events[i].counted && b.events[j].counted &&
           a.events[i].source == b.events[j].source;
}

BenchmarkComparison compare_benchmarks(const RunResult& rb, const BenchmarkResult& b,
                                       const RunResult& rc, const BenchmarkResult& c,
                                       std::string name, const CompareOptions& options) {
    BenchmarkComparison out{std::move(name), b.name, c.name, {}};
    out.metrics.push_back(compare_samples("time", true, b.ns_per_item, c.ns_per_item, options));
    for (std::size_t i = 0; i < rb.events.size(); ++i) {
        const std::size_t j = event_index(rc, rb.events[i].name);
        if (!comparable(rb, i, rc, j))
            continue;
        out.metrics.push_back(compare_samples(rb.events[i].name, false, b.counters_per_item[i],
                                              c.counters_per_item[j], options));
        out.metrics.back().source = rb.events[i].source;
    }
    return out;
}

void note_event_differences(const RunResult& a, const RunResult& b, Comparison& c) {
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const std::size_t j = event_index(b, a.events[i].name);
        if (!a.events[i].counted || j == b.events.size() || !b.events[j].counted) {
            c.notes.push_back(
                fmt::format("{}: not counted on both sides, not compared", a.events[i].name));
        } else if (!comparable(a, i, b, j)) {
            c.notes.push_back(fmt::format(
                "{}: {} in the baseline, {} in the contender; simulated and hardware counts "
                "are different measurements, not compared",
                a.events[i].name, source_name(a.events[i].source),
                source_name(b.events[j].source)));
        }
    }
}

std::string param(const BenchmarkResult& b, const std::string& key) {
    for (const auto& [k, v] : b.params) {
        if (k == key)
            return v;
    }
    return {};
}

// The benchmark's identity without one param: its other params, in order.
std::string key_without(const BenchmarkResult& b, const std::string& param_key) {
    std::string key;
    for (const auto& [k, v] : b.params) {
        if (k != param_key)
            key += k + "=" + v + ";";
    }
    return key;
}

// "varint/branchy/log-uniform/..." -> "varint/log-uniform/...": the name without a value.
std::string name_without(const std::string& name, const std::string& variant) {
    std::string out;
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t end = std::min(name.find('/', start), name.size());
        const std::string part = name.substr(start, end - start);
        if (part != variant)
            out += (out.empty() ? "" : "/") + part;
        start = end + 1;
    }
    return out;
}

}  // namespace

MetricComparison compare_samples(std::string metric, bool is_time,
                                 const std::vector<double>& baseline,
                                 const std::vector<double>& contender,
                                 const CompareOptions& options) {
    MetricComparison m;
    m.metric = std::move(metric);
    m.is_time = is_time;
    m.baseline_samples = baseline.size();
    m.contender_samples = contender.size();
    if (baseline.empty() || contender.empty()) {
        m.verdict = Verdict::too_few_samples;
        return m;
    }
    m.baseline_median = median(baseline);
    m.contender_median = median(contender);
    if (m.baseline_median != 0) {
        m.ratio = m.contender_median / m.baseline_median;
        m.change_pct = 100 * (m.ratio - 1);
    }
    m.shift = hodges_lehmann_shift(baseline, contender);
    m.p_value = mann_whitney_u(baseline, contender).p_value;
    if (baseline.size() < options.min_samples || contender.size() < options.min_samples) {
        m.verdict = Verdict::too_few_samples;
        return m;
    }
    const double delta = m.contender_median - m.baseline_median;
    const double relative =
        m.baseline_median != 0 ? std::fabs(delta / m.baseline_median) : (delta != 0 ? 1.0 : 0.0);
    const bool above_floor =
        relative >= options.min_change &&
        (is_time || !counts_work(m.metric) || std::fabs(delta) >= options.min_work_delta);
    if (m.p_value < options.alpha && above_floor && delta != 0)
        m.verdict = delta < 0 ? Verdict::lower : Verdict::higher;
    else
        m.verdict = Verdict::no_difference;
    return m;
}

Comparison compare_results(const RunResult& baseline, const RunResult& contender,
                           const CompareOptions& options) {
    Comparison c;
    c.options = options;
    std::map<std::string, const BenchmarkResult*> by_name;
    for (const auto& b : contender.benchmarks)
        by_name[b.name] = &b;
    std::set<std::string> matched;
    for (const auto& b : baseline.benchmarks) {
        const auto it = by_name.find(b.name);
        if (it == by_name.end()) {
            c.notes.push_back(fmt::format("{}: only in the baseline", b.name));
            continue;
        }
        matched.insert(b.name);
        c.benchmarks.push_back(
            compare_benchmarks(baseline, b, contender, *it->second, b.name, options));
    }
    for (const auto& b : contender.benchmarks) {
        if (!matched.count(b.name))
            c.notes.push_back(fmt::format("{}: only in the contender", b.name));
    }
    note_event_differences(baseline, contender, c);
    return c;
}

Comparison compare_within(const RunResult& result, const std::string& param_key,
                          const std::string& baseline_value, const std::string& contender_value,
                          const CompareOptions& options) {
    Comparison c;
    c.options = options;
    c.baseline_label = baseline_value;
    c.contender_label = contender_value;
    std::map<std::string, const BenchmarkResult*> contenders;
    for (const auto& b : result.benchmarks) {
        if (param(b, param_key) == contender_value)
            contenders[key_without(b, param_key)] = &b;
    }
    for (const auto& b : result.benchmarks) {
        if (param(b, param_key) != baseline_value)
            continue;
        const auto it = contenders.find(key_without(b, param_key));
        if (it == contenders.end()) {
            c.notes.push_back(fmt::format("{}: no {} counterpart", b.name, contender_value));
            continue;
        }
        c.benchmarks.push_back(compare_benchmarks(result, b, result, *it->second,
                                                  name_without(b.name, baseline_value), options));
    }
    note_event_differences(result, result, c);
    return c;
}

}  // namespace perfgauge::harness
