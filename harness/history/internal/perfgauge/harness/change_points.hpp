// Level shifts in a series of runs (one benchmark, one metric, one machine class, in the order
// the runs were added): pure functions over plain data. The change points are those of the
// regression gate's replay (regression_gate.hpp): the series read run by run as a CI job reads
// it, each confirmed shift kept for good, so that `show`, `plot` and `check` mark the same
// runs. Deterministic series (simulated counts, every spread 0) change exactly where their
// value does.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace perfgauge::harness {

/// One run of a series: its value (the median of its samples; larger is worse: time or counts
/// per item) and its spread (half-width of that median's 95% interval, same unit; 0 when the
/// run is deterministic; NaN when unknown, e.g. a run of one sample).
struct RunPoint {
    double value = 0;
    double spread = 0;
};

/// Which way a metric gets worse: times and counts per item up, throughput down.
enum class Worse { up, down };

struct ChangePoint {
    std::size_t index = 0;  ///< of the first run after the change
    double before = 0;      ///< level of the runs since the previous change (geometric mean)
    double after = 0;       ///< level of the runs up to the next change
    double size = 0;        ///< after / before - 1 (0.1: 10% larger)
    double size_low = 0;    ///< 95% interval of `size` (on the log scale when positive)
    double size_high = 0;
    double p_value = 0;       ///< of the t test that confirmed it (0: deterministic, exact)
    bool regression = false;  ///< the value moved the way that is worse
};

/// Whether every run of `series` is deterministic (spread 0): exact detection applies.
bool deterministic_series(std::span<const RunPoint> series);

/// The change points of `series`, by index, as the gate's replay from its first run confirms
/// them, with the size of each between the segments on either side.
std::vector<ChangePoint> detect_change_points(std::span<const RunPoint> series,
                                              Worse worse = Worse::up);

}  // namespace perfgauge::harness
