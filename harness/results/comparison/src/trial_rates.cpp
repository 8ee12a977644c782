#include "perfgauge/harness/trial_rates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace perfgauge::harness {

namespace {

constexpr double kZ95 = 1.959963984540054;

// The Wilson score interval's centre and half-width at 95%.
std::pair<double, double> wilson(std::size_t hits, std::size_t trials) {
    const double n = static_cast<double>(trials);
    const double p = static_cast<double>(hits) / n;
    const double z2 = kZ95 * kZ95;
    const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    const double half = kZ95 / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    return {centre, half};
}

}  // namespace

std::string change_label(double change_pct) {
    return fmt::format("+{:g}%", change_pct);
}

double Rate::share() const {
    return trials == 0 ? std::numeric_limits<double>::quiet_NaN()
                       : static_cast<double>(hits) / static_cast<double>(trials);
}

double Rate::low() const {
    if (trials == 0)
        return std::numeric_limits<double>::quiet_NaN();
    const auto [centre, half] = wilson(hits, trials);
    return std::max(0.0, centre - half);
}

double Rate::high() const {
    if (trials == 0)
        return std::numeric_limits<double>::quiet_NaN();
    const auto [centre, half] = wilson(hits, trials);
    return std::min(1.0, centre + half);
}

}  // namespace perfgauge::harness
