#include "perfgauge/harness/against_pairs.hpp"

#include <algorithm>
#include <cmath>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

bool pairs_precise_enough(const std::vector<RunResult>& other, const std::vector<RunResult>& own,
                          double precision) {
    PairedValues medians;
    for (std::size_t i = 0; i < std::min(other.size(), own.size()); ++i) {
        const auto& a = other[i].benchmarks.front().ns_per_item;
        const auto& b = own[i].benchmarks.front().ns_per_item;
        if (!a.empty() && !b.empty()) {
            medians.a.push_back(median(a));
            medians.b.push_back(median(b));
        }
    }
    const PairChanges changes = pair_changes(medians, /*ratios=*/true);
    const auto half_width = median_pair_half_width(changes.values);
    if (!half_width)
        return false;
    return changes.logarithmic ? *half_width <= std::log1p(precision)
                               : *half_width <= precision * std::fabs(median(medians.a));
}

bool pairs_done(std::size_t index, std::size_t pairs, const std::vector<RunResult>& other,
                const std::vector<RunResult>& own, double precision) {
    return index >= pairs && (index - pairs) % 2 == 0 &&
           pairs_precise_enough(other, own, precision);
}

}  // namespace perfgauge::harness
