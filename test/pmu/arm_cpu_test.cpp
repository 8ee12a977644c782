#include "perfgauge/pmu/arm_cpu.hpp"

#include <gtest/gtest.h>

namespace perfgauge::pmu {
namespace {

// A Neoverse N1 r3p1 (AWS Graviton2): MIDR_EL1 0x413fd0c1.
TEST(ArmCpu, DecodesTheMainIdRegister) {
    const auto f = decode_midr(0x413fd0c1);
    EXPECT_EQ(f.implementer, 0x41u);
    EXPECT_EQ(f.variant, 3u);
    EXPECT_EQ(f.architecture, 0xfu);
    EXPECT_EQ(f.part, 0xd0cu);
    EXPECT_EQ(f.revision, 1u);
    EXPECT_EQ(describe_midr(0x413fd0c1), "Arm Neoverse N1 r3p1");
}

TEST(ArmCpu, NamesUnknownCoresByTheirNumbers) {
    EXPECT_EQ(describe_midr(0x000f0510), "implementer 0x00 part 0x051 r0p0");
    EXPECT_EQ(arm_part_name(0x61, 0x022), "part 0x022");
}

TEST(ArmCpu, ReadsTheFieldsProcCpuinfoWrites) {
    const char* text =
        "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
        "CPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
        "processor\t: 1\nCPU implementer\t: 0x61\nCPU architecture: 8\nCPU variant\t: 0x0\n"
        "CPU part\t: 0x022\nCPU revision\t: 0\n";
    EXPECT_EQ(midr_from_cpuinfo(text), 0x413fd0c1u);
    EXPECT_EQ(midr_from_cpuinfo("processor\t: 0\nmodel name\t: Intel\n"), std::nullopt);
    EXPECT_EQ(midr_from_cpuinfo("CPU implementer\t: zz\n"), std::nullopt);
}

}  // namespace
}  // namespace perfgauge::pmu
