// Result files for the history tests, built in code: a perfgauge run result of one benchmark
// whose samples are `n` copies of a value (deterministic, like simulated counts) or seeded
// noise around it, on a named machine.
#pragma once

#include <random>
#include <string>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::test {

inline harness::RunResult synthetic_run(double ns_per_item, double noise = 0,
                                        std::uint64_t seed = 1, std::size_t n = 25,
                                        const std::string& cpu = "Test CPU 3000",
                                        const std::string& benchmark = "varint/decode") {
    harness::RunResult r;
    r.kind = harness::ResultKind::run;
    r.date = "2026-11-27T12:00:00.000+0000";
    r.system.host_name = "test-host";
    r.system.cpu.vendor = "GenuineIntel";
    r.system.cpu.model_name = cpu;
    r.system.cpu.family = 6;
    r.system.cpu.model = 85;
    r.system.cpu.logical_cpus = 2;
    r.system.kernel = "6.1.0-test";
    r.clock = "steady_clock";
    r.compiler = "GNU 12.2.0";
    r.compiler_flags = "-O3";
    r.version = "0.1.0";
    harness::BenchmarkResult b;
    b.name = benchmark;
    b.iterations = 1000;
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0, 1);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = ns_per_item * (1 + noise * z(rng));
        b.ns_per_item.push_back(v);
        b.raw_ns_per_item.push_back(v);
    }
    r.benchmarks.push_back(b);
    return r;
}

}  // namespace perfgauge::test
