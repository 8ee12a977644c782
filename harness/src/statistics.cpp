#include "perfgauge/harness/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace perfgauge::harness {

double quantile(std::span<const double> samples, double q) {
    if (samples.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

double median(std::span<const double> samples) {
    return quantile(samples, 0.5);
}

double median_absolute_deviation(std::span<const double> samples) {
    const double m = median(samples);
    std::vector<double> deviations;
    deviations.reserve(samples.size());
    for (double x : samples)
        deviations.push_back(std::fabs(x - m));
    return median(deviations);
}

}  // namespace perfgauge::harness
