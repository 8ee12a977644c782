// A run's simulation stage without valgrind: the simulation is a function here that returns
// counts, fails, or is interrupted, so what each leaves in the native result is checked exactly.
#include <gtest/gtest.h>

#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/simulation_stage.hpp"
#include "perfgauge/harness/stage_failures.hpp"
#include "simulated_run_fixtures.hpp"

namespace perfgauge::harness {
namespace {

// A machine without a hardware PMU: instructions and cycles are refused natively.
EventPlan plan(const std::string& list, Backend backend, bool valgrind) {
    return plan_events(
        pmu::parse_event_list(list), backend, valgrind, [](const pmu::EventTerm& term) {
            NativeProbe p;
            p.spec.name = pmu::term_text(term);
            p.kind =
                term.name == "task-clock" ? pmu::EventKind::software : pmu::EventKind::hardware;
            p.opened = p.kind == pmu::EventKind::software;
            if (!p.opened)
                p.reason = "not supported: this machine exposes no hardware PMU";
            return p;
        });
}

using test_fixtures::native_run;
using test_fixtures::simulated;

const auto kNeverInterrupted = [] { return 0; };

// The simulation stage of a run, without valgrind: the simulation is a function here that
// returns counts, fails, or is interrupted.
TEST(SimulationStage, ASimulationThatRanIsMerged) {
    const auto p = plan("instructions,task-clock", Backend::sim, true);
    auto r = native_run();
    const auto sim = simulate_and_merge(p, Backend::sim, simulated, r, kNeverInterrupted);
    ASSERT_TRUE(sim.has_value());
    EXPECT_EQ(sim->creator, "callgrind-3.19.0");
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_TRUE(r.events[0].counted);
    EXPECT_EQ(r.benchmarks[0].counters_per_item[0], (std::vector<double>{7, 7, 7}));
    EXPECT_TRUE(r.interrupted_by.empty());
}

TEST(SimulationStage, AFailedSimulationKeepsTheNativeResultAndIsAFailedStage) {
    clear_stage_failures();
    const auto p = plan("instructions,task-clock", Backend::sim, true);
    auto r = native_run();
    const auto sim = simulate_and_merge(
        p, Backend::sim,
        []() -> SimulationResult { throw std::runtime_error("valgrind exited with 1"); }, r,
        kNeverInterrupted);
    ASSERT_TRUE(sim.has_value());
    ASSERT_TRUE(sim->failure.has_value());
    EXPECT_EQ(stage_failures(), (std::vector<std::string>{"the simulation under callgrind"}));
    clear_stage_failures();
    ASSERT_EQ(r.benchmarks.size(), 2u);
    EXPECT_EQ(r.benchmarks[0].ns_per_item, (std::vector<double>{2, 3, 4}));
    EXPECT_EQ(r.benchmarks[0].counters_per_item[1], (std::vector<double>{2, 3, 4}));
    EXPECT_FALSE(r.events[0].counted);
    EXPECT_NE(r.events[0].refusal.reason.find("valgrind exited with 1"), std::string::npos);
    EXPECT_TRUE(r.events[1].counted);
    EXPECT_TRUE(r.interrupted_by.empty());
}

TEST(SimulationStage, AnInterruptDuringTheSimulationMarksItsEventsAndTheResult) {
    clear_stage_failures();
    const auto p = plan("instructions,task-clock", Backend::sim, true);
    auto r = native_run();
    int signal = 0;
    const auto sim = simulate_and_merge(
        p, Backend::sim,
        [&signal]() -> SimulationResult {
            signal = SIGINT;  // valgrind got it too, and failed
            throw std::runtime_error("valgrind killed by signal 2");
        },
        r, [&signal] { return signal; });
    EXPECT_FALSE(sim.has_value());
    EXPECT_TRUE(stage_failures().empty()) << "an interrupt is no failed stage";
    EXPECT_EQ(r.interrupted_by, "SIGINT");
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_FALSE(r.events[0].counted);
    EXPECT_EQ(r.events[0].refusal.reason,
              "interrupted by SIGINT while simulated under callgrind; the native measurement "
              "before it is complete");
    EXPECT_TRUE(r.events[1].counted);
}

// `r` after the simulation stage with `signal` already received: nothing may be simulated.
RunResult merged_after_interrupt(RunResult r, int signal) {
    bool ran = false;
    const auto sim = simulate_and_merge(
        plan("instructions,task-clock", Backend::sim, true), Backend::sim,
        [&ran] {
            ran = true;
            return simulated();
        },
        r, [signal] { return signal; });
    EXPECT_FALSE(sim.has_value());
    EXPECT_FALSE(ran);
    EXPECT_FALSE(r.events[0].counted);
    return r;
}

TEST(SimulationStage, NothingIsSimulatedAfterAnInterruptedNativeMeasurement) {
    auto native = native_run();
    native.interrupted_by = "SIGTERM";
    const auto r = merged_after_interrupt(native, SIGTERM);
    // Not "while simulated", nor "the native measurement ... is complete": it was not.
    EXPECT_EQ(r.events[0].refusal.reason,
              "interrupted by SIGTERM during the native measurement, so never simulated under "
              "callgrind");
}

TEST(SimulationStage, AnInterruptBetweenTheStagesSaysTheSimulationNeverStarted) {
    const auto r = merged_after_interrupt(native_run(), SIGINT);
    EXPECT_EQ(r.interrupted_by, "SIGINT");  // the run is marked, as an interrupt anywhere does
    EXPECT_EQ(r.events[0].refusal.reason,
              "interrupted by SIGINT before the simulation under callgrind; the native "
              "measurement before it is complete");
}

TEST(SimulationStage, WithoutSimulatedEventsNothingRunsAndPerfListsNothingMore) {
    const auto never = []() -> SimulationResult { throw std::logic_error("not to be called"); };
    {
        // No valgrind: cycles, refused by the kernel, is simulated by neither backend.
        const auto p = plan("task-clock,cycles", Backend::automatic, false);
        auto r = native_run();
        EXPECT_FALSE(simulate_and_merge(p, Backend::automatic, never, r, kNeverInterrupted));
        ASSERT_EQ(r.events.size(), 2u) << "every event of the plan is listed";
        EXPECT_TRUE(r.events[0].counted);
        EXPECT_EQ(r.events[1].name, "cycles");
        EXPECT_FALSE(r.events[1].counted);
    }
    {
        const auto p = plan("task-clock,cycles", Backend::perf, false);
        auto r = native_run();
        const auto before = r.events.size();
        EXPECT_FALSE(simulate_and_merge(p, Backend::perf, never, r, kNeverInterrupted));
        EXPECT_EQ(r.events.size(), before) << "--backend perf: the native result as measured";
    }
}

}  // namespace
}  // namespace perfgauge::harness
