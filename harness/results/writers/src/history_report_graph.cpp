// Where the report's runs and levels fall on a graph (report_model.hpp): plain arithmetic.
#include <algorithm>
#include <cmath>

#include "perfgauge/harness/report_model.hpp"

namespace perfgauge::harness {

ValueRange value_range(std::span<const RunPoint> series) {
    if (series.empty())
        return {};
    double low = series.front().value, high = low;
    for (const auto& p : series) {
        low = std::min(low, p.value - p.spread);
        high = std::max(high, p.value + p.spread);
    }
    if (high > low) {
        const double room = 0.05 * (high - low);
        return {low - room, high + room};
    }
    const double half = low == 0 ? 1 : 0.05 * std::abs(low);
    return {low - half, high + half};
}

double y_pixel(double value, const ValueRange& range, double height) {
    return height * (range.high - value) / (range.high - range.low);
}

double x_pixel(std::size_t index, std::size_t count, double width) {
    if (count < 2)
        return width / 2;
    return width * static_cast<double>(index) / static_cast<double>(count - 1);
}

}  // namespace perfgauge::harness
