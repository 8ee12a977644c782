#include "perfgauge/harness/sample_health.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace perfgauge::harness {
namespace {

TEST(SampleHealth, DisturbedWhenSwitchedOutOrWallExceedsCpu) {
    const double slack = 5000;
    EXPECT_FALSE(is_disturbed({2e6, 2e6, 0}, slack));
    EXPECT_FALSE(is_disturbed({2e6, 2e6 - 40000, 0}, slack)) << "2% + slack is tolerated";
    EXPECT_TRUE(is_disturbed({2e6, 2e6 - 50000, 0}, slack));
    EXPECT_TRUE(is_disturbed({2e6, 2e6, 1}, slack)) << "any involuntary switch";
    EXPECT_FALSE(is_disturbed({2e6, 2e6 + 30000, 0}, slack)) << "CPU above wall: clock jitter";
    EXPECT_DOUBLE_EQ(disturbance_tolerance_ns(1e6, 5000), 25000);
    EXPECT_FALSE(is_disturbed({2e6, 2e6, 0, 1.04}, slack)) << "probe within 5% of the fastest";
    EXPECT_TRUE(is_disturbed({2e6, 2e6, 0, 1.2}, slack)) << "the machine ran slow around it";
}

TEST(SampleHealth, CpuClockSlackIsTheStrayOfTheGapWithAFloor) {
    EXPECT_DOUBLE_EQ(cpu_clock_slack_ns({}), 5000);
    std::vector<double> gaps(200, -1400);
    gaps[0] = -1400 + 30000;  // one reading strays by 30 us
    gaps[1] = -1400 - 30000;
    gaps[2] = -1400 + 20000;
    // 99th percentile of |gap - median| over 200: between the largest strays, well above 5 us.
    const double slack = cpu_clock_slack_ns(gaps);
    EXPECT_GT(slack, 19000);
    EXPECT_LE(slack, 30000);
    EXPECT_DOUBLE_EQ(cpu_clock_slack_ns(std::vector<double>(50, -1400)), 5000);
}

TEST(SampleHealth, ReadsThisThread) {
    const ThreadCpu a = read_thread_cpu();
    volatile double x = 0;
    for (int i = 0; i < 1000000; ++i)
        x = x + i;
    const ThreadCpu b = read_thread_cpu();
    EXPECT_GT(b.cpu_ns, a.cpu_ns);
    EXPECT_GE(b.involuntary_switches, a.involuntary_switches);
}

}  // namespace
}  // namespace perfgauge::harness
