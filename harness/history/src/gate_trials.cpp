#include "perfgauge/harness/gate_trials.hpp"

#include <cmath>

namespace perfgauge::harness {

std::vector<RunPoint> synthetic_series(std::size_t runs, std::size_t step_at, double steps,
                                       double noise, std::mt19937_64& rng) {
    std::normal_distribution<double> z(0, 1);
    std::vector<RunPoint> out;
    out.reserve(runs);
    for (std::size_t i = 0; i < runs; ++i) {
        const double level = i >= step_at ? std::exp(steps * noise) : 1.0;
        const double value = 1e6 * level * std::exp(noise * z(rng));
        out.push_back({value, 0.25 * noise * 1.96 * value});
    }
    return out;
}

CheckedSeries check_after_every_run(std::span<const RunPoint> series, const GateOptions& options) {
    CheckedSeries out;
    for (std::size_t n = 2; n <= series.size(); ++n) {
        const bool alarm =
            judge_series(series.first(n), 0, options).kind == GateVerdict::Kind::regression;
        if (alarm && !out.first_alarm)
            out.first_alarm = n - 1;
        if (!alarm && out.first_alarm)
            out.alarm_stood = false;
    }
    return out;
}

FalseAlarms aa_false_alarms(std::size_t count, std::size_t runs, double noise,
                            const GateOptions& options, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    FalseAlarms out;
    for (std::size_t i = 0; i < count; ++i) {
        const auto series = synthetic_series(runs, runs, 0, noise, rng);
        ++out.series;
        out.alarmed += check_after_every_run(series, options).first_alarm.has_value();
    }
    return out;
}

Power step_power(std::size_t count, std::size_t baseline, std::size_t after, double steps,
                 double noise, const GateOptions& options, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> found(after, 0);
    std::size_t detected = 0, stood = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const auto series = synthetic_series(baseline + after, baseline, steps, noise, rng);
        const auto checked = check_after_every_run(series, options);
        if (!checked.first_alarm || *checked.first_alarm < baseline)
            continue;  // never found, or a false alarm before the step: not this step found
        ++detected;
        stood += checked.alarm_stood;
        for (std::size_t r = *checked.first_alarm - baseline; r < after; ++r)
            ++found[r];
    }
    Power p;
    for (const auto f : found)
        p.found_within.push_back(static_cast<double>(f) / static_cast<double>(count));
    p.stood = detected ? static_cast<double>(stood) / static_cast<double>(detected) : 1;
    return p;
}

}  // namespace perfgauge::harness
