#include "perfgauge/harness/selftest_figures.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
std::string param_of(const BenchmarkResult& b, const char* key) {
    for (const auto& [k, v] : b.params) {
        if (k == key)
            return v;
    }
    return {};
}

const BenchmarkResult* find_work(const RunResult& run, const std::string& work) {
    for (const auto& b : run.benchmarks) {
        if (param_of(b, kWorkParam) == work)
            return &b;
    }
    return nullptr;
}

void note_method(std::vector<std::string>& methods, Method m) {
    const std::string name = method_name(m);
    if (std::find(methods.begin(), methods.end(), name) == methods.end())
        methods.push_back(name);
}

// The time row of a comparison of one benchmark pair; nullptr when nothing was compared.
const MetricComparison* time_row(const Comparison& c) {
    if (c.benchmarks.empty() || c.benchmarks.front().metrics.empty())
        return nullptr;
    const MetricComparison& m = c.benchmarks.front().metrics.front();
    return m.is_time ? &m : nullptr;
}

// Run `facts` with `b` alone in it, named and labelled as the other side of the comparison is,
// so that compare_results matches the two.
RunResult alone(const RunResult& facts, const BenchmarkResult& b) {
    RunResult r;
    r.kind = facts.kind;
    r.date = facts.date;
    r.system = facts.system;
    r.clock = facts.clock;
    r.batch_overhead_ns = facts.batch_overhead_ns;
    r.pause_overhead_ns = facts.pause_overhead_ns;
    r.machine_probe_ns = facts.machine_probe_ns;
    r.machine_copy_probe_ns = facts.machine_copy_probe_ns;
    r.pause_calibration_drift = facts.pause_calibration_drift;
    r.seed = facts.seed;
    r.repetitions = facts.repetitions;
    r.processes = facts.processes;
    r.precision_target = facts.precision_target;
    r.events = facts.events;
    r.benchmarks.push_back(b);
    r.benchmarks.back().name = "chain";
    r.benchmarks.back().params = {};
    return r;
}

}  // namespace

bool called_different(Verdict v) {
    return v == Verdict::lower || v == Verdict::higher;
}

Rate false_positive_rate(std::span<const Verdict> aa_verdicts) {
    Rate r;
    r.trials = aa_verdicts.size();
    r.hits = static_cast<std::size_t>(
        std::count_if(aa_verdicts.begin(), aa_verdicts.end(), called_different));
    return r;
}

Rate detection_rate(std::span<const Verdict> verdicts) {
    Rate r;
    r.trials = verdicts.size();
    r.hits =
        static_cast<std::size_t>(std::count(verdicts.begin(), verdicts.end(), Verdict::higher));
    return r;
}

std::optional<double> smallest_resolved_change(std::span<const PowerPoint> points, double power) {
    std::vector<PowerPoint> sorted(points.begin(), points.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const PowerPoint& a, const PowerPoint& b) { return a.change_pct > b.change_pct; });
    std::optional<double> smallest;
    // From the largest down: the first level that misses ends the run of resolved ones.
    for (const PowerPoint& p : sorted) {
        if (p.detected.trials == 0 || p.detected.share() < power)
            break;
        smallest = p.change_pct;
    }
    return smallest;
}

Spread relative_spread(std::span<const double> ratios) {
    Spread s;
    std::vector<double> distances;
    for (const double r : ratios) {
        if (std::isfinite(r))
            distances.push_back(std::fabs(r - 1));
    }
    s.count = distances.size();
    if (distances.empty()) {
        s.median = s.p90 = kNaN;
        return s;
    }
    s.median = median(distances);
    s.p90 = quantile(distances, 0.9);
    return s;
}

namespace {

// Run 2t+1's base median over run 2t's: how far identical work moved between two separate runs
// (NaN where a side kept no clean sample).
std::vector<double> base_ratios(std::span<const RunResult> runs) {
    std::vector<double> ratios;
    for (std::size_t t = 0; t + 1 < runs.size(); t += 2) {
        const BenchmarkResult* base = find_work(runs[t], kBaseWork);
        const BenchmarkResult* again = find_work(runs[t + 1], kBaseWork);
        double r = kNaN;
        if (base != nullptr && again != nullptr && !base->ns_per_item.empty() &&
            !again->ns_per_item.empty() && median(base->ns_per_item) > 0)
            r = median(again->ns_per_item) / median(base->ns_per_item);
        ratios.push_back(r);
    }
    return ratios;
}

// One trial across runs: run `first`'s base against each work of `second`, with `options`.
void compare_pair(const RunResult& first, const RunResult& second, std::span<const double> changes,
                  const CompareOptions& options, ComparisonTrials& trials) {
    const BenchmarkResult* base = find_work(first, kBaseWork);
    if (base == nullptr)
        return;
    const RunResult baseline = alone(first, *base);
    const auto across = [&](const std::string& work) -> std::optional<Verdict> {
        const BenchmarkResult* other = find_work(second, work);
        if (other == nullptr)
            return std::nullopt;
        const Comparison c = compare_results(baseline, alone(second, *other), options);
        const MetricComparison* m = time_row(c);
        if (m == nullptr)
            return std::nullopt;
        note_method(trials.methods, m->method);
        return m->verdict;
    };
    if (const auto v = across(kSameWork))
        trials.aa.push_back(*v);
    for (std::size_t level = 0; level < changes.size(); ++level) {
        if (const auto v = across(change_label(changes[level])))
            trials.changes[level].push_back(*v);
    }
}

// Across: run 2t's base against run 2t+1's work, as two result files are compared - as
// `compare A.json B.json` does, and with the between-run floor the other trials' runs measured
// (`compare --floor`), never this trial's own, which would know its own noise.
void compare_across(std::span<const RunResult> runs, std::span<const double> changes,
                    const CompareOptions& options, TrialEvidence& e) {
    const std::vector<double> ratios = base_ratios(runs);
    for (const double r : ratios) {
        if (std::isfinite(r))
            e.between_run_ratios.push_back(r);
    }
    for (std::size_t t = 0; t < ratios.size(); ++t) {
        const RunResult& first = runs[2 * t];
        const RunResult& second = runs[2 * t + 1];
        compare_pair(first, second, changes, options, e.across_without_floor);
        CompareOptions floored = options;
        floored.between_run_floor = floor_without(ratios, t);
        e.across_floors.push_back(floored.between_run_floor);
        compare_pair(first, second, changes, floored, e.across);
    }
}

}  // namespace

double floor_without(std::span<const double> ratios, std::size_t left_out) {
    std::vector<double> others;
    for (std::size_t i = 0; i < ratios.size(); ++i) {
        if (i != left_out && std::isfinite(ratios[i]))
            others.push_back(ratios[i]);
    }
    if (others.size() < kMinFloorTrials)
        return 0;
    return relative_spread(others).median;
}

TrialEvidence compare_trials(std::span<const RunResult> runs, std::span<const double> changes,
                             const CompareOptions& options) {
    TrialEvidence e;
    e.in_turn.changes.resize(changes.size());
    e.across.changes.resize(changes.size());
    e.across_without_floor.changes.resize(changes.size());
    for (const RunResult& run : runs) {
        for (const auto& b : run.benchmarks) {
            e.samples += b.ns_per_item.size() + b.disturbed.size();
            e.disturbed += b.disturbed.size();
        }
        // In turn: one run, its benchmarks' samples paired by round.
        const auto in_turn = [&](const std::string& work) -> std::optional<MetricComparison> {
            const Comparison c = compare_within(run, kWorkParam, kBaseWork, work, options);
            const MetricComparison* m = time_row(c);
            if (m == nullptr)
                return std::nullopt;
            note_method(e.in_turn.methods, m->method);
            return *m;
        };
        if (const auto aa = in_turn(kSameWork)) {
            e.in_turn.aa.push_back(aa->verdict);
            // Only where both sides kept clean samples: an empty side's median is 0, not a
            // measurement.
            if (aa->baseline_median > 0 && aa->contender_median > 0)
                e.within_run_ratios.push_back(aa->contender_median / aa->baseline_median);
        }
        for (std::size_t level = 0; level < changes.size(); ++level) {
            if (const auto m = in_turn(change_label(changes[level])))
                e.in_turn.changes[level].push_back(m->verdict);
        }
    }
    compare_across(runs, changes, options, e);
    return e;
}

void add_trial(ComparisonTrials& trials, const Comparison& comparison,
               std::span<const std::string> names) {
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto b = std::find_if(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                                    [&](const auto& one) { return one.name == names[i]; });
        if (b == comparison.benchmarks.end() || b->metrics.empty() || !b->metrics.front().is_time)
            continue;
        const MetricComparison& m = b->metrics.front();
        note_method(trials.methods, m.method);
        if (i == 0)
            trials.aa.push_back(m.verdict);
        else if (i - 1 < trials.changes.size())
            trials.changes[i - 1].push_back(m.verdict);
    }
}

ResolutionFigures resolution(const ComparisonTrials& trials, std::span<const double> changes,
                             double power) {
    ResolutionFigures f;
    f.false_positives = false_positive_rate(trials.aa);
    for (std::size_t level = 0; level < changes.size(); ++level) {
        PowerPoint p;
        p.change_pct = changes[level];
        if (level < trials.changes.size())
            p.detected = detection_rate(trials.changes[level]);
        f.power.push_back(p);
    }
    f.smallest_change_pct = smallest_resolved_change(f.power, power);
    const auto count_unanswered = [&f](std::span<const Verdict> verdicts) {
        f.too_few_samples.trials += verdicts.size();
        f.too_few_samples.hits += static_cast<std::size_t>(
            std::count(verdicts.begin(), verdicts.end(), Verdict::too_few_samples));
    };
    count_unanswered(trials.aa);
    for (const auto& level : trials.changes)
        count_unanswered(level);
    return f;
}

std::string verdict_line(std::span<const VerdictPart> parts, double largest_pct,
                         double too_few_share) {
    std::vector<std::string> texts, unmeasured;
    for (const VerdictPart& part : parts) {
        if (!part.measured) {
            unmeasured.push_back(part.way);
            continue;
        }
        std::string text = part.pct
                               ? fmt::format("{:g}% changes {}", *part.pct, part.how)
                               : fmt::format("no change up to {:g}% {}", largest_pct, part.how);
        if (part.trials > 0 && part.trials < kTrialsForARate)
            text += fmt::format(" (from {} trial{}, too few for a 95% rate)", part.trials,
                                part.trials == 1 ? "" : "s");
        texts.push_back(std::move(text));
    }
    std::string line = texts.empty()
                           ? fmt::format("nothing was measured: {}", fmt::join(unmeasured, ", "))
                           : fmt::format("this machine resolves {}", fmt::join(texts, ", "));
    if (!texts.empty() && !unmeasured.empty())
        line += fmt::format("; not measured: {}", fmt::join(unmeasured, ", "));
    if (!texts.empty() && too_few_share > kBusyShare) {
        line += fmt::format(" (busy: {:.0f}% of the trials kept too few clean samples)",
                            100 * too_few_share);
    }
    return line;
}

}  // namespace perfgauge::harness
