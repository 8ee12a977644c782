// doctor's core-types line on fake core PMUs: two core types, one, and a PMU of unknown type.
#include <gtest/gtest.h>

#include "doctor/hybrid.hpp"

namespace perfgauge::cli {
namespace {

using pmu::CorePmu;

const std::vector<CorePmu> kIntelHybrid = {{"cpu_atom", 10u, {16, 17}, true},
                                           {"cpu_core", 4u, {0, 1, 2, 3}, true}};

TEST(DoctorHybrid, OneCorePmuSaysNothing) {
    EXPECT_FALSE(core_types_check({{"cpu", 4u, {}, false}}, {{"cpu", 4u, {}, false}}));
    EXPECT_FALSE(core_types_check({}, {}));
}

TEST(DoctorHybrid, TwoCorePmusSayEventsAreCountedPerCoreType) {
    const auto check = core_types_check(kIntelHybrid, kIntelHybrid);
    ASSERT_TRUE(check);
    EXPECT_EQ(check->level, harness::CheckLevel::info);
    EXPECT_EQ(check->topic, "core types");
    for (const char* said :
         {"hybrid CPU: 2 core PMUs", "cpu_atom (CPUs 16-17)", "cpu_core (CPUs 0-3)",
          "counted per core type", "cpu_atom/instructions/, cpu_core/instructions/",
          "Not verified on a hybrid machine"})
        EXPECT_NE(check->finding.find(said), std::string::npos) << said << " in " << check->finding;
}

TEST(DoctorHybrid, ATaskOnOneCoreTypeCountsThereOnly) {
    const auto check = core_types_check(kIntelHybrid, {kIntelHybrid[1]});
    ASSERT_TRUE(check);
    EXPECT_NE(check->finding.find("may run on cpu_core alone's CPUs"), std::string::npos)
        << check->finding;
}

TEST(DoctorHybrid, APmuWithoutTypeIsAWarning) {
    const std::vector<CorePmu> pmus = {{"cpu_atom", std::nullopt, {16}, true},
                                       {"cpu_core", 4u, {0}, true}};
    const auto check = core_types_check(pmus, pmus);
    ASSERT_TRUE(check);
    EXPECT_EQ(check->level, harness::CheckLevel::warn);
    EXPECT_NE(check->fix.find("cpu_atom/type"), std::string::npos) << check->fix;
}

}  // namespace
}  // namespace perfgauge::cli
