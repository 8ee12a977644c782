// doctor's checks that judge what was tried on the machine: paranoid, libpfm4, simulation.
#include <gtest/gtest.h>

#include <cerrno>

#include "../../support/text.hpp"
#include "perfgauge/harness/doctor.hpp"

namespace perfgauge::harness {
namespace {

using test::contains;

// An unprivileged user on an upstream kernel at paranoid >= 2: own process, user space opens;
// kernel space and CPU-wide are refused; no PMU in this VM.
pmu::AccessProbes user_space_only() {
    return {0, EACCES, EACCES, ENOENT};
}

TEST(ParanoidCheck, ThreeOnAnUpstreamKernelIsNotDisabled) {
    const auto c = paranoid_check(3, false, user_space_only());
    EXPECT_EQ(c.level, CheckLevel::ok) << c.finding;
    EXPECT_FALSE(contains(c.finding, "disabled")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "treats it like 2")) << c.finding;
    // What was tried and what happened, so the user can check it.
    EXPECT_TRUE(contains(c.finding, "task-clock on itself, user space: opened")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "kernel included: refused (EACCES)")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "CPU 0: refused (EACCES)")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "cycles, user space: not supported (ENOENT)")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "kernel space (:k) and CPU-wide counting need root"))
        << c.finding;
    EXPECT_TRUE(c.fix.empty()) << c.fix;
}

TEST(ParanoidCheck, FourOnAnUpstreamKernelIsNotDisabled) {
    const auto c = paranoid_check(4, false, user_space_only());
    EXPECT_EQ(c.level, CheckLevel::ok) << c.finding;
    EXPECT_TRUE(contains(c.finding, "4, yet this kernel treats it like 2")) << c.finding;
}

TEST(ParanoidCheck, PatchedKernelThatReallyRefusesIsAFailureWithAFix) {
    const auto c = paranoid_check(3, false, {EACCES, EACCES, EACCES, EACCES});
    EXPECT_EQ(c.level, CheckLevel::fail);
    EXPECT_TRUE(contains(c.finding, "refuses perf_event_open to unprivileged users")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "user space: refused (EACCES)")) << c.finding;
    EXPECT_TRUE(contains(c.fix, "perf_event_paranoid=2")) << c.fix;
    EXPECT_EQ(c.hint, pmu::ToolHint::grant_perfmon);
}

TEST(ParanoidCheck, RefusalThatTheLevelAllowsBlamesSeccomp) {
    const auto c = paranoid_check(2, false, {EPERM, EPERM, EPERM, EPERM});
    EXPECT_EQ(c.level, CheckLevel::fail);
    EXPECT_TRUE(contains(c.finding, "seccomp")) << c.finding;
}

TEST(ParanoidCheck, PrivilegedProcessSaysTheLevelDoesNotApply) {
    const auto c = paranoid_check(2, true, {0, 0, 0, ENOENT});
    EXPECT_EQ(c.level, CheckLevel::ok);
    EXPECT_TRUE(contains(c.finding, "privileged")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "kernel included: opened")) << c.finding;
}

TEST(ParanoidCheck, LevelTwoDescribesItself) {
    const auto c = paranoid_check(2, false, user_space_only());
    EXPECT_EQ(c.level, CheckLevel::ok);
    EXPECT_TRUE(contains(c.finding, "user space only")) << c.finding;
}

TEST(ParanoidCheck, MissingFileMeansNoPerfEvents) {
    EXPECT_EQ(paranoid_check(std::nullopt, false, {}).level, CheckLevel::fail);
}

CpuInfo zen5() {
    CpuInfo cpu;
    cpu.vendor = "AuthenticAMD";
    cpu.family = 0x1a;
    cpu.model = 0x2;
    return cpu;
}

TEST(LibpfmCheck, UnknownCpuSaysWhatStillWorksAndWhichLibpfmAddsIt) {
    pmu::LibpfmInfo info;
    info.version = "4.13.0";
    info.present_pmus = {"perf", "perf_raw"};
    const auto c = libpfm_check(info, zen5());
    EXPECT_EQ(c.level, CheckLevel::warn);
    EXPECT_TRUE(contains(c.finding, "4.13.0 does not know this CPU")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "family 0x1a model 0x2")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "cycles, instructions")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "rNNNN")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "perf_raw::r00c0")) << c.finding;
    EXPECT_TRUE(contains(c.fix, "newer than 4.13 that lists amd64_fam1ah_zen5")) << c.fix;
}

TEST(LibpfmCheck, KnownCpuNamesItsPmu) {
    pmu::LibpfmInfo info;
    info.version = "4.13.0";
    info.present_pmus = {"perf", "perf_raw", "amd64_fam19h_zen3"};
    info.cpu_pmus = {"amd64_fam19h_zen3"};
    auto cpu = zen5();
    cpu.family = 0x19;
    const auto c = libpfm_check(info, cpu);
    EXPECT_EQ(c.level, CheckLevel::ok);
    EXPECT_TRUE(contains(c.finding, "knows this CPU")) << c.finding;
    EXPECT_TRUE(contains(c.finding, "amd64_fam19h_zen3")) << c.finding;
}

TEST(LibpfmCheck, VersionComesFromTheLibraryFileName) {
    EXPECT_EQ(pmu::libpfm_version_from_path("/usr/lib/x86_64-linux-gnu/libpfm.so.4.13.0"),
              "4.13.0");
    EXPECT_FALSE(pmu::libpfm_version_from_path("/usr/lib/libpfm.so.4").has_value());
    EXPECT_FALSE(pmu::libpfm_version_from_path("/usr/lib/libc.so.6").has_value());
}

TEST(LibpfmCheck, TheLoadedLibraryIsDescribed) {
    const auto info = pmu::libpfm_info();
    EXPECT_FALSE(info.version.empty());
    EXPECT_FALSE(info.present_pmus.empty());
}

TEST(SimulationCheck, FoundValgrindWithItsVersion) {
    SimulationFacts facts;
    facts.valgrind.path = "/usr/bin/valgrind";
    facts.version = "valgrind-3.19.0";
    const auto c = simulation_check(facts);
    EXPECT_EQ(c.level, CheckLevel::ok);
    EXPECT_TRUE(contains(c.finding, "valgrind-3.19.0 at /usr/bin/valgrind")) << c.finding;
}

TEST(SimulationCheck, BadOverrideIsNamed) {
    SimulationFacts facts;
    facts.valgrind.from_environment = true;
    facts.valgrind.problem = "PERFGAUGE_VALGRIND=/nonexistent: no such file";
    const auto c = simulation_check(facts);
    EXPECT_EQ(c.level, CheckLevel::warn);
    EXPECT_TRUE(contains(c.finding, "PERFGAUGE_VALGRIND=/nonexistent: no such file")) << c.finding;
}

TEST(SimulationCheck, SanitizedBuildSaysWhy) {
    SimulationFacts facts;
    facts.incompatibility = "this perfgauge is built with AddressSanitizer";
    facts.valgrind.path = "/usr/bin/valgrind";
    const auto c = simulation_check(facts);
    EXPECT_EQ(c.level, CheckLevel::warn);
    EXPECT_TRUE(contains(c.finding, "AddressSanitizer")) << c.finding;
}

}  // namespace
}  // namespace perfgauge::harness
