// The units history prints a stored metric in: SI prefixes, times as ns/us/ms/s, the unit of
// nanosecond-valued events whatever an older store holds, and a plot axis in plain numbers.
#include "perfgauge/harness/metric_policy.hpp"

#include <gtest/gtest.h>

namespace perfgauge::harness {
namespace {

TEST(MetricPolicy, TaskClockIsATimeEvenWhereStoredAsACount) {
    // Stores written before add knew it hold "count/run" for task-clock: read as time all the
    // same, by the metric's name.
    const auto old = metric_policy("task-clock", "count/run", false);
    EXPECT_EQ(old.quantity, MetricPolicy::Quantity::time);
    EXPECT_EQ(old.per, "run");
    EXPECT_EQ(format_metric_value(6.91757e+07, old), "69.18 ms/run");
    EXPECT_EQ(format_metric_value(6.91757e+07, metric_policy("task-clock", "ns/run", false)),
              "69.18 ms/run");
}

TEST(MetricPolicy, TimesTakeTheLargestUnitNotAboveThem) {
    const auto p = metric_policy("time", "ns/item", false);
    EXPECT_EQ(format_metric_value(1.5, p), "1.5 ns/item");
    EXPECT_EQ(format_metric_value(999, p), "999 ns/item");
    EXPECT_EQ(format_metric_value(1000, p), "1 us/item");
    EXPECT_EQ(format_metric_value(2.5e9, p), "2.5 s/item");
    EXPECT_EQ(format_metric_value(0, p), "0 ns/item");
    EXPECT_EQ(format_metric_value(-3e6, p), "-3 ms/item");  // a change's size may be negative
}

TEST(MetricPolicy, CountsTakeAnSIPrefix) {
    const auto p = metric_policy("branch-misses", "count/item", true);
    EXPECT_EQ(p.quantity, MetricPolicy::Quantity::count);
    EXPECT_EQ(format_metric_value(517860, p), "517.9k/item");
    EXPECT_EQ(format_metric_value(12, p), "12/item");
    EXPECT_EQ(format_metric_value(3.2e9, p), "3.2G/item");
    EXPECT_EQ(format_metric_value(7e12, p), "7T/item");
}

TEST(MetricPolicy, NanosecondEventsAreStatedInNanoseconds) {
    EXPECT_EQ(metric_unit("task-clock", "count/run"), "ns/run");
    EXPECT_EQ(metric_unit("cpu-clock", "count/item"), "ns/item");
    EXPECT_EQ(metric_unit("duration_time", "count/run"), "ns/run");
    EXPECT_EQ(metric_unit("task-clock", "ns/run"), "ns/run");  // a new store: as it is
    EXPECT_EQ(metric_unit("instructions", "count/run"), "count/run");
    EXPECT_EQ(metric_unit("time", "ns/item"), "ns/item");
    EXPECT_EQ(metric_unit("bytes_per_second", "count/iteration"), "count/iteration");
}

TEST(MetricPolicy, AnAxisReadsPlainNumbersInItsUnit) {
    const auto time = axis_scale(6.91757e+07, metric_policy("task-clock", "count/run", false));
    EXPECT_DOUBLE_EQ(time.scale, 1e-6);
    EXPECT_EQ(time.label, "ms per run");
    const auto count = axis_scale(517860, metric_policy("instructions", "count/item", false));
    EXPECT_DOUBLE_EQ(count.scale, 1e-3);
    EXPECT_EQ(count.label, "thousands per item");
    const auto small = axis_scale(12, metric_policy("instructions", "count/item", false));
    EXPECT_DOUBLE_EQ(small.scale, 1);
    EXPECT_EQ(small.label, "count per item");
    const auto rate =
        axis_scale(2.5e9, metric_policy("bytes_per_second", "count/iteration", false));
    EXPECT_DOUBLE_EQ(rate.scale, 1e-9);
    EXPECT_EQ(rate.label, "billions per second");
    const auto nothing = axis_scale(0, metric_policy("time", "ns/item", false));
    EXPECT_DOUBLE_EQ(nothing.scale, 1);
    EXPECT_EQ(nothing.label, "ns per item");
}

}  // namespace
}  // namespace perfgauge::harness
