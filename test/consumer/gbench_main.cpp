// A Google Benchmark binary on the installed adapter. run_main is called from this file, so
// the adapter sees this file's optimization: install_and_consume builds it at -O0, where its
// JSON context must carry perfgauge_unoptimized, and at -O2, where it must not.
#include <benchmark/benchmark.h>
#include <perfgauge/harness/gbench_counters.hpp>

#include <cstdint>

static void BM_sum(benchmark::State& state) {
    perfgauge::gbench::PerItemCounters counters(state);
    for (auto _ : state) {
        std::uint64_t sum = 0;
        for (std::uint64_t k = 0; k < 100; ++k)
            sum += k;
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(BM_sum);

int main(int argc, char** argv) {
    return perfgauge::gbench::run_main(argc, argv);
}
