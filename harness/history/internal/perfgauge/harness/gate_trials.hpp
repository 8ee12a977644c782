// The regression gate measured as a sceptic would: on seeded synthetic series of known truth,
// checked after every run as a CI job checks them, how often identical work ever alarms and how
// soon a step of known size is found. Pure and deterministic for a given seed: the unit tests
// assert on it and `history_gate_grid` prints the whole power curve.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "perfgauge/harness/regression_gate.hpp"

namespace perfgauge::harness {

/// `runs` run medians around 1 ms with log-normal between-run noise `noise` (0.05: 5%), every
/// value from `step_at` on multiplied by exp(`steps` * `noise`), each run's own spread a
/// quarter of the between-run noise (a run's samples share its placement and the machine's
/// state, so its own interval is narrower than the runs' spread).
std::vector<RunPoint> synthetic_series(std::size_t runs, std::size_t step_at, double steps,
                                       double noise, std::mt19937_64& rng);

/// The gate run after every add: the index of the first run whose check said regression, and
/// whether every check after it said so too.
struct CheckedSeries {
    std::optional<std::size_t> first_alarm;
    bool alarm_stood = true;
};
CheckedSeries check_after_every_run(std::span<const RunPoint> series, const GateOptions& options);

struct FalseAlarms {
    std::size_t series = 0, alarmed = 0;
    double rate() const { return series ? static_cast<double>(alarmed) / series : 0; }
};
/// `count` A/A series of `runs` runs each, checked after every run.
FalseAlarms aa_false_alarms(std::size_t count, std::size_t runs, double noise,
                            const GateOptions& options, std::uint64_t seed);

/// Of `count` series with `baseline` runs and then a step of `steps` noises (a regression),
/// the share found within r runs after the step, r = 1 .. `after`, and the share whose alarm
/// stood on every later run.
struct Power {
    std::vector<double> found_within;  ///< [r - 1]: found by the r-th run after the step
    double stood = 0;                  ///< of those found, the alarm stood to the end
};
Power step_power(std::size_t count, std::size_t baseline, std::size_t after, double steps,
                 double noise, const GateOptions& options, std::uint64_t seed);

}  // namespace perfgauge::harness
