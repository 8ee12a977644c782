// Seeded synthetic pairs of runs with a known between-run noise, for compare --floor's unit
// tests (compare_floor_test.cpp) and its trials (compare_floor_trials_test.cpp, which run in
// the release build: a thousand comparisons took 143 s under the sanitizers, 4.7 s without).
#pragma once

#include "perfgauge/harness/compare.hpp"

#include "../../support/seeded_normal.hpp"

#include <cmath>
#include <cstddef>
#include <numbers>

namespace perfgauge::harness::floor_synthetic {

using Normal = test::SeededNormal;

// The machine's noise between two separate runs, known: each run's times scale by a factor
// exp(run_sd x N(0,1)), each sample by exp(sample_sd x N(0,1)); the probes mostly agree, but in
// a third of the runs jump by 5% either way while the work does not (as the chain probe's
// quantised readings do on this project's VMs).
struct Machine {
    double run_sd = 0;
    double sample_sd = 0.01;
    std::size_t samples = 30;
};

// The run_sd whose two runs' medians differ by `floor` in the median (|N(0, sqrt(2) sd)|).
inline double run_sd_for_floor(double floor) {
    return floor * kFloorToSd / std::numbers::sqrt2;
}

inline RunResult synthetic_run(Normal& normal, const Machine& machine, double factor) {
    RunResult r;
    r.kind = ResultKind::run;
    const double run_factor = std::exp(machine.run_sd * normal());
    BenchmarkResult b;
    b.name = "chain";
    for (std::size_t i = 0; i < machine.samples; ++i) {
        b.ns_per_item.push_back(1000 * factor * run_factor *
                                std::exp(machine.sample_sd * normal()));
        b.rounds.push_back(i);
    }
    b.raw_ns_per_item = b.ns_per_item;
    r.benchmarks.push_back(std::move(b));
    const double jump = normal.uniform() < 1.0 / 3 ? (normal.uniform() < 0.5 ? 0.95 : 1.05) : 1;
    r.machine_probe_ns = 4000 * jump;
    r.machine_copy_probe_ns = 1000;
    return r;
}

}  // namespace perfgauge::harness::floor_synthetic
