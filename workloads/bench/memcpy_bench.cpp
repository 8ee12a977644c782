// Google Benchmark binary for memcpy, the speed-of-light reference of the varint decoders:
// hot copies (the same source every iteration) over the working-set sizes varint uses.
//   perfgauge-bench-memcpy --perfgauge_events=task-clock,page-faults
#include <benchmark/benchmark.h>

#include <cstring>

#include "perfgauge/harness/gbench_counters.hpp"
#include "perfgauge/workloads/varint.hpp"

namespace {

void memcpy_hot(benchmark::State& state) {
    const auto bytes = static_cast<std::size_t>(state.range(0));
    perfgauge::workloads::PaddedBytes src(bytes), dst(bytes);
    std::memset(src.data(), 0x5a, bytes);  // touch every page before timing
    std::memset(dst.data(), 0, bytes);
    perfgauge::gbench::PerItemCounters counters(state);
    for (auto _ : state) {
        std::memcpy(dst.data(), src.data(), bytes);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

}  // namespace

BENCHMARK(memcpy_hot)->Name("memcpy/hot")->RangeMultiplier(8)->Range(64, 64 << 20);

int main(int argc, char** argv) {
    return perfgauge::gbench::run_main(argc, argv);
}
