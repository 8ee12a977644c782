#include "perfgauge/harness/overhead.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

constexpr std::size_t kSamplesPerGroup = 32;
constexpr std::size_t kMinGroups = 5;

}  // namespace

double quantum_robust_mean(std::span<const double> samples) {
    const std::size_t n = samples.size();
    if (n == 0)
        return 0;
    const std::size_t groups = std::clamp(n / kSamplesPerGroup, std::min(n, kMinGroups), n);
    std::vector<double> means(groups);
    for (std::size_t g = 0; g < groups; ++g) {
        // Consecutive samples: a burst of disturbance lands in few groups.
        const auto group = samples.subspan(g * n / groups, (g + 1) * n / groups - g * n / groups);
        means[g] =
            std::accumulate(group.begin(), group.end(), 0.0) / static_cast<double>(group.size());
    }
    return median(means);
}

Overhead calibrate_overhead(
    std::size_t samples, std::size_t events,
    const std::function<void(double& ns, std::vector<double>& counts)>& measure_nothing) {
    std::vector<double> ns(samples);
    std::vector<std::vector<double>> counts(events, std::vector<double>(samples));
    std::vector<double> one(events);
    for (std::size_t s = 0; s < samples; ++s) {
        std::fill(one.begin(), one.end(), 0.0);
        measure_nothing(ns[s], one);
        for (std::size_t i = 0; i < events; ++i)
            counts[i][s] = one[i];
    }
    Overhead out;
    out.ns = quantum_robust_mean(ns);
    for (const auto& c : counts)
        out.counts.push_back(quantum_robust_mean(c));
    return out;
}

Overhead per_pause(const Overhead& with_pauses, const Overhead& base, double pauses) {
    const double n = std::max(1.0, pauses);
    Overhead out;
    out.ns = (with_pauses.ns - base.ns) / n;
    for (std::size_t i = 0; i < with_pauses.counts.size() && i < base.counts.size(); ++i)
        out.counts.push_back((with_pauses.counts[i] - base.counts[i]) / n);
    return out;
}

Overhead median_over_kinds(std::span<const Overhead> by_kind) {
    Overhead out;
    if (by_kind.empty())
        return out;
    std::vector<double> figure(by_kind.size());
    for (std::size_t k = 0; k < by_kind.size(); ++k)
        figure[k] = by_kind[k].ns;
    out.ns = median(figure);
    for (std::size_t i = 0; i < by_kind.front().counts.size(); ++i) {
        for (std::size_t k = 0; k < by_kind.size(); ++k)
            figure[k] = by_kind[k].counts.at(i);
        out.counts.push_back(median(figure));
    }
    return out;
}

double furthest_kind_ns(std::span<const Overhead> by_kind, double middle_ns) {
    double furthest = 0;
    for (const Overhead& o : by_kind)
        furthest = std::max(furthest, std::abs(o.ns - middle_ns));
    return furthest;
}

double unseen_kind_ns(std::span<const Overhead> by_kind, double middle_ns) {
    const double furthest = furthest_kind_ns(by_kind, middle_ns);
    const std::size_t n = by_kind.size();
    if (n < 2)
        return furthest;
    double sum = 0;
    for (const Overhead& o : by_kind)
        sum += o.ns;
    const double mean = sum / static_cast<double>(n);
    double squares = 0;
    for (const Overhead& o : by_kind)
        squares += (o.ns - mean) * (o.ns - mean);
    const double sd = std::sqrt(squares / static_cast<double>(n - 1));
    // The kinds are a sample of the work a pair can sit beside, not all of it: one more kind
    // falls within the range of six only 5 times in 7 (by rank), and seed 000's loop (one
    // atomic add, its result unused) was beyond the furthest kind in 5 of 12 runs here.
    const double t =
        student_t_quantile(1 - (1 - kUnseenKindCoverage) / 2, static_cast<double>(n - 1));
    const double predicted =
        t * sd * std::sqrt(1 + 1 / static_cast<double>(n)) + std::abs(middle_ns - mean);
    // From nine kinds on a calibrated kind can lie beyond the interval: it is still covered.
    return std::max(furthest, predicted);
}

std::optional<std::string> pause_drift_warning(const std::string& name, double drift,
                                               double pause_share, double bound) {
    // As a share of the corrected time: what is left once the pairs are taken off the measured
    // time. Pairs that are all of it leave nothing to be precise about (the runner's warning
    // that the pairs dominate says so).
    const double left = 1 - pause_share;
    if (!(left > 0 && pause_share > 0))
        return std::nullopt;
    const double off = pause_share * std::abs(drift) / left;
    if (!(std::abs(drift) > kProbeDriftNoise && off > bound))
        return std::nullopt;
    // Slower now: a pair costs more than was subtracted, so too little was taken off.
    return fmt::format(
        "{}: the machine ran {:.0f}% {} during this run than while the pause/resume cost was "
        "calibrated (perfgauge's probe); if a pair's cost moved with it, its corrected time is "
        "{} by about {:.1f}% (its pairs are {:.0f}% of its measured time)",
        name, 100 * std::abs(drift), drift > 0 ? "slower" : "faster",
        drift > 0 ? "too high" : "too low", 100 * off, 100 * pause_share);
}

}  // namespace perfgauge::harness
