#include "perfgauge/pmu/event_catalog.hpp"

#include <gtest/gtest.h>

#include "sysfs_pmu.hpp"

#include <algorithm>
#include <filesystem>

#include "../support/model_pmu.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/perf_event.hpp"

namespace perfgauge::pmu {
namespace {

const CatalogEntry* find(const std::vector<CatalogEntry>& entries, const std::string& name) {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [&](const CatalogEntry& e) { return e.name == name; });
    return it == entries.end() ? nullptr : &*it;
}

bool hardware_pmu_present() {
    return test::sysfs_lists_core_pmu();
}

TEST(EventCatalog, ListsGenericEventsWithTheirOpenability) {
    CatalogOptions options;
    const auto entries = list_events(options);
    const auto* cycles = find(entries, "cycles");
    const auto* task_clock = find(entries, "task-clock");
    ASSERT_NE(cycles, nullptr);
    ASSERT_NE(task_clock, nullptr);
    EXPECT_EQ(cycles->kind, EventKind::hardware);
    EXPECT_EQ(task_clock->kind, EventKind::software);
    ASSERT_TRUE(task_clock->probed);
    EXPECT_EQ(task_clock->open_error, 0) << "software events must open here";
    if (hardware_pmu_present()) {
        EXPECT_EQ(cycles->open_error, 0);
    } else {
        EXPECT_EQ(cycles->open_error, ENOENT) << "no PMU: the kernel answers ENOENT for cycles";
    }
}

TEST(EventCatalog, FilterIsACaseInsensitiveSubstring) {
    CatalogOptions options;
    options.filter = "TASK-CLO";
    options.try_open = false;
    const auto entries = list_events(options);
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].name, "task-clock");
    EXPECT_FALSE(entries[0].probed);
}

TEST(EventCatalog, ModelSpecificEventsAreListedUnderTheirPmu) {
    const auto model = test::detected_model_pmu();
    if (!model)
        GTEST_SKIP() << test::kNoKnownModelPmu;
    CatalogOptions options;
    options.filter = "RETIRED";
    const auto entries = list_events(options);
    const auto* retired = find(entries, model->retired);
    ASSERT_NE(retired, nullptr);
    EXPECT_EQ(retired->pmu, model->pmu);
    EXPECT_EQ(retired->kind, EventKind::pmu);
}

TEST(PerfEvent, ProbeOpensSoftwareEventsAndReportsErrno) {
    const EventResolver resolver{std::optional<Tracefs>{}};
    EventTerm term;
    term.name = "task-clock";
    EXPECT_EQ(probe_open(resolver.resolve(term).attr), 0);
    perf_event_attr bogus{};
    bogus.type = 0x7fffffff;  // no such PMU type
    EXPECT_NE(probe_open(bogus), 0);
}

}  // namespace
}  // namespace perfgauge::pmu
