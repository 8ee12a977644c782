// A Google Benchmark binary linked with perfgauge::gbench, as a user's would be, whose
// benchmarks do the same work per item with 1 and 2 threads: per-item counters must not depend
// on the number of threads (Google Benchmark sums each thread's counters).
//   pages:  one page mapped, touched and unmapped per item: one page fault per item
//   sum:    a fixed arithmetic loop per item: the same instructions per item
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <cstdint>

#include "perfgauge/harness/gbench_counters.hpp"

namespace {

void pages(benchmark::State& state) {
    perfgauge::gbench::PerItemCounters counters(state);
    for (auto _ : state) {
        void* p = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            state.SkipWithError("mmap failed");
            break;
        }
        *static_cast<volatile char*>(p) = 1;
        ::munmap(p, 4096);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(pages)->Threads(1)->Threads(2);

void sum(benchmark::State& state) {
    perfgauge::gbench::PerItemCounters counters(state);
    for (auto _ : state) {
        std::uint64_t s = 0;
        for (std::uint64_t k = 0; k < 1000; ++k) {
            s += k * k;
            benchmark::DoNotOptimize(s);
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(sum)->Threads(1)->Threads(2);

}  // namespace

int main(int argc, char** argv) {
    return perfgauge::gbench::run_main(argc, argv);
}
