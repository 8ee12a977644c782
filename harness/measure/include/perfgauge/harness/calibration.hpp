// Measuring what measuring costs: how each clock really advances (its granularity, measured,
// next to its nominal frequency), what a start()/stop() pair costs, and what a counter snapshot
// costs. Whether the product's correction of those costs holds is correction_check.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfgauge/harness/clock.hpp"

namespace perfgauge::harness {

/// How a clock's readings advance: the differences between consecutive reads.
struct ClockSteps {
    /// The smallest non-zero difference that is not a rarity (at least kCommonStepShare of the
    /// non-zero ones: a one-tick difference seen once in 100000 reads, e.g. as the hypervisor
    /// adjusts the TSC, is not how the clock advances): the clock's real step, or an upper bound
    /// on it when a read costs more than a step (see exact).
    double granularity_ns = 0;
    double same_value_share = 0;  ///< consecutive reads that returned the same value
    /// Whether granularity_ns is the step itself: some reads returned the same value, or every
    /// common difference is a whole multiple of it (differences of 21 and 42 ticks are a clock
    /// stepping by 21; 20, 29, 30 and 31 ns are reads of a finer clock that cost about that).
    bool exact = false;
    struct Step {
        double ns = 0;
        double share = 0;  ///< of the non-zero differences
    };
    std::vector<Step> common;  ///< the most frequent non-zero differences, most frequent first
};

inline constexpr double kCommonStepShare = 0.01;

/// Summarises consecutive-read differences given in ticks (pure). Keeps the `most` most
/// frequent non-zero differences (ties: the smaller first).
ClockSteps summarize_steps(std::span<const std::uint64_t> deltas_ticks, double ns_per_tick,
                           std::size_t most = 4);

/// `reads` - 1 differences between back-to-back unfenced reads (now()) of `clock`, in ticks.
std::vector<std::uint64_t> consecutive_read_deltas(const Clock& clock, std::size_t reads);

struct ClockCalibration {
    std::string name;
    /// One start()/stop() pair around nothing: quantum_robust_mean() of `samples` pairs, which a
    /// median of readings in whole steps is not.
    double overhead_ns = 0;
    ClockSteps steps;
    /// The TSC's nominal frequency, ticks per ns (0: not the TSC). One tick (1 / this) is how
    /// finely timestamps are numbered, not how finely they advance: see steps.granularity_ns.
    double nominal_ghz = 0;
};

struct Calibration {
    std::vector<ClockCalibration> clocks;     ///< the region clock first
    double snapshot_read_ns = 0;              ///< one read() of a 3-event software group
    std::optional<double> snapshot_rdpmc_ns;  ///< user-space read (rdpmc) of a hardware group
    /// The group snapshot_rdpmc_ns timed: "{cycles,instructions,branch-misses}", or
    /// "{cycles,instructions}" on a PMU without branch-misses (QEMU's); empty when none opened.
    std::string snapshot_rdpmc_group;
    std::size_t samples = 0;
};

/// Back-to-back start()/stop() deltas of `clock` in ns, `samples` of them.
std::vector<double> empty_interval_ns(const Clock& clock, std::size_t samples);

/// Runs every measurement; `samples` per quantity (default: 20000, about a millisecond each).
Calibration calibrate(std::size_t samples = 20000);

}  // namespace perfgauge::harness
