// Google Benchmark binary for the varint decoders: every variant available here, hot
// end-on-end parses over working-set sizes and one-shot decodes, per data distribution.
// Names: varint/<variant>/<dist>/end-on-end/hot/<bytes> and varint/<variant>/<dist>/one-shot.
// One benchmark iteration is one varint (KeepRunningBatch over the buffer's varints).
//   perfgauge-bench-varint --perfgauge_events=task-clock,page-faults --benchmark_filter=bmi2
//   perfgauge-bench-varint --perfgauge_events=instructions --perfgauge_backend=sim ...
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "perfgauge/harness/gbench_counters.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/workloads/datasets.hpp"
#include "perfgauge/workloads/variant_availability.hpp"

namespace {

using namespace perfgauge::workloads;

constexpr std::int64_t kSmallest = 4 << 10, kLargest = 16 << 20;
constexpr std::uint64_t kSeed = 1;

void end_on_end(benchmark::State& state, const VarintVariant* v,
                std::shared_ptr<const VarintArena> arena) {
    const auto items = static_cast<std::size_t>(
        std::max(1.0, std::round(static_cast<double>(state.range(0)) / arena->mean_size())));
    const std::uint8_t* p = arena->bytes.data();
    if (v->parse(p, arena->bytes.end(), items) !=
        parse_varints_reference(p, arena->bytes.end(), items)) {
        state.SkipWithError("disagrees with the reference decoder");
        return;
    }
    perfgauge::gbench::PerItemCounters counters(state);
    while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(items))) {
        const auto r = v->parse(p, arena->bytes.end(), items);
        benchmark::DoNotOptimize(r.sum);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
    state.SetBytesProcessed(
        static_cast<std::int64_t>(static_cast<double>(state.iterations()) * arena->mean_size()));
}

void one_shot(benchmark::State& state, const VarintVariant* v,
              std::shared_ptr<const VarintArena> arena) {
    constexpr benchmark::IterationCount kBatch = 1000;
    const std::uint8_t* p = arena->bytes.data();
    perfgauge::gbench::PerItemCounters counters(state);
    while (state.KeepRunningBatch(kBatch))
        benchmark::DoNotOptimize(v->repeat(p, arena->bytes.end(), kBatch));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

}  // namespace

int main(int argc, char** argv) {
    if (!perfgauge::gbench::initialize(&argc, argv))
        return 2;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 2;
    const auto cpu = perfgauge::harness::detect_cpu();
    for (const Distribution dist :
         {Distribution::log_uniform, Distribution::fixed1, Distribution::uniform}) {
        auto arena = std::make_shared<const VarintArena>(
            make_varint_arena(dist, kLargest + kLargest / 8, kSeed));
        for (const auto& v : varint_variants()) {
            if (const auto why = unavailable_reason(v, cpu); !why.empty()) {
                std::fprintf(stderr, "skipped: %s\n", why.c_str());
                continue;
            }
            const std::string prefix =
                "varint/" + std::string(v.name) + "/" + std::string(distribution_name(dist));
            benchmark::RegisterBenchmark((prefix + "/end-on-end/hot").c_str(), end_on_end, &v,
                                         arena)
                ->RangeMultiplier(8)
                ->Range(kSmallest, kLargest);
            benchmark::RegisterBenchmark((prefix + "/one-shot").c_str(), one_shot, &v, arena);
        }
    }
    perfgauge::gbench::run_specified_benchmarks();
    benchmark::Shutdown();
    return 0;
}
