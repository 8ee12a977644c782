// What a run asks its measuring children: its own request, with what only the parent does
// taken out (outputs, notes, the fan-out, --against), and for --against's children native
// counters, quiet, and the budget shared by the pairs; for the simulation child the suite and
// the simulation's own settings, and no place among measuring processes.
#include <gtest/gtest.h>

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
    parent.sim_jobs = 3;
    parent.sim_child_manifest = "/tmp/stale/manifest.json";
    parent.measuring_child = MeasuringChild{1, 2, "/tmp/r.json"};
    const RunRequest child = simulation_child_request(parent);
    EXPECT_EQ(child.selection, parent.selection);
    EXPECT_EQ(child.sim_items, 5000u);
    EXPECT_EQ(child.sim_jobs, 3u);
    // Where its manifest goes is harness::simulate's to say; it is no measuring process.
    EXPECT_FALSE(child.sim_child_manifest.has_value());
    EXPECT_FALSE(child.measuring_child.has_value());
    EXPECT_TRUE(child.notes.empty());
    EXPECT_TRUE(child.output.empty());
    EXPECT_EQ(child.json.where, SavedResult::Where::nowhere);
    EXPECT_FALSE(child.against.has_value());
}

}  // namespace
}  // namespace perfgauge::harness
