// Gaps in a spinning thread's time: the pure summary, doctor's judgement of it, and a real spin.
#include "perfgauge/harness/cpu_gaps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "../../support/text.hpp"
#include "perfgauge/harness/doctor.hpp"
#include "perfgauge/harness/reliability.hpp"

namespace perfgauge::harness {
namespace {

using test::contains;

// What the development VM shows: 35 us taken every 1 ms, among short jumps that are not gaps.
std::vector<Gap> host_ticks(int ms) {
    std::vector<Gap> gaps;
    for (int i = 0; i < ms; ++i) {
        gaps.push_back({i * 1e6 + 300e3, 35e3});
        gaps.push_back({i * 1e6 + 700e3, 2e3});  // below the 5 us threshold
    }
    return gaps;
}

TEST(CpuGaps, SummarisesPeriodicGaps) {
    const CpuGaps g = summarize_gaps(host_ticks(50), 50e6, 5e3);
    EXPECT_EQ(g.count, 50u);
    EXPECT_DOUBLE_EQ(g.threshold_ns, 5e3);
    EXPECT_NEAR(g.lost_share, 0.035, 1e-12);
    EXPECT_DOUBLE_EQ(g.typical_gap_ns, 35e3);
    EXPECT_DOUBLE_EQ(g.typical_period_ns, 1e6);
}

TEST(CpuGaps, NoneOrOneHaveNoPeriod) {
    const CpuGaps none = summarize_gaps({}, 50e6, 5e3);
    EXPECT_EQ(none.count, 0u);
    EXPECT_EQ(none.lost_share, 0.0);
    EXPECT_EQ(none.typical_gap_ns, 0.0);
    EXPECT_EQ(none.typical_period_ns, 0.0);
    const std::vector<Gap> one = {{10e6, 40e3}};
    const CpuGaps single = summarize_gaps(one, 50e6, 5e3);
    EXPECT_EQ(single.count, 1u);
    EXPECT_DOUBLE_EQ(single.typical_gap_ns, 40e3);
    EXPECT_EQ(single.typical_period_ns, 0.0);
}

TEST(CpuGaps, DoctorWarnsFromOnePercentWithWhatItMeansForASample) {
    const DoctorCheck warn = cpu_gaps_check(summarize_gaps(host_ticks(50), 50e6, 5e3));
    EXPECT_EQ(warn.level, CheckLevel::warn);
    EXPECT_EQ(warn.topic, "interruptions");
    EXPECT_TRUE(contains(warn.finding, "50 gap(s) of 5 us or more in 50 ms")) << warn.finding;
    EXPECT_TRUE(contains(warn.finding, "3.5% of the time")) << warn.finding;
    EXPECT_TRUE(contains(warn.finding, "typically 35 us every 1.00 ms")) << warn.finding;
    // 2 ms / 1 ms = 2 gaps a sample, one more or less = 35 us of 2 ms.
    EXPECT_TRUE(contains(warn.finding, "holds about 2.0, one more or less moving it by 1.8%"))
        << warn.finding;
    EXPECT_FALSE(warn.fix.empty());
    // A few gaps on a quiet machine are no warning.
    const std::vector<Gap> rare = {{5e6, 30e3}, {30e6, 30e3}};
    const DoctorCheck ok = cpu_gaps_check(summarize_gaps(rare, 50e6, 5e3));
    EXPECT_EQ(ok.level, CheckLevel::ok) << ok.finding;
    EXPECT_TRUE(contains(ok.finding, "2 gap(s)")) << ok.finding;
    EXPECT_TRUE(ok.fix.empty());
}

TEST(CpuGaps, EveryRunWarnsThroughTheReliabilityWarnings) {
    SystemInfo system;
    system.cpu.logical_cpus = 2;
    system.clocksource = "tsc";
    std::vector<std::string> warnings = reliability_warnings(system);
    const auto about_gaps = [](const std::string& w) { return w.rfind("interruptions: ", 0) == 0; };
    EXPECT_TRUE(std::none_of(warnings.begin(), warnings.end(), about_gaps));  // not measured
    system.cpu_gaps = summarize_gaps(host_ticks(50), 50e6, 5e3);
    warnings = reliability_warnings(system);
    EXPECT_EQ(std::count_if(warnings.begin(), warnings.end(), about_gaps), 1);
    // A parent that spun for its processes records the same line.
    RunResult parent;
    record_cpu_gaps(parent, *system.cpu_gaps);
    ASSERT_TRUE(parent.system.cpu_gaps.has_value());
    EXPECT_EQ(parent.system.cpu_gaps->count, 50u);
    ASSERT_EQ(parent.warnings.size(), 1u);
    EXPECT_EQ(parent.warnings[0], *std::find_if(warnings.begin(), warnings.end(), about_gaps));
    RunResult quiet;
    record_cpu_gaps(quiet, summarize_gaps({}, 50e6, 5e3));
    EXPECT_TRUE(quiet.system.cpu_gaps.has_value());
    EXPECT_TRUE(quiet.warnings.empty());
}

TEST(CpuGaps, MeasuresARealSpin) {
    const CpuGaps g = measure_cpu_gaps(std::chrono::milliseconds(5), std::chrono::microseconds(5));
    EXPECT_GE(g.window_ns, 5e6);
    EXPECT_LT(g.window_ns, 5e9);  // it stops
    EXPECT_DOUBLE_EQ(g.threshold_ns, 5e3);
    EXPECT_GE(g.lost_share, 0.0);
    EXPECT_LE(g.lost_share, 1.0);
    if (g.count > 0) {
        EXPECT_GE(g.typical_gap_ns, 5e3);
    }
}

}  // namespace
}  // namespace perfgauge::harness
