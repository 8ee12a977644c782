#include "perfgauge/harness/selftest_chain.hpp"

#include "perfgauge/harness/selftest_figures.hpp"

namespace perfgauge::harness {

namespace {

// Read at run time, so that no compiler knows the chain's multiplier.
volatile std::uint64_t g_multiplier = 6364136223846793005ULL;

}  // namespace

std::uint64_t run_chain(std::uint64_t operations, std::uint64_t iterations) {
    const std::uint64_t multiplier = g_multiplier;
    std::uint64_t x = 1;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        for (std::uint64_t k = 0; k < operations; ++k) {
            x = x * multiplier + k;  // each step waits for the last
            asm volatile("" : "+r"(x));
        }
    }
    return x;
}

Benchmark chain_benchmark(const std::string& work, std::uint64_t operations,
                          const std::string& name) {
    return {name.empty() ? "chain/" + work : name,
            1,
            0,
            [operations](BatchState& s) { benchmark_sink(run_chain(operations, s.iterations())); },
            {{kWorkParam, work}}};
}

RunnerOptions chain_runner_options(const ChainSampling& sampling) {
    RunnerOptions options;
    options.events = "";
    options.repetitions = sampling.repetitions;
    options.precision = sampling.precision;
    options.max_time_s = sampling.max_time_s;
    options.min_sample_time_s = sampling.min_sample_time_s;
    options.warmup_time_s = sampling.warmup_time_s;
    options.seed = sampling.seed;
    options.probe_cpu_gaps = false;
    return options;
}

}  // namespace perfgauge::harness
