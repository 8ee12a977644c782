// stat's simulation budget: the default, the estimate from the native runs, and its refinement
// by the runs done (no clock, no valgrind: given times).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/simulation_budget.hpp"

namespace perfgauge::harness {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(SimulationBudget, DefaultIsTheNativeTimeOrTenSecondsWhicheverIsLarger) {
    EXPECT_DOUBLE_EQ(simulation_budget_seconds(std::nullopt, 3), 10);
    EXPECT_DOUBLE_EQ(simulation_budget_seconds(std::nullopt, 42), 42);
    EXPECT_DOUBLE_EQ(simulation_budget_seconds(std::nullopt, std::nan("")), 10);
    EXPECT_DOUBLE_EQ(simulation_budget_seconds(2.5, 42), 2.5);  // --sim-budget as given
    EXPECT_DOUBLE_EQ(simulation_budget_seconds(0, 42), 0);
    EXPECT_TRUE(std::isinf(simulation_budget_seconds(kInf, 1)));
}

TEST(SimulationBudget, EstimatesStartupPlusTheFactorTimesTheNativeWallTime) {
    const SimulationBudget budget(10, {50, 0.5}, {0.1, 0.2});
    EXPECT_DOUBLE_EQ(budget.estimate(0), 5.5);
    EXPECT_DOUBLE_EQ(budget.estimate(1), 10.5);
    EXPECT_DOUBLE_EQ(budget.estimate_left(), 16);
    // 16 s of simulation does not fit 10: neither command is simulated (all or none).
    EXPECT_FALSE(budget.rest_fits());
    EXPECT_TRUE(SimulationBudget(16, {50, 0.5}, {0.1, 0.2}).rest_fits());
    EXPECT_TRUE(SimulationBudget(kInf, {50, 0.5}, {100, 100}).rest_fits());
}

TEST(SimulationBudget, ZeroSimulatesNothing) {
    EXPECT_FALSE(SimulationBudget(0, {50, 0.5}, {0}).rest_fits());
}

TEST(SimulationBudget, TheFirstRunRefinesTheRest) {
    // Estimated 5.5 s each, 11 in all: fits 12 s.
    SimulationBudget faster(12, {50, 0.5}, {0.1, 0.1});
    ASSERT_TRUE(faster.rest_fits());
    faster.done(2.75);  // twice as fast as estimated: B is estimated at half too
    EXPECT_EQ(faster.next(), 1u);
    EXPECT_DOUBLE_EQ(faster.estimate(1), 2.75);
    EXPECT_DOUBLE_EQ(faster.budget_left(), 9.25);
    EXPECT_TRUE(faster.rest_fits());

    SimulationBudget slower(12, {50, 0.5}, {0.1, 0.1});
    slower.done(6.6);  // 20% slower than estimated: B at 6.6 s does not fit the 5.4 s left
    EXPECT_DOUBLE_EQ(slower.estimate(1), 6.6);
    EXPECT_FALSE(slower.rest_fits());
}

TEST(SimulationBudget, NothingLeftOnceEveryRunIsDone) {
    SimulationBudget budget(100, {50, 0.5}, {0.1});
    budget.done(20);  // over the budget's estimate, still within it
    EXPECT_EQ(budget.next(), 1u);
    EXPECT_DOUBLE_EQ(budget.estimate_left(), 0);
    EXPECT_FALSE(budget.rest_fits());
    budget.done(1);  // ignored
    EXPECT_DOUBLE_EQ(budget.budget_left(), 80);
}

TEST(SimulationBudget, TheCacheSimulationIsEstimatedSlower) {
    EXPECT_GT(default_simulation_cost(true).factor, default_simulation_cost(false).factor);
    EXPECT_GT(default_simulation_cost(false).startup_seconds, 0);
}

TEST(SimulationBudget, SaidInWordsAndAsTheFlagToAsk) {
    EXPECT_EQ(budget_text(10), "10 s");
    EXPECT_EQ(budget_text(0.25), "0.3 s");
    EXPECT_EQ(budget_text(90), "1 min 30 s");
    EXPECT_EQ(budget_text(120), "2 min");
    EXPECT_EQ(budget_text(kInf), "no limit");
    EXPECT_EQ(sim_budget_to_ask(41.2), "45");
    EXPECT_EQ(sim_budget_to_ask(45), "45");
    EXPECT_EQ(sim_budget_to_ask(0.3), "5");
}

}  // namespace
}  // namespace perfgauge::harness

namespace perfgauge::harness {
namespace {

TEST(OutputTail, KeepsTheLastLinesAndBytes) {
    EXPECT_EQ(output_tail("a\nb\nc\n", 2, 100), "b\nc");
    EXPECT_EQ(output_tail("a\nb\nc", 1, 100), "c");
    EXPECT_EQ(output_tail("a\nb\nc\n\n", 5, 100), "a\nb\nc");
    EXPECT_EQ(output_tail("", 5, 100), "");
    EXPECT_EQ(output_tail("\n\n", 5, 100), "");
    EXPECT_EQ(output_tail("first\nsecond line\n", 1, 4), "...line");
}

}  // namespace
}  // namespace perfgauge::harness
