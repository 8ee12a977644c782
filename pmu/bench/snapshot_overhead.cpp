// Cost of one counter snapshot: read() of a whole group vs one read() per event, and rdpmc
// where the PMU allows it. Run: build/pmu/perfgauge-bench-snapshot
#include <benchmark/benchmark.h>

#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace {

using perfgauge::pmu::CounterOptions;
using perfgauge::pmu::CounterSet;
using perfgauge::pmu::EventResolver;

void snapshot(benchmark::State& state, const char* events, bool map_pages) {
    CounterOptions options;
    options.map_pages = map_pages;
    auto set = CounterSet::open(EventResolver().resolve(events), options);
    if (set.opened_count() != set.events().size()) {
        state.SkipWithError("some events cannot be opened here (see perfgauge doctor)");
        return;
    }
    set.enable();
    auto snap = set.make_snapshot();
    set.read(snap);
    if (map_pages && snap.path != perfgauge::pmu::ReadPath::rdpmc) {
        state.SkipWithError("rdpmc unavailable here: no hardware PMU or rdpmc disabled");
        return;
    }
    for (auto _ : state) {
        set.read(snap);
        benchmark::DoNotOptimize(snap.groups.data());
        benchmark::ClobberMemory();
    }
    state.counters["groups"] = static_cast<double>(set.group_count());
    state.counters["events"] = static_cast<double>(set.events().size());
}

}  // namespace

// One group of three: one read() per snapshot.
BENCHMARK_CAPTURE(snapshot, read_group_of_3_sw, "{task-clock,page-faults,context-switches}", false);
// One event: the floor of a read() snapshot.
BENCHMARK_CAPTURE(snapshot, read_group_of_1_sw, "{task-clock}", false);
// Three separate groups: three read() calls, what per-event reading would cost.
BENCHMARK_CAPTURE(snapshot, read_3_groups_of_1_sw, "{task-clock},{page-faults},{context-switches}",
                  false);
// Hardware: read() and rdpmc (skipped where there is no PMU).
BENCHMARK_CAPTURE(snapshot, read_group_of_3_hw, "{cycles,instructions,branch-misses}", false);
BENCHMARK_CAPTURE(snapshot, rdpmc_group_of_3_hw, "{cycles,instructions,branch-misses}", true);

BENCHMARK_MAIN();
