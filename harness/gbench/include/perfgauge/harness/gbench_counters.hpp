// Per-item performance counters inside Google Benchmark benchmarks, from perfgauge's own
// counter groups (Debian's Google Benchmark is built without libpfm, so its
// --benchmark_perf_counters does nothing there; this works anyway).
//
//   int main(int argc, char** argv) {
//       if (!perfgauge::gbench::initialize(&argc, argv))   // takes --perfgauge_events=LIST
//           return 2;
//       benchmark::Initialize(&argc, argv);
//       ...
//   }
//   static void BM_parse(benchmark::State& state) {
//       perfgauge::gbench::PerItemCounters counters(state);   // right before the loop
//       for (auto _ : state) { ... }
//       state.SetItemsProcessed(...);
//   }   // counters adds e.g. INSTRUCTIONS=30.8 BRANCH-MISSES=0.88 (per item) to state.counters
#pragma once

#include <benchmark/benchmark.h>

#include <memory>

namespace perfgauge::gbench {

/// Removes `--perfgauge_events=LIST` (perf stat syntax) from argv and remembers the list.
/// Prints the problem and returns false for an invalid list (unknown event: with suggestions);
/// events the kernel refuses are reported on stderr once and left out, the rest still count.
bool initialize(int* argc, char** argv);

/// Counts the events from construction to destruction on the calling thread and then stores
/// count / items processed (or per iteration when the benchmark set no items) in
/// state.counters under the event's name in upper case. Does nothing without
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
