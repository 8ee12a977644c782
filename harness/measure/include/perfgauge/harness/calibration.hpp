// Measuring what measuring costs: how each clock really advances (its granularity, measured,
// next to its nominal frequency), what a start()/stop() pair costs, and what a counter snapshot
// costs. Whether the product's correction of those costs holds is correction_check.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfgauge/harness/calibration_result.hpp"  // ClockSteps, Calibration: the model
#include "perfgauge/harness/clock.hpp"

namespace perfgauge::harness {

/// Summarises consecutive-read differences given in ticks (pure). Keeps the `most` most
/// frequent non-zero differences (ties: the smaller first).
ClockSteps summarize_steps(std::span<const std::uint64_t> deltas_ticks, double ns_per_tick,
                           std::size_t most = 4);

/// `reads` - 1 differences between back-to-back unfenced reads (now()) of `clock`, in ticks.
std::vector<std::uint64_t> consecutive_read_deltas(const Clock& clock, std::size_t reads);

/// Back-to-back start()/stop() deltas of `clock` in ns, `samples` of them.
std::vector<double> empty_interval_ns(const Clock& clock, std::size_t samples);

/// Runs every measurement; `samples` per quantity (default: 20000, about a millisecond each).
Calibration calibrate(std::size_t samples = 20000);

}  // namespace perfgauge::harness
