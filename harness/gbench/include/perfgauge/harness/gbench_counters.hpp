// Per-item performance counters inside Google Benchmark benchmarks, from perfgauge's own
// counter groups (Debian's Google Benchmark is built without libpfm, so its
// --benchmark_perf_counters does nothing there; this works anyway).
//
//   int main(int argc, char** argv) {
//       if (!perfgauge::gbench::initialize(&argc, argv))   // takes --perfgauge_events=LIST
//           return 2;
//       benchmark::Initialize(&argc, argv);
//       ...
//       perfgauge::gbench::run_specified_benchmarks();  // for simulated counters (below)
//   }
//   static void BM_parse(benchmark::State& state) {
//       perfgauge::gbench::PerItemCounters counters(state);   // right before the loop
//       for (auto _ : state) { ... }
//       state.SetItemsProcessed(...);
//   }   // counters adds e.g. INSTRUCTIONS=30.8 BRANCH-MISSES=0.88 (per item) to state.counters
//
// Benchmarks compiled without optimization (no -O: CMake's default build type) are said to be,
// once, as Google Benchmark warns of a DEBUG build: a `perfgauge_unoptimized` line in the
// context (on stderr above the console table, in the JSON's "context").
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>

#include "perfgauge/harness/caller_optimized.hpp"

namespace perfgauge::gbench {

/// Removes `--perfgauge_events=LIST` (perf stat syntax), `--perfgauge_backend=auto|perf|sim`
/// and `--perfgauge_sim_items=N` from argv and remembers them. Prints the problem and returns
/// false for an invalid list (unknown event: with suggestions) or `sim` without valgrind;
/// events neither backend counts are reported on stderr once and left out, the rest still
/// count. `caller_optimized` is whether the code calling it (the benchmarks' translation unit,
/// as a rule) was compiled with optimization: left to its default, that translation unit
/// answers; false adds Google Benchmark context `perfgauge_unoptimized` ("built without
/// optimization: ..."), once.
bool initialize(int* argc, char** argv, bool caller_optimized = PERFGAUGE_CALLER_OPTIMIZED);

/// benchmark::RunSpecifiedBenchmarks() with the simulated counters: runs the simulation first
/// when events are simulated, then the benchmarks with Google Benchmark's own reporters
/// (console/JSON/CSV, --benchmark_out), each run given its [sim] counters. Without simulated
/// events it is RunSpecifiedBenchmarks() itself. Returns the number of benchmarks run.
std::size_t run_specified_benchmarks();

/// The whole main() of a benchmark binary whose benchmarks are registered already (BENCHMARK
/// macros, or RegisterBenchmark before the call): initialize(), benchmark::Initialize(),
/// unrecognized arguments refused (2), run_specified_benchmarks(), benchmark::Shutdown().
/// `caller_optimized` as initialize()'s, of the code calling run_main.
int run_main(int argc, char** argv, bool caller_optimized = PERFGAUGE_CALLER_OPTIMIZED);

/// Counts the events from construction to destruction on the calling thread and then stores
/// count / items processed (or per iteration when the benchmark set no items) in
/// state.counters under the event's name in upper case. With ->Threads(N) the value is per
/// item across the threads (each thread stores its share; Google Benchmark sums them). Does nothing
/// without
/// --perfgauge_events. Counts include whatever runs between construction and destruction
/// (set-up, PauseTiming regions): construct it right before the benchmark loop.
class PerItemCounters {
  public:
    explicit PerItemCounters(benchmark::State& state);
    ~PerItemCounters();
    PerItemCounters(const PerItemCounters&) = delete;
    PerItemCounters& operator=(const PerItemCounters&) = delete;

  private:
    struct Impl;
    benchmark::State& state_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace perfgauge::gbench
