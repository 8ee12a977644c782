#include "perfgauge/harness/compare.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/pmu/event_name.hpp"

namespace perfgauge::harness {

namespace {

// A change on the log-ratio scale and its interval, in the metric's unit: back on the baseline's
// median, base * (ratio - 1), so that the verdict asks whether the ratio clears 1 +- min_change
// (and a ratio, never below 0, never reads below -100%).
void log_to_metric_unit(double base, double& shift, Interval& ci) {
    const auto back = [base](double log_ratio) { return base * std::expm1(log_ratio); };
    shift = back(shift);
    ci.low = back(ci.low);
    ci.high = back(ci.high);
}

// A change of paired values and its interval, in the metric's unit: log ratios as above;
// differences already are in it.
void to_metric_unit(const PairChanges& changes, double base, double& shift, Interval& ci) {
    if (changes.logarithmic)
        log_to_metric_unit(base, shift, ci);
}

bool all_positive(std::span<const double> x) {
    return !x.empty() &&
           std::all_of(x.begin(), x.end(), [](double v) { return v > 0 && std::isfinite(v); });
}

bool all_non_negative(std::span<const double> x) {
    return std::all_of(x.begin(), x.end(), [](double v) { return v >= 0; });
}

// An interval on differences of values that cannot be negative: the contender's median is at
// least 0, so a change below -100% of the baseline's median is impossible and is cut off (the
// true change, inside the interval, is inside what is left).
void bound_below(MetricComparison& m) {
    if (!m.ratio_scale && m.non_negative && m.baseline_median > 0)
        m.ci_low = std::max(m.ci_low, -m.baseline_median);
}

void decide(MetricComparison& m) {
    if (m.ci_low > m.threshold)
        m.verdict = Verdict::higher;
    else if (m.ci_high < -m.threshold)
        m.verdict = Verdict::lower;
    else if (m.equivalence_shown && m.ci_low >= -m.threshold && m.ci_high <= m.threshold)
        m.verdict = Verdict::equivalent;
    else
        m.verdict = Verdict::inconclusive;
}

bool is_clock_event(const std::string& event) {
    const std::string base(pmu::without_modifiers(event));
    return base == "task-clock" || base == "cpu-clock" || base == "duration_time";
}

// The absolute floor per item for a counter: what it counts decides what change is noise.
double per_item_floor(const std::string& event, const CompareOptions& o) {
    std::string base(pmu::without_modifiers(event));
    std::transform(base.begin(), base.end(), base.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static const std::set<std::string> clocks = {"task-clock", "cpu-clock", "duration_time"};
    static const std::set<std::string> rare = {"context-switches", "cs",
                                               "cpu-migrations",   "migrations",
                                               "page-faults",      "faults",
                                               "minor-faults",     "major-faults",
                                               "alignment-faults", "emulation-faults"};
    if (clocks.count(base))
        return 0;  // time in ns: relative threshold only, like wall time
    if (rare.count(base) || (base.find(':') != std::string::npos &&
                             base.find("::") == std::string::npos))  // a tracepoint
        return o.min_rare_delta;
    const bool work = base.find("instructions") != std::string::npos ||
                      base.find("cycles") != std::string::npos || base == "branches" ||
                      base.ends_with("::branches");
    if (work && base.find("miss") == std::string::npos)
        return o.min_work_delta;
    return o.min_miss_delta;
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

// Sample indices of `b` and `c` taken in the same interleaved round, in round order (a round
// where either side's sample was disturbed has no pair).
std::vector<std::pair<std::size_t, std::size_t>> same_rounds(const BenchmarkResult& b,
                                                             const BenchmarkResult& c) {
    std::map<std::size_t, std::size_t> in_c;
    for (std::size_t k = 0; k < c.ns_per_item.size(); ++k)
        in_c.emplace(round_of(c, k), k);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t k = 0; k < b.ns_per_item.size(); ++k) {
        if (const auto it = in_c.find(round_of(b, k)); it != in_c.end())
            pairs.emplace_back(k, it->second);
    }
    return pairs;
}

// Widens `m`'s interval by the machine's drift, `log_drift` = |log(probe ratio)|: the code's
// ratio is the one measured divided by the machine's, which the probes put within a factor of
// exp(log_drift) either way. On the ratio scale the interval's ratios are divided and multiplied
// by that factor (never reaching 0); on differences it widens by the same share of the
// baseline's median on both ends, cut at -100% for values that cannot be negative.
void widen_by_drift(MetricComparison& m, double log_drift) {
    const double base = m.baseline_median;
    if (m.ratio_scale && base > 0) {
        m.ci_low = base * ((1 + m.ci_low / base) * std::exp(-log_drift) - 1);
        m.ci_high = base * ((1 + m.ci_high / base) * std::exp(log_drift) - 1);
    } else {
        const double widen = std::expm1(log_drift) * std::fabs(base);
        m.ci_low -= widen;
        m.ci_high += widen;
        bound_below(m);
    }
    decide(m);
}

BenchmarkComparison compare_benchmarks(const RunResult& rb, const BenchmarkResult& b,
                                       const RunResult& rc, const BenchmarkResult& c,
                                       std::string name, const CompareOptions& options,
                                       Method method, double time_drift = 0) {
    BenchmarkComparison out{std::move(name), b.name, c.name, {}};
    const SampleRuns runs{b.processes, c.processes};  // paired runs: process i is run i
    const auto pairs = method == Method::paired
                           ? same_rounds(b, c)
                           : std::vector<std::pair<std::size_t, std::size_t>>{};
    if (method == Method::paired && pairs.size() < options.min_samples)
        method = Method::independent;  // too few shared rounds: compare as two sample sets
    // Independent: blocks of consecutive samples for batch means (drift within a run and
    // differences between its processes widen the interval); pairs need none.
    const bool independent = method != Method::paired;
    const auto b_blocks = independent ? time_blocks(b) : std::vector<std::size_t>{};
    const auto c_blocks = independent ? time_blocks(c) : std::vector<std::size_t>{};
    const SampleBlocks blocks{b_blocks, c_blocks};
    // Paired: the samples of shared rounds, aligned; otherwise every sample.
    auto compare = [&](std::string metric, bool is_time, const std::vector<double>& x,
                       const std::vector<double>& y, bool simulated = false) {
        if (simulated)
            return compare_samples(std::move(metric), is_time, x, y, options,
                                   Method::deterministic);
        if (independent)
            return compare_samples(std::move(metric), is_time, x, y, options, method, &blocks,
                                   &runs);
        std::vector<double> xs, ys;
        for (const auto& [i, j] : pairs) {
            xs.push_back(x[i]);
            ys.push_back(y[j]);
        }
        return compare_samples(std::move(metric), is_time, xs, ys, options, method);
    };
    out.metrics.push_back(compare("time", true, b.ns_per_item, c.ns_per_item));
    // A command's CPU time (user+system) tells work from waiting, which wall time mixes; a
    // Google Benchmark file's cpu_time likewise (its compare.py reports Time and CPU). A run
    // result's CPU time is its samples' health check, not a second measurement of the work.
    if (rb.kind != ResultKind::run && !b.cpu_ns_per_item.empty() &&
        b.cpu_ns_per_item.size() == b.ns_per_item.size() &&
        c.cpu_ns_per_item.size() == c.ns_per_item.size())
        out.metrics.push_back(compare("cpu-time", true, b.cpu_ns_per_item, c.cpu_ns_per_item));
    for (std::size_t i = 0; i < rb.events.size(); ++i) {
        const std::size_t j = event_index(rc, rb.events[i].name);
        if (!comparable(rb, i, rc, j))
            continue;
        // A Google Benchmark counter some benchmarks of a file report and this one does not.
        if (b.counters_per_item[i].size() != b.ns_per_item.size() ||
            c.counters_per_item[j].size() != c.ns_per_item.size())
            continue;
        const bool simulated = rb.events[i].source == EventSource::simulated;
        out.metrics.push_back(compare(rb.events[i].name, false, b.counters_per_item[i],
                                      c.counters_per_item[j], simulated));
        out.metrics.back().source = rb.events[i].source;
    }
    for (auto& m : out.metrics)
        m.per = std::string(sample_unit(rb.kind));
    // Times (and CPU clocks) also move when the machine does: the interval widens by that drift
    // on both sides, so a change within it is inconclusive rather than "equivalent". Paired
    // runs cancel it pair by pair; a metric that could not be paired is widened like any other.
    // A between-run floor replaces it: the probes are a proxy whose drift between two runs went
    // up to 8.8% while identical work's medians moved 1% (docs/cli/compare.md); the floor is that
    // very movement, measured.
    for (auto& m : out.metrics) {
        if (time_drift > 0 && m.verdict != Verdict::too_few_samples &&
            m.method != Method::paired_runs && m.between_run_sd == 0 &&
            (m.is_time || is_clock_event(m.metric)))
            widen_by_drift(m, time_drift);
    }
    return out;
}

// A pausing benchmark timed apart from its counter snapshots on one side only (an older build,
// or a machine whose snapshots are no system call): its time there includes what the snapshots
// cost the work after them, or had a constant subtracted for it - a difference of method.
void note_timed_apart_on_one_side(const BenchmarkResult& b, const BenchmarkResult& k,
                                  Comparison& c) {
    if (b.snapshot_pause_ns.empty() == k.snapshot_pause_ns.empty())
        return;
    const bool in_baseline = !b.snapshot_pause_ns.empty();
    const double per_pause = median_snapshot_pause_ns(in_baseline ? b : k);
    c.notes.push_back(fmt::format(
        "{}: timed apart from its counter snapshots in the {} only (perfgauge_snapshot_pause_ns: "
        "{}): part of its time's change may be how the pauses were measured, not the code",
        b.name, in_baseline ? "baseline" : "contender",
        std::isfinite(per_pause) ? fmt::format("{:.0f} ns a pause", per_pause) : "no figure"));
}

// Which side did not count an event, and why (once when both say the same).
std::string not_counted_where(const EventColumn& a, const EventColumn* b) {
    if (b == nullptr)
        return "not in the contender";
    const std::string why_a = refusal_text(a), why_b = refusal_text(*b);
    if (!a.counted && !b->counted) {
        return why_a == why_b
                   ? fmt::format("not counted on either side ({})", why_a)
                   : fmt::format("not counted in the baseline ({}) nor in the contender ({})",
                                 why_a, why_b);
    }
    return !a.counted ? fmt::format("not counted in the baseline ({})", why_a)
                      : fmt::format("not counted in the contender ({})", why_b);
}

void note_event_differences(const RunResult& a, const RunResult& b, Comparison& c) {
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const std::size_t j = event_index(b, a.events[i].name);
        if (!a.events[i].counted || j == b.events.size() || !b.events[j].counted) {
            c.notes.push_back(fmt::format(
                "{}: {}, not compared", a.events[i].name,
                not_counted_where(a.events[i], j == b.events.size() ? nullptr : &b.events[j])));
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

const char* method_name(Method method) {
    switch (method) {
        case Method::paired:
            return "paired";
        case Method::independent:
            return "independent";
        case Method::deterministic:
            return "deterministic";
        case Method::paired_runs:
            return "paired-runs";
    }
    return "?";
}

const char* ratio_of(const MetricComparison& m) {
    switch (m.method) {
        case Method::paired:
            return "rounds";
        case Method::paired_runs:
            return "runs";
        default:
            return "medians";
    }
}

bool medians_disagree(const MetricComparison& m) {
    if (std::string_view(ratio_of(m)) == "medians" || !(m.baseline_median > 0) ||
        m.verdict == Verdict::too_few_samples)
        return false;
    const double medians = m.contender_median / m.baseline_median;
    return medians < 1 + m.ci_low / m.baseline_median ||
           medians > 1 + m.ci_high / m.baseline_median;
}

std::size_t min_sign_test_pairs(double confidence) {
    std::size_t n = 1;
    while (std::ldexp(2.0, -static_cast<int>(n)) > 1 - confidence)
        ++n;
    return n;
}

double across_half_width(double within, double run_sd, double z) {
    return std::hypot(std::max(within, 0.0), z * run_sd);
}

std::optional<double> median_pair_half_width(std::span<const double> pair_changes,
                                             double confidence) {
    if (pair_changes.size() < min_sign_test_pairs(confidence))
        return std::nullopt;
    const Interval ci = median_interval(pair_changes, confidence);
    return (ci.high - ci.low) / 2;
}

namespace {

// The two sides' medians, their ratio and the threshold a verdict must exceed; the verdict
// too_few_samples when a side has no sample (every one disturbed).
MetricComparison medians_and_threshold(std::string metric, bool is_time,
                                       const std::vector<double>& baseline,
                                       const std::vector<double>& contender,
                                       const CompareOptions& options) {
    MetricComparison m;
    m.metric = std::move(metric);
    m.is_time = is_time;
    m.baseline_samples = baseline.size();
    m.contender_samples = contender.size();
    // A side without a sample (every one disturbed) has no median; the other side's is still
    // worth showing.
    if (!baseline.empty())
        m.baseline_median = median(baseline);
    if (!contender.empty())
        m.contender_median = median(contender);
    if (baseline.empty() || contender.empty()) {
        m.verdict = Verdict::too_few_samples;
        return m;
    }
    if (m.baseline_median != 0) {
        m.ratio = m.contender_median / m.baseline_median;
        m.change_pct = 100 * (m.ratio - 1);
    }
    const double floor = is_time ? 0.0 : per_item_floor(m.metric, options);
    m.threshold = std::max(options.min_change * std::fabs(m.baseline_median), floor);
    return m;
}

bool all_equal(const std::vector<double>& x) {
    return std::all_of(x.begin(), x.end(), [&](double v) { return v == x.front(); });
}

// The interval of runs paired run by run (`run_changes`, kMinPairedRuns or more pairs).
Interval paired_runs_interval(MetricComparison& m, const PairChanges& run_changes,
                              double confidence) {
    Interval ci;
    // Runs taken in turn: run i of one side shared the machine's state with run i of the
    // other, so the run-to-run changes one run cannot show cancel within each pair and
    // the pairs' changes vary only by what the pairing did not cancel: log ratios of
    // times (the host's speed scales a run), differences of counts. Their median and its
    // sign-test interval once there are pairs enough for one (6 at 95%): a pair whose
    // process landed in a slow state (a 2x flip is common on a shared host) does not
    // move the median, and from 9 pairs on one such pair at each end is left outside
    // the interval (6 to 8 pairs give [min, max]), where it would widen a mean's
    // interval however many pairs there are. Fewer pairs have no distribution-free
    // interval at that confidence: Student's t over their mean.
    m.method = Method::paired_runs;
    m.run_pairs = run_changes.values.size();
    m.log_ratio_pairs = run_changes.logarithmic;
    ci = median_interval(run_changes.values, confidence);
    m.run_pairs_median = ci.confidence >= confidence;
    if (m.run_pairs_median) {
        m.shift = median(run_changes.values);
    } else {
        ci = mean_interval(run_changes.values, confidence);
        m.shift = (ci.low + ci.high) / 2;
    }
    to_metric_unit(run_changes, m.baseline_median, m.shift, ci);
    return ci;
}

// The interval of samples paired round by round (equal counts, in round order).
Interval paired_rounds_interval(MetricComparison& m, const std::vector<double>& baseline,
                                const std::vector<double>& contender, double confidence) {
    Interval ci;
    // Same interleaved round, same conditions: the per-round ratios of times (the host's
    // speed in a round scales both) and differences of counts cancel drift. The median
    // and its sign-test interval are order statistics: taken on the logarithms, they are
    // the median ratio and its interval.
    const PairChanges changes =
        pair_changes(PairedValues{baseline, contender}, m.is_time || is_clock_event(m.metric));
    m.method = Method::paired;
    m.log_ratio_pairs = changes.logarithmic;
    m.shift = median(changes.values);
    ci = median_interval(changes.values, confidence);
    to_metric_unit(changes, m.baseline_median, m.shift, ci);
    return ci;
}

// What separates the two runs, beyond the sampling noise `ci` holds (the Moses interval). Where
// the machine's between-run floor is known (a time on the ratio scale), it is that very noise,
// measured: the runs' difference has sd F / 0.6745, or the larger spread between a side's blocks
// where a benchmark moves more than the machine's floor, and it adds to the sampling noise in
// quadrature - in place of the batch-means interval (Welch's t over as few as 2 blocks a side
// made it 20-30% wide on a busy machine) and of the probes' drift (compare_benchmarks). Where it
// is not known, the interval spans the batch-means interval and widens by the blocks' spread:
// what moves one block of a run against another moves whole runs too, and no run shows how much.
void widen_across_runs(MetricComparison& m, Interval& ci, const std::optional<BlockMeans>& bb,
                       const std::optional<BlockMeans>& cb, double confidence, double floor) {
    const double run_to_run = std::max(bb ? bb->spread : 0.0, cb ? cb->spread : 0.0);
    if (floor > 0 && m.ratio_scale && (m.is_time || is_clock_event(m.metric))) {
        m.between_run_sd = std::max(kFloorToSd * floor, run_to_run);
        const double z = normal_quantile(1 - (1 - confidence) / 2);
        ci.low = m.shift - across_half_width(m.shift - ci.low, m.between_run_sd, z);
        ci.high = m.shift + across_half_width(ci.high - m.shift, m.between_run_sd, z);
        return;
    }
    if (bb && cb) {
        const Interval batch = block_shift_interval(*bb, *cb, confidence);
        ci.low = std::min(ci.low, batch.low);
        ci.high = std::max(ci.high, batch.high);
    }
    ci.low -= run_to_run;
    ci.high += run_to_run;
}

// The interval of two independent sample sets (two runs), widened by their blocks' spread;
// a side too short for blocks raises the threshold instead.
Interval independent_interval(MetricComparison& m, const std::vector<double>& baseline,
                              const std::vector<double>& contender, const SampleBlocks* blocks,
                              double confidence, double floor) {
    Interval ci;
    // Two runs: the Hodges-Lehmann shift and its Moses interval, which treats every
    // sample as an independent draw; a run's neighbouring samples share the machine's
    // state, so the interval also spans batch means over blocks of consecutive samples.
    // Taken on the logarithms when every value is positive (the ratio scale: a host's
    // speed scales times, and no ratio reaches 0, so the interval mapped back never
    // reaches -100% however wide the blocks' spread makes it); on the values otherwise.
    m.method = Method::independent;
    m.ratio_scale = all_positive(baseline) && all_positive(contender);
    const auto on_scale = [&](const std::vector<double>& values) {
        std::vector<double> out = values;
        if (m.ratio_scale)
            std::transform(out.begin(), out.end(), out.begin(),
                           [](double v) { return std::log(v); });
        return out;
    };
    const std::vector<double> xb = on_scale(baseline), xc = on_scale(contender);
    m.shift = hodges_lehmann_shift(xb, xc);
    ci = shift_interval(xb, xc, confidence);
    const auto side_blocks = [&](const std::vector<double>& values,
                                 std::span<const std::size_t> block) {
        return blocks != nullptr && block.size() == values.size() ? block_means(values, block)
                                                                  : std::nullopt;
    };
    const auto bb = side_blocks(xb, blocks ? blocks->baseline : std::span<const std::size_t>{});
    const auto cb = side_blocks(xc, blocks ? blocks->contender : std::span<const std::size_t>{});
    widen_across_runs(m, ci, bb, cb, confidence, floor);
    if (m.ratio_scale)
        log_to_metric_unit(m.baseline_median, m.shift, ci);
    m.baseline_blocks = bb ? bb->blocks : 0;
    m.contender_blocks = cb ? cb->blocks : 0;
    // A side too short for two blocks cannot show drift: its own spread is the least
    // run-to-run noise to expect, and a threshold that rests on it cannot support
    // "equivalent" (a real change within one IQR would read as none).
    const double before = m.threshold;
    for (const auto& [side, has_blocks] :
         {std::pair{&baseline, bb.has_value()}, std::pair{&contender, cb.has_value()}}) {
        const Summary s = summarize(*side);
        if (!has_blocks && std::isfinite(s.iqr))
            m.threshold = std::max(m.threshold, s.iqr);
    }
    m.equivalence_shown = m.threshold == before;
    return ci;
}

// A comparison by a test of the samples (not deterministic): the p-value, the shift and its
// interval by `method` as compare_samples says. False when there are too few samples for it.
bool compare_by_test(MetricComparison& m, const std::vector<double>& baseline,
                     const std::vector<double>& contender, const CompareOptions& options,
                     Method method, const SampleBlocks* blocks, const SampleRuns* runs) {
    m.p_value = mann_whitney_u(baseline, contender).p_value;
    const PairChanges run_changes =
        method == Method::paired_runs && runs != nullptr &&
                runs->baseline.size() == baseline.size() &&
                runs->contender.size() == contender.size()
            ? pair_changes(run_median_pairs(baseline, runs->baseline, contender, runs->contender),
                           m.is_time || is_clock_event(m.metric))
            : PairChanges{};
    const bool runs_paired = run_changes.values.size() >= kMinPairedRuns;
    // Paired runs rest on the pairs, not on the pooled count: 3 runs of one sample a side
    // (stat -r 1, one Google Benchmark repetition) are 3 pairs.
    if (!runs_paired &&
        (baseline.size() < options.min_samples || contender.size() < options.min_samples))
        return false;
    const double confidence = 1 - options.alpha;
    Interval ci;
    if (runs_paired)
        ci = paired_runs_interval(m, run_changes, confidence);
    else if (method == Method::paired && baseline.size() == contender.size())
        ci = paired_rounds_interval(m, baseline, contender, confidence);
    else
        ci = independent_interval(m, baseline, contender, blocks, confidence,
                                  options.between_run_floor);
    // Paired: the change the verdict rests on is the pairs' (median ratio of the rounds,
    // mean ratio of the runs), so ratio and change follow it (the regression gate reads
    // them): the pooled medians of runs lean towards the side whose slow runs took more
    // samples, and a median of ratios is not the ratio of medians.
    if ((m.method == Method::paired || m.method == Method::paired_runs) && m.baseline_median != 0) {
        m.ratio = 1 + m.shift / m.baseline_median;
        m.change_pct = 100 * (m.ratio - 1);
    }
    m.ci_low = ci.low;
    m.ci_high = ci.high;
    m.confidence = ci.confidence;
    if (m.method != Method::independent)
        m.ratio_scale = m.log_ratio_pairs;
    m.non_negative = all_non_negative(baseline) && all_non_negative(contender);
    bound_below(m);
    return true;
}

}  // namespace

MetricComparison compare_samples(std::string metric, bool is_time,
                                 const std::vector<double>& baseline,
                                 const std::vector<double>& contender,
                                 const CompareOptions& options, Method method,
                                 const SampleBlocks* blocks, const SampleRuns* runs) {
    MetricComparison m =
        medians_and_threshold(std::move(metric), is_time, baseline, contender, options);
    if (m.verdict == Verdict::too_few_samples)
        return m;
    // Simulated counts (the caller says so) are exact whatever their number; other constant
    // counts only when there are enough of them to show they do not vary; times never are.
    const bool enough =
        baseline.size() >= options.min_samples && contender.size() >= options.min_samples;
    if (!is_time && (method == Method::deterministic || enough) && all_equal(baseline) &&
        all_equal(contender)) {
        // Simulated counts (one value copied into every sample): the difference is exact and a
        // test of it would be meaningless.
        m.method = Method::deterministic;
        m.shift = m.ci_low = m.ci_high = m.contender_median - m.baseline_median;
        m.confidence = 1;
    } else if (!compare_by_test(m, baseline, contender, options, method, blocks, runs)) {
        m.verdict = Verdict::too_few_samples;
        return m;
    }
    decide(m);
    return m;
}

namespace {

// What a between-run floor does to the times across two results, for a note.
std::string floor_note(const CompareOptions& o) {
    const double z = normal_quantile(1 - o.alpha / 2);
    return fmt::format(
        "between-run floor {:.2f}% (--floor): each time's interval widens by the noise between "
        "two runs it stands for (±{:.1f}% at {:g}%; a benchmark whose blocks move more, by "
        "theirs), added in quadrature to its samples' own interval, instead of by batch means "
        "and the blocks' spread",
        100 * o.between_run_floor, 100 * std::expm1(z * kFloorToSd * o.between_run_floor),
        100 * (1 - o.alpha));
}

// How much faster or slower the machine itself was in the contender's run: perfgauge's fixed
// probes (the same work in both runs) - the fastest dependent chain, and the median of the
// copies that share a core's bandwidth with a busy sibling thread - whichever moved more. The
// interval of every time widens by it (0 within --min-change; with paired runs only the times
// that could not be paired). Records the drift in `c` and says what it found in `notes`;
// returns |log(1 + drift)| (0: no widening), the factor widen_by_drift applies.
double machine_drift(const RunResult& baseline, const RunResult& contender, Comparison& c,
                     bool paired_runs, std::vector<std::string>& notes) {
    const double a = baseline.machine_probe_ns, b = contender.machine_probe_ns;
    const bool floor = c.options.between_run_floor > 0;  // paired runs: for the unpaired
    if (floor && (baseline.kind != ResultKind::run || !(a > 0) || !(b > 0))) {
        notes.push_back(floor_note(c.options) + " (no machine probe on both sides)");
        return 0;
    }
    if (baseline.kind != ResultKind::run) {
        notes.push_back(fmt::format(
            "{}s carry no machine probe (perfgauge run records one): a change of the machine's "
            "speed between the two runs cannot be told from a change of the code",
            std::string(kind_description(baseline.kind)).substr(2)));
        return 0;
    }
    if (!(a > 0) || !(b > 0)) {
        notes.push_back(
            "no machine probe on both sides (results from an older perfgauge): a change of the "
            "machine's speed between the runs cannot be told from a change of the code");
        return 0;
    }
    double drift = b / a - 1;
    std::string which = "fixed chain";
    const double ca = baseline.machine_copy_probe_ns, cb = contender.machine_copy_probe_ns;
    if (ca > 0 && cb > 0 && std::fabs(cb / ca - 1) > std::fabs(drift)) {
        drift = cb / ca - 1;
        which = "fixed copy";
    }
    c.machine_drift = drift;
    if (floor) {
        notes.push_back(floor_note(c.options) +
                        fmt::format(", nor by perfgauge's machine probes, which moved {:+.1f}% "
                                    "({} probe)",
                                    100 * drift, which));
        return std::fabs(std::log1p(drift));  // only for a time the floor could not widen
    }
    if (std::fabs(drift) > c.options.min_change) {
        // Where nothing was paired, say how to see a smaller change: runs taken in turn pair
        // processes whose machine was the same, which cancels the drift.
        notes.push_back(fmt::format(
            "the machine itself was {:+.1f}% in the contender's run (perfgauge's {} probe, "
            "the same work in both): {} widened by ±{:.1f}%{}",
            100 * drift, which,
            paired_runs ? "the intervals of the times not paired are" : "every time's interval is",
            100 * std::fabs(drift),
            paired_runs ? ""
                        : "; to see a smaller change, measure the two builds in turn "
                          "(perfgauge run --against OTHER), whose pairs cancel it"));
        return std::fabs(std::log1p(drift));  // a factor: widen_by_drift
    }
    return 0;  // within what the probes themselves wander
}

// Up to 8 names, and how many more.
struct Named {
    static constexpr std::size_t kNamed = 8;
    std::vector<std::string> names;
    std::size_t count = 0;
    void add(const std::string& name) {
        if (++count <= kNamed)
            names.push_back(name);
    }
    std::string list() const {
        return fmt::format("{}{}", fmt::join(names, "; "),
                           count > kNamed ? fmt::format("; and {} more", count - kNamed) : "");
    }
};

// Paired times are compared by their ratios unless a value was not positive; such times are
// named, since the verdict then rests on differences.
void note_times_paired_by_difference(Comparison& c) {
    Named by_difference;
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            const bool paired = m.method == Method::paired || m.method == Method::paired_runs;
            if (paired && (m.is_time || is_clock_event(m.metric)) && !m.log_ratio_pairs)
                by_difference.add(b.name + " " + m.metric);
        }
    }
    if (by_difference.count > 0) {
        c.notes.push_back(
            fmt::format("{} time{} paired by differences, not ratios (a value was not positive: a "
                        "correction larger than the time): {}",
                        by_difference.count, by_difference.count == 1 ? " was" : "s were",
                        by_difference.list()));
    }
}

// With paired runs: the metrics that fell back to blocks of samples (too few runs with samples on
// both sides), by name, and what the probes said about the machine, which widened them.
void note_unpaired_metrics(Comparison& c, const std::vector<std::string>& drift_notes) {
    Named unpaired;
    for (const auto& b : c.benchmarks) {
        for (const auto& m : b.metrics) {
            if (m.method == Method::independent && m.verdict != Verdict::too_few_samples)
                unpaired.add(b.name + " " + m.metric);
        }
    }
    if (unpaired.count == 0)
        return;
    c.notes.push_back(fmt::format(
        "{} metric{} not paired (fewer than {} runs with clean samples on both sides), compared "
        "as blocks of samples instead: {}",
        unpaired.count, unpaired.count == 1 ? " was" : "s were", kMinPairedRuns, unpaired.list()));
    c.notes.insert(c.notes.end(), drift_notes.begin(), drift_notes.end());
}

// What a stat or Google Benchmark file says about itself, on both sides (run results' warnings
// are their system's, shown where they are rendered).
void note_sides_warnings(const RunResult& baseline, const RunResult& contender, Comparison& c) {
    // What a stat or Google Benchmark file says about itself (a failing command, benchmarks left
    // out) is short and bears on every row; a run result's warnings are its system's, shown
    // where it is rendered.
    if (baseline.kind != ResultKind::run) {
        const std::pair<const char*, const RunResult*> sides[] = {{"baseline", &baseline},
                                                                  {"contender", &contender}};
        for (const auto& [side, r] : sides) {
            for (const auto& w : r->warnings)
                c.notes.push_back(fmt::format("{}: {}", side, w));
        }
    }
}

// How the samples of two results are compared, in a note: pairs of runs, or blocks of samples,
// or what one process a side cannot show.
void note_how_compared(const RunResult& baseline, const RunResult& contender,
                       const CompareOptions& options, bool paired_runs, Comparison& c) {
    const auto single = [](const RunResult& r) { return r.processes < 2; };
    if (paired_runs) {
        c.paired_runs = std::min(baseline.processes, contender.processes);
        c.notes.push_back(fmt::format(
            "the two sides' {} runs were taken in turn: each metric compares the medians of run "
            "i of the baseline and run i of the contender, pair by pair (what changes from one "
            "run to the next cancels within a pair; the median of the pairs' ratios for times, "
            "differences for counts, with its sign-test interval from {} pairs on, Student's t "
            "over fewer; a metric without a sample in {} of the pairs is not paired and is "
            "named)",
            c.paired_runs, std::max(min_sign_test_pairs(1 - options.alpha), kMinPairedRuns),
            kMinPairedRuns));
    } else if (baseline.kind == ResultKind::stat) {
        // Every run of the command is a process of its own: what lasts a process is in the
        // samples' spread already.
    } else if (baseline.kind == ResultKind::google_benchmark) {
        c.notes.push_back(
            "each Google Benchmark file comes from one process: effects that last a whole process "
            "(code and data placement, the host's state) look like a change of the code there; "
            "repeat each binary's run to see them");
    } else if (single(baseline) || single(contender)) {
        c.notes.push_back(fmt::format(
            "the {} was measured in one process: effects that last a whole process (code and data "
            "placement, the host's state) look like a change of the code there; results of "
            "perfgauge "
            "run --processes 2 or more show them (compare's interval then spans them)",
            single(baseline) && single(contender) ? "baseline and the contender each"
            : single(baseline)                    ? "baseline"
                                                  : "contender"));
    } else {
        c.notes.push_back(
            "each side's samples were cut into blocks of consecutive samples within each "
            "measuring process: a change must stand out from the differences between blocks "
            "(drift within a run, differences between its processes), not only from the spread "
            "of single samples");
    }
}

// Every benchmark of the baseline against the contender's of the same name; the others named.
void compare_by_name(const RunResult& baseline, const RunResult& contender,
                     const CompareOptions& options, Method across, double drift, Comparison& c) {
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
        c.benchmarks.push_back(compare_benchmarks(baseline, b, contender, *it->second, b.name,
                                                  options, across, drift));
        note_timed_apart_on_one_side(b, *it->second, c);
    }
    for (const auto& b : contender.benchmarks) {
        if (!matched.count(b.name))
            c.notes.push_back(fmt::format("{}: only in the contender", b.name));
    }
}

// The notes every comparison of two results ends with, once its benchmarks are compared.
void note_after_comparing(const RunResult& baseline, const RunResult& contender, bool paired_runs,
                          const std::vector<std::string>& drift_notes, Comparison& c) {
    if (paired_runs)
        note_unpaired_metrics(c, drift_notes);
    note_times_paired_by_difference(c);
    note_event_differences(baseline, contender, c);
}

}  // namespace

std::string mixing_refusal(const RunResult& baseline, const RunResult& contender) {
    if (baseline.kind == contender.kind)
        return "";
    const auto has = [&](ResultKind kind) {
        return baseline.kind == kind || contender.kind == kind;
    };
    std::string why;
    if (has(ResultKind::run) && has(ResultKind::stat)) {
        why =
            "a run result holds perfgauge's built-in benchmarks, time and counters per item; a "
            "stat result holds whole runs of one command, per run: no benchmark of one is a "
            "benchmark of the other";
    } else if (has(ResultKind::run)) {
        why =
            "perfgauge run times items with its calibrated overhead subtracted, Google "
            "Benchmark times iterations of its own loop, under other benchmark names and "
            "with other counters: they are different measurements";
    } else {
        why =
            "a stat result holds whole runs of one command, a Google Benchmark result "
            "iterations of the benchmarks inside one: nothing of one matches the other";
    }
    return fmt::format(
        "the baseline is {} and the contender {}: {}; compare two results of "
        "the same kind",
        kind_description(baseline.kind), kind_description(contender.kind), why);
}

Comparison compare_results(const RunResult& baseline, const RunResult& contender,
                           const CompareOptions& options, bool paired_runs) {
    if (const auto why = mixing_refusal(baseline, contender); !why.empty())
        throw std::invalid_argument(why);
    Comparison c;
    c.options = options;
    note_sides_warnings(baseline, contender, c);
    if (paired_runs &&
        (baseline.processes != contender.processes || baseline.processes < kMinPairedRuns)) {
        throw std::invalid_argument(fmt::format(
            "paired runs need as many joined runs on both sides, {} or more (here {} and {})",
            kMinPairedRuns, baseline.processes, contender.processes));
    }
    // Paired runs shared the machine's state pair by pair: a drift between the probes of the
    // sides' joined runs is what the pairing cancels; it widens only a metric that could not be
    // paired, and is said only then.
    std::vector<std::string> drift_notes;
    const double drift = machine_drift(baseline, contender, c, paired_runs, drift_notes);
    if (!paired_runs)
        c.notes.insert(c.notes.end(), drift_notes.begin(), drift_notes.end());
    const Method across = paired_runs ? Method::paired_runs : Method::independent;
    note_how_compared(baseline, contender, options, paired_runs, c);
    if (baseline.kind == ResultKind::stat && baseline.benchmarks.size() == 1 &&
        contender.benchmarks.size() == 1) {
        // One command against another (or the same one again): the pair is the question.
        const BenchmarkResult& b = baseline.benchmarks.front();
        const BenchmarkResult& k = contender.benchmarks.front();
        c.benchmarks.push_back(compare_benchmarks(
            baseline, b, contender, k, b.name == k.name ? b.name : b.name + " vs " + k.name,
            options, across, drift));
        note_timed_apart_on_one_side(b, k, c);
        note_after_comparing(baseline, contender, paired_runs, drift_notes, c);
        return c;
    }
    compare_by_name(baseline, contender, options, across, drift, c);
    note_after_comparing(baseline, contender, paired_runs, drift_notes, c);
    return c;
}

Comparison compare_within(const RunResult& result, const std::string& param_key,
                          const std::string& baseline_value, const std::string& contender_value,
                          const CompareOptions& options) {
    Comparison c;
    // The variants of one result share its runs: no between-run noise separates them.
    c.options = options;
    c.options.between_run_floor = 0;
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
                                                  name_without(b.name, baseline_value), c.options,
                                                  Method::paired));
    }
    note_times_paired_by_difference(c);
    note_event_differences(result, result, c);
    return c;
}

}  // namespace perfgauge::harness
