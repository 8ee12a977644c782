// The report page from a model built in code: every series a graph with its runs and change
// points, the regression listed first, acceptances with their reasons, names escaped, and
// nothing that would fetch from a network.
#include <gtest/gtest.h>

#include <string>

#include "perfgauge/harness/history_report_html.hpp"
#include "perfgauge/harness/metric_policy.hpp"
#include "perfgauge/harness/report_segments.hpp"

namespace perfgauge::harness {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

ReportSeries series(const std::string& benchmark, const std::string& machine, bool regressed) {
    ReportSeries s;
    s.key = {benchmark, "time", machine};
    s.machine_summary = "Test CPU";
    s.unit = "ns/item";
    s.policy = metric_policy("time", "ns/item", false);
    for (int i = 0; i < 10; ++i)
        s.runs.push_back(
            {100 + i, "commit" + std::to_string(i), {regressed && i >= 5 ? 44.0 : 40.0, 0.4}});
    if (regressed) {
        ChangePoint c;
        c.index = 5;
        c.size = 0.1;
        c.regression = true;
        s.changes.push_back(c);
        s.verdict.kind = GateVerdict::Kind::regression;
        s.verdict.current_first = 5;
        s.verdict.size = 0.1;
    } else {
        s.verdict.kind = GateVerdict::Kind::unchanged;
    }
    std::vector<RunPoint> pts;
    for (const auto& r : s.runs)
        pts.push_back(r.point);
    s.segments = segment_levels(pts, s.changes);
    return s;
}

ReportModel model() {
    ReportModel m;
    m.series = {series("BM_<decode>", "aaaaaaaa11", true), series("BM_copy", "bbbbbbbb22", false)};
    m.acceptances.push_back({1, 103, "commit3", "", "", "the \"safer\" decoder", "2026-12-07"});
    m.runs = 20;
    return m;
}

TEST(ReportHtml, EverySeriesIsAGraphWithItsRunsAndChangePoints) {
    const auto html = report_html(model());
    EXPECT_EQ(count(html, "<div class=\"series\""), 2U);
    EXPECT_EQ(count(html, "<svg "), 2U);
    EXPECT_EQ(count(html, "<g class=\"run\">"), 20U);
    EXPECT_EQ(count(html, "class=\"change regression\" data-run=\"105\""), 1U);
    EXPECT_EQ(count(html, "class=\"level\""), 3U);  // two segments and one
    EXPECT_NE(html.find("<title>run 105 (commit5): "), std::string::npos);
    EXPECT_NE(html.find("stroke-dasharray"), std::string::npos);
}

TEST(ReportHtml, TheRegressionIsListedBeforeTheGraphsAndAcceptancesWithTheirReason) {
    const auto html = report_html(model());
    const auto listed = html.find("<tr class=\"regression\">");
    ASSERT_NE(listed, std::string::npos);
    EXPECT_LT(listed, html.find("<div class=\"series\""));
    EXPECT_EQ(count(html, "<tr class=\"regression\">"), 1U);
    EXPECT_NE(html.find("REGRESSION +10.0%"), std::string::npos);
    EXPECT_NE(html.find("the &quot;safer&quot; decoder"), std::string::npos);
    EXPECT_NE(html.find("1 open regression<"), std::string::npos);
}

TEST(ReportHtml, NamesAreEscapedAndNothingIsFetched) {
    const auto html = report_html(model());
    EXPECT_EQ(html.find("BM_<decode>"), std::string::npos);
    EXPECT_NE(html.find("BM_&lt;decode&gt;"), std::string::npos);
    EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
    EXPECT_EQ(html.find("https://"), std::string::npos);
    EXPECT_EQ(html.find("<script src"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
}

TEST(ReportHtml, FiltersListEveryBenchmarkMetricAndMachine) {
    const auto html = report_html(model());
    EXPECT_EQ(count(html, "data-filter=\"benchmark\""), 2U);
    EXPECT_EQ(count(html, "data-filter=\"metric\""), 1U);
    EXPECT_EQ(count(html, "data-filter=\"machine\""), 2U);
    EXPECT_NE(html.find("data-machine=\"aaaaaaaa11\""), std::string::npos);
}

TEST(ReportHtml, EscapesEveryMarkupCharacter) {
    EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
}

}  // namespace
}  // namespace perfgauge::harness
