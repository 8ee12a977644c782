// selftest --counters on this machine, for real. Where no hardware event opens (the x86 CI VM),
// every check must say unavailable with the kernel's reason, never pass or fail; where one
// opens, instructions must be exact. The arm64 guest runs the command itself
// (scripts/arm64/suite-plan.sh) and requires its passes.
#include <gtest/gtest.h>

#include <string>

#include "perfgauge/harness/counter_checks.hpp"

namespace perfgauge::harness {
namespace {

// Small: the checks' arithmetic is tested on fake counts; this is about what they say here.
CounterCheckPlan small_plan() {
    CounterCheckPlan plan;
    plan.sizes = {1000, 100000};
    plan.repeats = 2;
    plan.multiplex_iterations = 10000000;
    plan.branch_iterations = 1 << 16;
    plan.region_entries = 2;
    return plan;
}

TEST(CounterChecks, EveryCheckIsReportedInOrder) {
    const auto checks = run_counter_checks(small_plan());
    ASSERT_EQ(checks.size(), std::size(kCounterCheckNames));
    for (std::size_t i = 0; i < checks.size(); ++i)
        EXPECT_EQ(checks[i].name, kCounterCheckNames[i]);
}

TEST(CounterChecks, WithoutAPmuEveryCheckIsUnavailableWithTheReason) {
    const auto why = hardware_counting_unavailable();
    if (!why)
        GTEST_SKIP() << "hardware events open here: the checks run (see the next test)";
    EXPECT_FALSE(why->empty());
    for (const auto& check : run_counter_checks(small_plan())) {
        EXPECT_EQ(check.verdict, CheckVerdict::unavailable) << check.name << ": " << check.detail;
        EXPECT_FALSE(check.measured) << check.name;
        // The kernel's refusal, named by event: "instructions:u: not supported: ..." (the
        // branch-misses checks name their own event).
        EXPECT_NE(check.detail.find(":u: "), std::string::npos)
            << check.name << ": " << check.detail;
    }
}

TEST(CounterChecks, WhereAPmuCountsInstructionsAreExact) {
    if (hardware_counting_unavailable())
        GTEST_SKIP() << "no hardware event opens here (no PMU)";
    const auto checks = run_counter_checks(small_plan());
    EXPECT_EQ(checks.front().verdict, CheckVerdict::pass) << checks.front().detail;
}

}  // namespace
}  // namespace perfgauge::harness
