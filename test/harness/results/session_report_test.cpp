// A Session's report rendered from its model alone (no counters, no clock): the columns, the
// notes each value calls for, and the four formats.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/session_report.hpp"

namespace perfgauge::harness {
namespace {

SessionReport two_regions() {
    SessionReport report;
    report.clock = "steady_clock";
    report.overhead_ns = 50;
    report.nested_overhead_ns = 60;
    report.counted_events = {"page-faults"};
    // parse: 4 entries of 1000 ns raw, 900 corrected; 2 page faults in all.
    report.regions.push_back({"parse", 0, 4, 4000, 3600, {2}, {900, 900, 900, 900}});
    // inner: mostly subtracted (corrected 30% of raw), counter corrected below zero, and only
    // its first 2 of 3 entries kept.
    report.regions.push_back({"inner", 1, 3, 300, 90, {-3}, {30, 30}});
    report.closed_with_parent = {{"inner", "parse"}};
    report.still_open = {"outer"};
    report.not_counted = {"cycles (no hardware PMU)"};
    return report;
}

TEST(SessionReport, TheTableHasARowPerRegionAndTheNotesTheValuesCallFor) {
    const std::string out = render_session_report(two_regions(), OutputFormat::table);
    EXPECT_NE(out.find("REGION"), std::string::npos) << out;
    EXPECT_NE(out.find("page-faults/ENTRY"), std::string::npos) << out;
    EXPECT_NE(out.find("  inner"), std::string::npos) << out;   // indented by its depth
    EXPECT_NE(out.find("1.000 us"), std::string::npos) << out;  // parse's raw time per entry
    EXPECT_NE(out.find("900.000 ns"), std::string::npos) << out;
    // The clock note comes first, the refused event last.
    EXPECT_NE(out.find("clock steady_clock; overhead of one region 50.000 ns subtracted"),
              std::string::npos)
        << out;
    EXPECT_LT(out.find("clock steady_clock"), out.find("inner total page-faults: corrected -3"))
        << out;
    EXPECT_NE(out.find("inner: median and spread over its first 2 of 3 entries"), std::string::npos)
        << out;
    EXPECT_NE(out.find("raw time: inner (70%)"), std::string::npos) << out;
    EXPECT_NE(out.find("'inner' was still open when 'parse' around it closed"), std::string::npos)
        << out;
    EXPECT_NE(out.find("are not included): 'outer'"), std::string::npos) << out;
    EXPECT_EQ(out.rfind("not counted: cycles (no hardware PMU)\n"),
              out.size() - std::string("not counted: cycles (no hardware PMU)\n").size())
        << out;
}

TEST(SessionReport, CsvHasADepthColumnMarkdownListsTheNotes) {
    const std::string csv = render_session_report(two_regions(), OutputFormat::csv);
    EXPECT_EQ(csv.rfind("REGION,DEPTH,COUNT,", 0), 0u) << csv;
    EXPECT_NE(csv.find("\ninner,1,3,"), std::string::npos) << csv;
    const std::string md = render_session_report(two_regions(), OutputFormat::markdown);
    EXPECT_NE(md.find("| parse |"), std::string::npos) << md;
    EXPECT_NE(md.find("- not counted: cycles"), std::string::npos) << md;
}

TEST(SessionReport, JsonCarriesTheFiguresAndTheNotes) {
    const auto j = nlohmann::json::parse(render_session_report(two_regions(), OutputFormat::json));
    EXPECT_EQ(j["clock"], "steady_clock");
    EXPECT_EQ(j["nested_overhead_ns"], 60.0);
    ASSERT_EQ(j["regions"].size(), 2u);
    EXPECT_EQ(j["regions"][0]["name"], "parse");
    EXPECT_DOUBLE_EQ(j["regions"][0]["corrected_ns_per_entry"].get<double>(), 900.0);
    EXPECT_DOUBLE_EQ(j["regions"][0]["counters"]["page-faults"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(j["regions"][0]["relative_iqr"].get<double>(), 0.0);
    // Below zero: shown as 0, and said.
    EXPECT_DOUBLE_EQ(j["regions"][1]["counters"]["page-faults"].get<double>(), 0.0);
    EXPECT_EQ(j["regions"][1]["entries_in_median"], 2u);
    EXPECT_EQ(j["not_counted"].size(), 1u);
    EXPECT_EQ(j["notes"].size(), 7u) << j["notes"].dump(1);
}

TEST(SessionReport, AMedianShownAsZeroHasNoSpread) {
    SessionReport report;
    report.clock = "steady_clock";
    report.regions.push_back({"empty", 0, 2, 100, -10, {}, {-5, -5}});
    const auto j = nlohmann::json::parse(render_session_report(report, OutputFormat::json));
    EXPECT_TRUE(j["regions"][0]["relative_iqr"].is_null());
    EXPECT_DOUBLE_EQ(j["regions"][0]["median_corrected_ns"].get<double>(), 0.0);
    const std::string table = render_session_report(report, OutputFormat::table);
    EXPECT_NE(table.find("empty median entry: corrected -5.000 ns is below zero"),
              std::string::npos)
        << table;
}

}  // namespace
}  // namespace perfgauge::harness
