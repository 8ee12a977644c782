// The report's arithmetic: segment levels between change points, the value range a graph
// shows, and where values and runs fall on it.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "perfgauge/harness/report_model.hpp"  // the graph's arithmetic
#include "perfgauge/harness/report_segments.hpp"

namespace perfgauge::harness {
namespace {

std::vector<RunPoint> values(std::initializer_list<double> v) {
    std::vector<RunPoint> out;
    for (const double x : v)
        out.push_back({x, 0});
    return out;
}

TEST(ReportSegments, OneSegmentWithoutChangePointsAtTheGeometricMean) {
    const auto s = segment_levels(values({1, 4, 16}), {});
    ASSERT_EQ(s.size(), 1U);
    EXPECT_EQ(s[0].first, 0U);
    EXPECT_EQ(s[0].last, 2U);
    EXPECT_DOUBLE_EQ(s[0].level, 4);
}

TEST(ReportSegments, ChangePointsCutTheSeriesAtTheirRuns) {
    std::vector<ChangePoint> changes(2);
    changes[0].index = 2;
    changes[1].index = 4;
    const auto s = segment_levels(values({10, 10, 20, 20, 5, 5, 5}), changes);
    ASSERT_EQ(s.size(), 3U);
    EXPECT_EQ(s[0].last, 1U);
    EXPECT_EQ(s[1].first, 2U);
    EXPECT_EQ(s[1].last, 3U);
    EXPECT_EQ(s[2].first, 4U);
    EXPECT_EQ(s[2].last, 6U);
    EXPECT_DOUBLE_EQ(s[0].level, 10);
    EXPECT_DOUBLE_EQ(s[1].level, 20);
    EXPECT_DOUBLE_EQ(s[2].level, 5);
}

TEST(ReportSegments, ValuesNotAllPositiveTakeTheArithmeticMean) {
    const auto s = segment_levels(values({-1, 0, 4}), {});
    ASSERT_EQ(s.size(), 1U);
    EXPECT_DOUBLE_EQ(s[0].level, 1);
}

TEST(ReportSegments, AChangePointPastTheEndMakesNoEmptySegment) {
    std::vector<ChangePoint> changes(1);
    changes[0].index = 9;
    const auto s = segment_levels(values({1, 1}), changes);
    ASSERT_EQ(s.size(), 1U);
    EXPECT_EQ(s[0].last, 1U);
    EXPECT_TRUE(segment_levels({}, changes).empty());
}

TEST(ReportScale, TheRangeHoldsEveryIntervalWithRoom) {
    const std::vector<RunPoint> pts = {{10, 1}, {20, 2}};
    const auto r = value_range(pts);
    EXPECT_DOUBLE_EQ(r.low, 9 - 0.05 * 13);
    EXPECT_DOUBLE_EQ(r.high, 22 + 0.05 * 13);
    EXPECT_DOUBLE_EQ(y_pixel(r.high, r, 100), 0);
    EXPECT_DOUBLE_EQ(y_pixel(r.low, r, 100), 100);
}

TEST(ReportScale, OneValueIsWidenedAroundIt) {
    auto r = value_range(values({50, 50}));
    EXPECT_DOUBLE_EQ(r.low, 47.5);
    EXPECT_DOUBLE_EQ(r.high, 52.5);
    r = value_range(values({0}));
    EXPECT_DOUBLE_EQ(r.low, -1);
    EXPECT_DOUBLE_EQ(r.high, 1);
    EXPECT_DOUBLE_EQ(y_pixel(0, r, 100), 50);
}

TEST(ReportScale, RunsSpanTheWidth) {
    EXPECT_DOUBLE_EQ(x_pixel(0, 5, 400), 0);
    EXPECT_DOUBLE_EQ(x_pixel(4, 5, 400), 400);
    EXPECT_DOUBLE_EQ(x_pixel(2, 5, 400), 200);
    EXPECT_DOUBLE_EQ(x_pixel(0, 1, 400), 200);
}

}  // namespace
}  // namespace perfgauge::harness
