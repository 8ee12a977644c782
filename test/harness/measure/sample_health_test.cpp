#include "perfgauge/harness/sample_health.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <string>
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
    EXPECT_TRUE(is_disturbed({2e6, 2e6, 0, 1.0, 1e7}, slack)) << "the hypervisor stole a tick";
}

TEST(SampleHealth, StealIsTheEighthValueOfTheCpusLine) {
    const std::string stat =
        "cpu  235010 0 29395 149132 1015 0 101 205 0 0\n"
        "cpu0 114667 0 13989 78373 280 0 10 105 0 0\n"
        "cpu1 120342 0 15405 70759 735 0 91 100 0 0\n"
        "cpu10 1 2 3 4 5 6 7 999 0 0\n"
        "cpu11 1 2 3 4 5 6 7\n"
        "intr 123 4 5\n";
    EXPECT_EQ(parse_steal_ticks(stat, 0), 105u);
    EXPECT_EQ(parse_steal_ticks(stat, 1), 100u) << "cpu1, not cpu10";
    EXPECT_EQ(parse_steal_ticks(stat, 10), 999u);
    EXPECT_FALSE(parse_steal_ticks(stat, 11)) << "a kernel without the steal column";
    EXPECT_FALSE(parse_steal_ticks(stat, 2)) << "no such CPU";
    EXPECT_FALSE(parse_steal_ticks("", 0));
}

TEST(SampleHealth, ReadsThisCpusStealTime) {
    // Every Linux since 2.6.11 has the column (0 on bare metal): it is read, in ns, and never
    // runs backwards.
    StealClock steal;
    if (!steal.available())
        GTEST_SKIP() << "/proc/stat has no steal column for this CPU here (not Linux >= 2.6.11, "
                        "or a sandbox that hides it)";
    const int cpu = ::sched_getcpu();
    const auto a = steal.steal_ns(cpu);
    const auto b = steal.steal_ns(cpu);
    ASSERT_TRUE(a && b);
    EXPECT_GE(*a, 0);
    EXPECT_GE(*b, *a);
    EXPECT_FALSE(steal.steal_ns(-1));
    EXPECT_FALSE(steal.steal_ns(1 << 20)) << "no such CPU";
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
