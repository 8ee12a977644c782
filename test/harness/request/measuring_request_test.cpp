// What a run asks its measuring children: its own request, with what only the parent does
// taken out (outputs, notes, the fan-out, --against), and for --against's children native
// counters, quiet, and the budget shared by the pairs; for the simulation child the suite and
// the simulation's own settings (where its manifest goes among them), and no place among
// measuring processes. Each measuring child's share is added in one place.
#include <gtest/gtest.h>

#include "perfgauge/harness/child_request.hpp"
#include "perfgauge/harness/measuring_request.hpp"

namespace perfgauge::harness {
namespace {

RunRequest parent_request() {
    RunRequest request;
    request.notes = {"--variant: 'branchy' given twice"};
    request.processes = 3;
    request.output = "table.txt";
    request.json = {SavedResult::Where::path, "result.json"};
    request.backend = Backend::automatic;
    request.max_time_s = 1.2;
    request.repetitions = 12;
    request.seed = 5;
    request.selection.sizes = {1024};
    request.against = AgainstRequest{"../old/perfgauge", 4, 10, 2, {}};
    return request;
}

TEST(MeasuringRequest, AChildHasNoOutputsNotesFanOutOrAgainst) {
    const RunRequest child = measuring_request(parent_request());
    EXPECT_TRUE(child.notes.empty());
    EXPECT_EQ(child.processes, 1u);
    EXPECT_TRUE(child.output.empty());
    EXPECT_EQ(child.json.where, SavedResult::Where::nowhere);
    EXPECT_FALSE(child.against.has_value());
    // What it measures is the parent's.
    EXPECT_EQ(child.selection, parent_request().selection);
    EXPECT_EQ(child.backend, Backend::automatic);
    EXPECT_EQ(child.repetitions, 12u);
    EXPECT_DOUBLE_EQ(child.max_time_s, 1.2);
    EXPECT_EQ(child.seed, std::optional<std::uint64_t>(5));
}

TEST(MeasuringRequest, AnAgainstChildCountsNativelyQuietlyWithItsShareOfTheBudget) {
    const RunRequest child = paired_child_request(parent_request());
    EXPECT_EQ(child.backend, Backend::perf);
    EXPECT_TRUE(child.quiet);
    EXPECT_DOUBLE_EQ(child.max_time_s, 1.2 / 4);
    EXPECT_EQ(child.processes, 1u);
    EXPECT_FALSE(child.against.has_value());
    EXPECT_EQ(child.json.where, SavedResult::Where::nowhere);
}

TEST(MeasuringRequest, TheSimulationChildBuildsTheSameSuiteWithTheRunsSimulationSettings) {
    RunRequest parent = parent_request();
    parent.sim_items = 5000;
    parent.sim_jobs = 0;  // one per CPU: the parent resolves it
    const ChildRequest child = simulation_child_request(parent, 3, "/tmp/s/manifest.json");
    EXPECT_EQ(child.run.selection, parent.selection);
    EXPECT_EQ(child.run.sim_items, 5000u);
    EXPECT_EQ(child.run.sim_jobs, 3u);
    // Its role: where its manifest goes; it is no measuring process.
    ASSERT_NE(child.simulation(), nullptr);
    EXPECT_EQ(child.simulation()->manifest, "/tmp/s/manifest.json");
    EXPECT_EQ(child.measuring(), nullptr);
    EXPECT_TRUE(child.run.notes.empty());
    EXPECT_TRUE(child.run.output.empty());
    EXPECT_EQ(child.run.json.where, SavedResult::Where::nowhere);
    EXPECT_FALSE(child.run.against.has_value());
}

TEST(MeasuringRequest, AMeasuringChildGetsItsShareAndPlaceAndNothingElseChanges) {
    const RunRequest base = measuring_request(parent_request());
    const ChildRequest child =
        measuring_child_request(base, {4, 77, 0.3, std::nullopt, {2, 3, "/tmp/p/process-2.json"}});
    EXPECT_EQ(child.run.repetitions, 4u);
    EXPECT_EQ(child.run.seed, std::optional<std::uint64_t>(77));
    EXPECT_DOUBLE_EQ(child.run.max_time_s, 0.3);
    EXPECT_EQ(child.run.selection, base.selection);
    ASSERT_NE(child.measuring(), nullptr);
    EXPECT_EQ(*child.measuring(), (MeasuringChild{2, 3, "/tmp/p/process-2.json"}));
    EXPECT_EQ(child.simulation(), nullptr);
    RunRequest rest = child.run;
    rest.repetitions = base.repetitions;
    rest.seed = base.seed;
    rest.max_time_s = base.max_time_s;
    EXPECT_TRUE(rest == base);
}

TEST(MeasuringRequest, AnAgainstChildMeasuresItsOneBenchmarkWithinTheBudgetOfItsBase) {
    const RunRequest base = paired_child_request(parent_request());
    SuiteSelection one;
    one.workloads = {"memcpy"};
    one.sizes = {4096};
    const ChildRequest child =
        measuring_child_request(base, {2, 9, std::nullopt, one, {1, 2, "/tmp/a/0-0-own.json"}});
    EXPECT_EQ(child.run.selection, one);
    EXPECT_DOUBLE_EQ(child.run.max_time_s, base.max_time_s);  // paired_child_request's share
    EXPECT_EQ(child.run.backend, Backend::perf);
    EXPECT_TRUE(child.run.quiet);
}

}  // namespace
}  // namespace perfgauge::harness
