// What run's stages compute without a machine: the time breakdown a run says and records, the
// simulated caches handed to valgrind, and what --against says when benchmarks are missing.
#include <gtest/gtest.h>

#include "perfgauge/harness/against_stage.hpp"
#include "perfgauge/harness/run_simulation.hpp"

namespace perfgauge::harness {
namespace {

TEST(RunStages, TheTimeBreakdownSaysBothTimesTheProcessesAndTheRatio) {
    SimulationResult sim;
    sim.wall_seconds = 30;
    sim.jobs = 2;
    sim.cache_sim = false;
    EXPECT_EQ(time_breakdown(sim, 10),
              "native measurement 10.0 s, then simulation 30.0 s (2 processes at once, no cache "
              "simulation; 3.0x native)");
    sim.jobs = 1;
    sim.cache_sim = true;
    EXPECT_EQ(time_breakdown(sim, 0),
              "native measurement 0.0 s, then simulation 30.0 s (1 process at once, caches "
              "simulated; 30000000000.0x native)");
}

TEST(RunStages, AFailedSimulationSaysWhyAndRecordsNothingOfItsOwn) {
    SimulationResult sim = failed_simulation("valgrind was not found", 1.25);
    EXPECT_EQ(time_breakdown(sim, 4), "native measurement 4.0 s, then " + sim.failure->reason +
                                          " (1.2 s); the simulated events are marked not counted");
    EXPECT_TRUE(simulation_context(EventPlan{}, sim, SimulatedCaches{}, RunRequest{}, 4).empty());
}

TEST(RunStages, TheSimulatedCachesAreValgrindsFlagsInOrder) {
    SimulatedCaches caches;
    EXPECT_EQ(describe_caches(caches), "");
    caches.ll = pmu::SimCache{8 << 20, 16, 64};
    caches.d1 = pmu::SimCache{32768, 8, 64};
    EXPECT_EQ(describe_caches(caches), "--D1=32768,8,64 --LL=8388608,16,64");
}

TEST(RunStages, TheSimulationsContextRecordsItsSettings) {
    SimulationResult sim;
    sim.creator = "callgrind-3.19.0";
    sim.wall_seconds = 2;
    sim.benchmarks = {SimulatedCounts{"a", 1, {}, {}, 0.5}, SimulatedCounts{"b", 1, {}, {}, 1.5}};
    RunRequest request;
    request.sim_items = 1234;
    const auto context = simulation_context(EventPlan{}, sim, SimulatedCaches{}, request, 1);
    const auto value = [&](const std::string& key) {
        for (const auto& [k, v] : context) {
            if (k == key)
                return v;
        }
        return std::string("(none)");
    };
    EXPECT_EQ(value("simulator"), "callgrind-3.19.0");
    EXPECT_EQ(value("min_items"), "1234");
    EXPECT_EQ(value("simulation_seconds_by_benchmark"), "a 0.50; b 1.50");
    EXPECT_EQ(value("est_cycles"), "(none)");  // est-cycles was not simulated
}

TEST(RunStages, AgainstSaysWhichBenchmarkStoppedThePairsAndWhy) {
    AgainstMeasured measured{{"a", "this build", {}, {}}, {"b", "the other build", {}, {}}, {}, 2};
    measured.own.benchmarks.resize(1);
    measured.done.stopped_at = "memcpy/hot/4K";
    EXPECT_EQ(against_stop_warning(measured),
              "interrupted while measuring memcpy/hot/4K: it and the benchmarks after it are "
              "missing");
    measured.done.failure = "the other build (b) exited with status 2 while measuring x";
    EXPECT_EQ(against_stop_warning(measured),
              "a measuring process failed while measuring memcpy/hot/4K: it and the benchmarks "
              "after it are missing");
    measured.own.benchmarks.resize(2);
    EXPECT_EQ(against_stop_warning(measured), "");
}

}  // namespace
}  // namespace perfgauge::harness
