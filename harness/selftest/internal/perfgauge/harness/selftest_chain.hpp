// The work perfgauge selftest measures: a chain of dependent 64-bit multiply-adds, whose
// length sets its time exactly (latency-bound, not foldable), so that a chain of 1.05 k
// operations is 5% more work than one of k.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/runner.hpp"

namespace perfgauge::harness {

/// The chain of `operations` dependent multiply-adds, `iterations` times; returns its value
/// (pass it to benchmark_sink). The compiler can neither fold it (the multiplier is read at
/// run time and an empty asm hides the value at every step) nor overlap its steps.
std::uint64_t run_chain(std::uint64_t operations, std::uint64_t iterations);

/// The chain as a benchmark named `name` (default "chain/WORK"), with params {kWorkParam, work}.
Benchmark chain_benchmark(const std::string& work, std::uint64_t operations,
                          const std::string& name = "");

/// How a Runner samples the chain (RunnerOptions' fields of the same names).
struct ChainSampling {
    std::size_t repetitions = 0;
    std::optional<std::uint64_t> seed;  ///< drawn by the Runner when unset, as run draws it
    double precision = 0, max_time_s = 0, min_sample_time_s = 0, warmup_time_s = 0;
};

/// A Runner's options for the chain: `sampling`, time alone (no counters: the figures are
/// about times), no probe of CPU gaps.
RunnerOptions chain_runner_options(const ChainSampling& sampling);

}  // namespace perfgauge::harness
