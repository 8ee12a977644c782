// Level shifts in a series of runs (one benchmark, one metric, one machine class, in the order
// the runs were added): pure functions over plain data.
//
// The method is E-divisive with means (Matteson & James 2014, as MongoDB's signal-processing
// tools and Apache Otava use it on CI performance data): the split that maximises the energy
// distance between the runs before and after it, kept when a permutation test (seeded, so the
// answer is reproducible) finds it significant, then the same within each side. It makes no
// assumption about the noise's distribution and finds level shifts that per-point thresholds
// either miss (small shifts) or cry wolf about (single noisy runs). Each run also carries its
// own spread (the half-width of its median's interval): a shift smaller than the runs' typical
// spread is not resolved by them and is not reported. Deterministic series (simulated counts,
// every spread 0) need no statistics: every change of value is a change point, exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace perfgauge::harness {

/// One run of a series: its value (the median of its samples; larger is worse: time or counts
/// per item) and its spread (half-width of that median's 95% interval, same unit; 0 when the
/// run is deterministic).
struct RunPoint {
    double value = 0;
    double spread = 0;
};

struct ChangePointOptions {
    double alpha = 0.01;             ///< significance of the permutation test
    std::size_t permutations = 199;  ///< per test; the smallest p reachable is 1/(this + 1)
    std::size_t min_segment = 3;     ///< runs on each side of a change, at least
    std::uint64_t seed = 1;          ///< of the permutations: same input, same answer
};

struct ChangePoint {
    std::size_t index = 0;  ///< of the first run after the change
    double before = 0;      ///< median value of the runs since the previous change
    double after = 0;       ///< median value of the runs up to the next change
    double size = 0;        ///< after / before - 1 (0.1: 10% larger)
    double size_low = 0;    ///< 95% interval of `size` (Hodges-Lehmann/Moses shift / before)
    double size_high = 0;
    double p_value = 0;       ///< of the permutation test (0: deterministic, exact)
    bool regression = false;  ///< the value grew (slower, more counts per item)
};

/// Whether every run of `series` is deterministic (spread 0): exact detection applies.
bool deterministic_series(std::span<const RunPoint> series);

/// The energy statistic of splitting `values` at `split` (values[0, split) against
/// values[split, n)), E-divisive with means and alpha 1: m n / (m + n) times (2 mean |x - y|
/// between the sides minus mean |x - x'| within each). Both sides need two values or more.
double energy_statistic(std::span<const double> values, std::size_t split);

/// The split of `values` (each side at least `min_segment` long) with the largest energy
/// statistic, and that statistic; nullopt when `values` is too short. O(n^2).
struct BestSplit {
    std::size_t split = 0;
    double statistic = 0;
};
std::optional<BestSplit> best_split(std::span<const double> values, std::size_t min_segment);

/// The change points of `series`, by index: exact for a deterministic series, else E-divisive
/// with means, a permutation test at `options.alpha`, and the runs' own spread as the smallest
/// shift they resolve.
std::vector<ChangePoint> detect_change_points(std::span<const RunPoint> series,
                                              const ChangePointOptions& options = {});

/// How the latest run of a series compares with the runs before it, since their last change.
struct LatestVerdict {
    enum class Kind { too_short, unchanged, regression, improvement };
    Kind kind = Kind::too_short;
    std::size_t baseline_first = 0;  ///< index of the first run of the baseline segment
    std::size_t baseline_runs = 0;   ///< how many runs it has
    double baseline = 0;             ///< their mean value
    double size = 0;                 ///< latest / baseline - 1
    double allowance = 0;            ///< relative: |size| beyond this is a change
};

/// The latest run against the history before it: its change points are found first, and the
/// latest run is judged against the runs since the last one (the baseline, 2 runs or more; 1
/// when deterministic). The allowance is the half-width of a 99% prediction interval for one
/// more run at the baseline's level: Student's t with k - 1 degrees of freedom times the noise
/// times sqrt(1 + 1/k), the noise being the standard deviation of the baseline's values, at
/// least their median spread and the latest run's own; 0 for deterministic runs (any change
/// counts). A change point needs runs after it, so this is what flags a shift at the run that
/// brings it.
LatestVerdict judge_latest(std::span<const RunPoint> series,
                           const ChangePointOptions& options = {});

}  // namespace perfgauge::harness
