// perfgauge events' reports from plain data (no PMU): a resolved list group by group, and the
// catalogue's counts of what was tried.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <limits>
#include <stdexcept>
#include <string>

#include "../../support/text.hpp"
#include "perfgauge/harness/events_report.hpp"

namespace perfgauge::harness {
namespace {

using test::contains;

TEST(EventsReport, ResolvedGroupsWithTheirLeaderAndAttrs) {
    ResolvedEventList list;
    list.verbose = true;
    list.groups = {{true,
                    {{"task-clock", "software", 1, 1, "user", "yes", "generic", "type=1"},
                     {"page-faults", "software", 1, 2, "user", "yes", "generic", "type=1 c=2"}}},
                   {false, {{"cycles", "hardware", 0, 0, "user", "no (ENOENT)", "generic", ""}}}};
    list.hardware_problem = OpenProblem{"no PMU", "run on bare metal"};
    const std::string text = render_resolved_events(list, OutputFormat::table);
    EXPECT_TRUE(contains(text, "group 1 {...}: 2 events\n")) << text;
    EXPECT_TRUE(contains(text, "group 2: 1 event\n")) << text;
    EXPECT_TRUE(contains(text, "task-clock (leader)")) << text;
    EXPECT_FALSE(contains(text, "cycles (leader)")) << text;
    EXPECT_TRUE(contains(text, "0x2")) << text;
    EXPECT_TRUE(contains(text, "  attr of page-faults: type=1 c=2\n")) << text;
    EXPECT_TRUE(contains(text,
                         "\nhardware events cannot be opened here: no PMU\n  fix: run on bare "
                         "metal\n"))
        << text;
    EXPECT_EQ(event_type_text(4), "4 (raw)");
    EXPECT_EQ(event_type_text(11), "11 (dynamic PMU)");
    EXPECT_THROW(render_resolved_events(list, OutputFormat::json), std::invalid_argument);
}

TEST(EventsReport, CatalogueCountsWhatWasTried) {
    EventCatalogListing listing;
    listing.rows = {{"cycles", "perf", "hardware", "no", std::string(70, 'd')},
                    {"task-clock", "perf", "software", "yes", "time"}};
    std::string text = render_event_catalog(listing, OutputFormat::table);
    EXPECT_TRUE(contains(text, "\n2 events.\n")) << text;
    EXPECT_FALSE(contains(text, std::string(70, 'd'))) << "cut at 60 columns without -v";
    listing.tried = true;
    listing.probed = 2;
    listing.openable = 1;
    EXPECT_TRUE(contains(render_event_catalog(listing, OutputFormat::table),
                         "\n2 events, 1 can be opened here.\n"));
    listing.probed = 1;
    listing.sample_tracepoint = SampleTracepoint{"sched:sched_switch", "no tracefs"};
    text = render_event_catalog(listing, OutputFormat::table);
    EXPECT_TRUE(contains(text, "\n2 events, 1 of the 1 tried can be opened here.\n")) << text;
    EXPECT_TRUE(contains(text, "; sched:sched_switch cannot be opened here: no tracefs.\n"))
        << text;
    EXPECT_THROW(render_event_catalog(listing, OutputFormat::csv), std::invalid_argument);
}

}  // namespace
}  // namespace perfgauge::harness
