#include "perfgauge/harness/calibration_result.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace perfgauge::harness {

double correction_target_ns(double reference_ns) {
    return std::max(kCorrectionToleranceNs, kCorrectionToleranceShare * std::abs(reference_ns));
}

bool held_to_spread(const CorrectionRow& r) {
    return r.spread_ns > correction_target_ns(r.reference_ns);
}

double correction_tolerance_ns(const CorrectionRow& r) {
    // NaN reference: a NaN target, and the row fails.
    return held_to_spread(r) ? r.spread_ns : correction_target_ns(r.reference_ns);
}

double correction_error_share(const CorrectionRow& r) {
    return r.reference_ns > 0 ? r.error_ns / r.reference_ns
                              : std::numeric_limits<double>::quiet_NaN();
}

bool correction_passes(const CorrectionRow& r) {
    // Written so that a NaN anywhere fails.
    return std::abs(r.error_ns) <= correction_tolerance_ns(r);
}

bool CorrectionCheck::passes() const {
    return !rows.empty() && std::all_of(rows.begin(), rows.end(), correction_passes);
}

}  // namespace perfgauge::harness
