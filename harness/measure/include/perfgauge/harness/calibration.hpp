// Measuring what measuring costs: clock overhead and resolution, counter-snapshot cost, and
// the residual of an empty region once that cost is subtracted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/clock.hpp"

namespace perfgauge::harness {

struct ClockCalibration {
    std::string name;
    double overhead_ns = 0;    ///< median cost of one start()/stop() pair around nothing
    double resolution_ns = 0;  ///< smallest non-zero step seen (one tick for the TSC)
    double ghz = 0;            ///< ticks per ns (TSC only)
};

struct Calibration {
    std::vector<ClockCalibration> clocks;     ///< the region clock first
    double snapshot_read_ns = 0;              ///< one read() of a 3-event software group
    std::optional<double> snapshot_rdpmc_ns;  ///< rdpmc of 3 hardware counters, where available
    /// An empty region measured afresh with the region clock, minus the calibrated overhead:
    /// the systematic error left after correction (median, ns). Should be 0 within +-1 ns.
    double empty_region_residual_ns = 0;
    std::size_t samples = 0;
};

/// Back-to-back start()/stop() deltas of `clock` in ns, `samples` of them.
std::vector<double> empty_interval_ns(const Clock& clock, std::size_t samples);

/// Runs every measurement; `samples` per quantity (default: 20000, about a millisecond each).
Calibration calibrate(std::size_t samples = 20000);

}  // namespace perfgauge::harness
