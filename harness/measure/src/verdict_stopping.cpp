#include "perfgauge/harness/verdict_stopping.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

std::size_t StoppingRule::first_look() const {
    // [min, max] of n pairs misses the median when all n fall on one side: 2 / 2^n.
    std::size_t n = 2;
    while (1 - std::ldexp(2.0, -static_cast<int>(n)) < look_confidence() && n < 64)
        ++n;
    return n;
}

std::vector<std::size_t> StoppingRule::look_points() const {
    std::vector<std::size_t> points;
    double at = static_cast<double>(first_look());
    for (std::size_t k = 0; k < looks; ++k) {
        const auto n = static_cast<std::size_t>(std::ceil(at));
        points.push_back(points.empty() ? n : std::max(n, points.back() + 1));
        at = static_cast<double>(points.back()) * growth;
    }
    return points;
}

PairedDecision decide_pairs(std::span<const double> log_ratios, double margin, double confidence) {
    if (log_ratios.size() < 2)
        return PairedDecision::undecided;
    const Interval ci = median_interval(log_ratios, confidence);
    // Too few pairs for the confidence: median_interval's widest interval covers less.
    if (!(ci.confidence >= confidence))
        return PairedDecision::undecided;
    // As perfgauge compare decides a paired time: its interval mapped back onto the baseline's
    // median against ±margin of it, i.e. the log ratios against log(1 -+ margin).
    const double slower = std::log1p(margin), faster = std::log1p(-margin);
    if (ci.low > slower || ci.high < faster)
        return PairedDecision::beyond;
    if (ci.low >= faster && ci.high <= slower)
        return PairedDecision::within;
    return PairedDecision::undecided;
}

bool decided_by_looks(std::span<const double> log_ratios, const StoppingRule& rule) {
    const double confidence = rule.look_confidence();
    for (const std::size_t n : rule.look_points()) {
        if (n > log_ratios.size())
            return false;
        if (decide_pairs(log_ratios.first(n), rule.margin, confidence) != PairedDecision::undecided)
            return true;
    }
    return false;
}

std::vector<double> paired_log_ratios(std::span<const std::size_t> rounds_baseline,
                                      std::span<const double> ns_baseline,
                                      std::span<const std::size_t> rounds_contender,
                                      std::span<const double> ns_contender) {
    std::map<std::size_t, double> baseline;
    for (std::size_t k = 0; k < rounds_baseline.size() && k < ns_baseline.size(); ++k)
        baseline.emplace(rounds_baseline[k], ns_baseline[k]);
    std::map<std::size_t, double> by_round;
    for (std::size_t k = 0; k < rounds_contender.size() && k < ns_contender.size(); ++k) {
        const auto it = baseline.find(rounds_contender[k]);
        if (it != baseline.end() && it->second > 0 && ns_contender[k] > 0)
            by_round.emplace(rounds_contender[k], std::log(ns_contender[k] / it->second));
    }
    std::vector<double> ratios;
    ratios.reserve(by_round.size());
    for (const auto& [round, ratio] : by_round)
        ratios.push_back(ratio);
    return ratios;
}

std::vector<bool> settled_by_verdicts(const std::vector<VerdictGroup>& groups,
                                      const std::vector<BenchmarkResult>& results,
                                      const StoppingRule& rule) {
    // Per benchmark: 1 in a group, 2 in a group that is still undecided (it wins).
    std::vector<int> state(results.size(), 0);
    const auto mark = [&](std::size_t b, int s) {
        if (b < state.size())
            state[b] = std::max(state[b], s);
    };
    for (const auto& g : groups) {
        bool decided = g.baseline < results.size() && !g.contenders.empty();
        for (const std::size_t c : g.contenders) {
            if (!decided || c >= results.size())
                decided = false;
            else {
                const auto& base = results[g.baseline];
                const auto& cont = results[c];
                decided = decided_by_looks(
                    paired_log_ratios(base.rounds, base.ns_per_item, cont.rounds, cont.ns_per_item),
                    rule);
            }
        }
        const int s = decided ? 1 : 2;
        mark(g.baseline, s);
        for (const std::size_t c : g.contenders)
            mark(c, s);
        for (const std::size_t r : g.riders)
            mark(r, s);
    }
    std::vector<bool> settled(results.size());
    for (std::size_t b = 0; b < results.size(); ++b)
        settled[b] = state[b] == 1;
    return settled;
}

}  // namespace perfgauge::harness
