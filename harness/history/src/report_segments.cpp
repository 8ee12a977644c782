#include "perfgauge/harness/report_segments.hpp"

#include <algorithm>
#include <cmath>

namespace perfgauge::harness {
namespace {

double level_of(std::span<const RunPoint> runs) {
    const bool positive =
        std::all_of(runs.begin(), runs.end(), [](const RunPoint& p) { return p.value > 0; });
    double sum = 0;
    for (const auto& p : runs)
        sum += positive ? std::log(p.value) : p.value;
    const double mean = sum / static_cast<double>(runs.size());
    return positive ? std::exp(mean) : mean;
}

}  // namespace

std::vector<ReportSegment> segment_levels(std::span<const RunPoint> series,
                                          std::span<const ChangePoint> changes) {
    std::vector<ReportSegment> out;
    std::size_t first = 0;
    for (std::size_t c = 0; c <= changes.size() && first < series.size(); ++c) {
        // A change point past the end (or out of order) would make an empty segment: the
        // series' end closes the last one instead.
        const std::size_t end = c < changes.size()
                                    ? std::clamp(changes[c].index, first + 1, series.size())
                                    : series.size();
        out.push_back({first, end - 1, level_of(series.subspan(first, end - first))});
        first = end;
    }
    return out;
}

}  // namespace perfgauge::harness
