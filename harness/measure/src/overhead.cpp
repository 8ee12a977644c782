#include "perfgauge/harness/overhead.hpp"

#include <algorithm>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

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
    out.ns = samples > 0 ? median(ns) : 0.0;
    for (const auto& c : counts)
        out.counts.push_back(samples > 0 ? median(c) : 0.0);
    return out;
}

Overhead per_pause(const Overhead& with_pauses, const Overhead& empty, double pauses) {
    const double n = std::max(1.0, pauses);
    Overhead out;
    out.ns = (with_pauses.ns - empty.ns) / n;
    for (std::size_t i = 0; i < with_pauses.counts.size() && i < empty.counts.size(); ++i)
        out.counts.push_back((with_pauses.counts[i] - empty.counts[i]) / n);
    return out;
}

}  // namespace perfgauge::harness
