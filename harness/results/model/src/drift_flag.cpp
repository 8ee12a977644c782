#include "perfgauge/harness/drift_flag.hpp"

#include <cmath>

namespace perfgauge::harness {

bool drift_flagged(const Drift& drift) {
    // The change must point the way the test found: over several processes the pooled thirds
    // can disagree with the trend within each.
    return drift.p_value < kDriftP && std::fabs(drift.change) >= kDriftChange &&
           drift.direction * drift.change > 0;
}

std::optional<Drift> flagged_drift(const BenchmarkResult& b) {
    const auto drift = drift_over_time(time_series_by_process(b));
    if (drift && drift_flagged(*drift))
        return drift;
    return std::nullopt;
}

}  // namespace perfgauge::harness
