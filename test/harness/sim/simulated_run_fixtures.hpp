// A native run and its simulated counts, shared by the tests of merging (simulation_test) and
// of the simulation stage (simulation_stage_test).
#pragma once

#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/simulation.hpp"

namespace perfgauge::harness::test_fixtures {

// A native run of task-clock over two benchmarks with three samples each.
inline RunResult native_run() {
    RunResult r;
    r.repetitions = 3;
    r.events = {native_column("task-clock", pmu::EventKind::software, true)};
    for (const char* name : {"a", "b"}) {
        BenchmarkResult b;
        b.name = name;
        b.items_per_iteration = 1000;
        b.iterations = 10;
        b.ns_per_item = {2, 3, 4};
        b.raw_ns_per_item = {2.5, 3.5, 4.5};
        b.counters_per_item = {{2, 3, 4}};
        b.raw_counters_per_item = {{2, 3, 4}};
        b.running_fraction = {1};
        r.benchmarks.push_back(b);
    }
    return r;
}

// What callgrind counted for it: one simulated event, per item.
inline SimulationResult simulated() {
    SimulationResult s;
    s.creator = "callgrind-3.19.0";
    s.benchmarks = {{"a", 3000, {7}, {7.05}}, {"b", 1000, {30}, {30.1}}};
    return s;
}

}  // namespace perfgauge::harness::test_fixtures
