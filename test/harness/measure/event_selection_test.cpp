// Event selection's one home: select_events() on this system, and CountedEvents, which an
// event list set on RunnerOptions or StatOptions becomes. Software events only: they resolve
// and open on every machine (the backend decisions themselves are tested with a fake prober in
// sim/simulation_test.cpp).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/pmu/event_list.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::harness {
namespace {

// Names, grouping and the attributes perf_event_open gets, group by group.
void expect_same_groups(const std::vector<pmu::GroupSpec>& a,
                        const std::vector<pmu::GroupSpec>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t g = 0; g < a.size(); ++g) {
        EXPECT_EQ(a[g].explicit_group, b[g].explicit_group) << "group " << g;
        ASSERT_EQ(a[g].events.size(), b[g].events.size()) << "group " << g;
        for (std::size_t e = 0; e < a[g].events.size(); ++e) {
            EXPECT_EQ(a[g].events[e].name, b[g].events[e].name);
            EXPECT_EQ(std::memcmp(&a[g].events[e].attr, &b[g].events[e].attr,
                                  sizeof(a[g].events[e].attr)),
                      0)
                << a[g].events[e].name;
        }
    }
}

constexpr const char* kList = "task-clock,{page-faults,context-switches:u}";

TEST(EventSelection, AListMeansWhatTheResolverMakesOfIt) {
    // What an event list set on the options always meant: the resolver's groups.
    const auto expected = pmu::EventResolver().resolve(kList);
    expect_same_groups(CountedEvents(kList).groups(), expected);
    expect_same_groups(select_events(kList, Backend::perf, false).native_groups, expected);
    RunnerOptions runner;
    runner.events = std::string(kList);
    expect_same_groups(runner.events.groups(), expected);
    StatOptions stat;
    stat.events = kList;
    expect_same_groups(stat.events.groups(), expected);
}

TEST(EventSelection, DefaultsAreTheDocumentedLists) {
    expect_same_groups(RunnerOptions{}.events.groups(),
                       pmu::EventResolver().resolve(kDefaultLibraryEvents));
    expect_same_groups(StatOptions{}.events.groups(),
                       pmu::EventResolver().resolve(kDefaultStatEvents));
    EXPECT_STREQ(kDefaultRunEvents, kDefaultStatEvents);
}

TEST(EventSelection, APlanHandsOnItsNativeGroupsOnly) {
    EventPlan plan = select_events(kList, Backend::automatic, false);
    EXPECT_FALSE(plan.any_simulated());  // software events are never simulated
    expect_same_groups(CountedEvents(plan).groups(), plan.native_groups);
    plan.native_groups.erase(plan.native_groups.begin());
    expect_same_groups(CountedEvents(plan).groups(), plan.native_groups);
}

TEST(EventSelection, ABlankListCountsNothingButTheCommandLineRefusesIt) {
    EXPECT_TRUE(CountedEvents("").groups().empty());
    EXPECT_TRUE(CountedEvents(" \t").groups().empty());
    // perfgauge run/stat -e '': an empty list is a mistake there, said as it always was.
    EXPECT_THROW(select_events("", Backend::automatic, false), pmu::EventListSyntaxError);
}

TEST(EventSelection, UnknownNamesThrowWhenTheListIsSet) {
    EXPECT_THROW(CountedEvents("task-clock,no-such-event-anywhere"), pmu::UnknownEventError);
    RunnerOptions options;
    EXPECT_THROW(options.events = "no-such-event-anywhere", pmu::EventError);
    EXPECT_THROW(select_events("no-such-event-anywhere", Backend::sim, true),
                 pmu::UnknownEventError);
}

TEST(EventSelection, SimulatedOnlyNamesAreForTheSimulatedBackend) {
    // est-cycles exists only as callgrind's estimate: perf refuses it, sim plans it.
    EXPECT_THROW(select_events("est-cycles", Backend::perf, true), pmu::EventError);
    const auto plan = select_events("est-cycles,task-clock", Backend::sim, true);
    EXPECT_EQ(plan.simulated_events(), std::vector<std::string>{"est-cycles"});
    EXPECT_EQ(plan.native_list_text(), "task-clock");
}

}  // namespace
}  // namespace perfgauge::harness
