#include "perfgauge/harness/doctor.hpp"
#include "../../support/text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

namespace perfgauge::harness {
namespace {

DoctorCheck check(const std::vector<DoctorCheck>& checks, const std::string& topic) {
    const auto it = std::find_if(checks.begin(), checks.end(),
                                 [&](const DoctorCheck& c) { return c.topic == topic; });
    if (it == checks.end())
        throw std::runtime_error("no check named " + topic);
    return *it;
}

using test::contains;

SystemInfo zen3_vm() {
    SystemInfo s;
    s.cpu.vendor = "AuthenticAMD";
    s.cpu.family = 0x19;
    s.cpu.model_name = "AMD EPYC";
    s.cpu.bmi2 = true;
    s.cpu.invariant_tsc = true;
    s.cpu.logical_cpus = 2;
    s.caches = {{1, "Data", 32 << 10, 64, 1, 8}, {3, "Unified", 32 << 20, 64, 2, 16}};
    s.clocksource = "tsc";
    return s;
}

TEST(Doctor, SaysPlainlyThatAVmHasNoPmuAndWhy) {
    pmu::PmuEnvironment env;
    env.paranoid = 2;
    env.hypervisor = "KVMKVMKVM";
    env.kernel_pmu_message = "Performance Events: PMU not available due to virtualization";
    DoctorProbes probes;
    probes.hardware_error = ENOENT;
    const auto checks = build_doctor_report(env, zen3_vm(), probes);
    const auto& pmu = check(checks, "hardware PMU");
    EXPECT_EQ(pmu.level, CheckLevel::fail);
    EXPECT_TRUE(contains(pmu.finding, "exposes no hardware PMU")) << pmu.finding;
    EXPECT_TRUE(contains(pmu.finding, "virtual machine")) << pmu.finding;
    EXPECT_TRUE(contains(pmu.finding, "not available due to virtualization")) << pmu.finding;
    EXPECT_FALSE(pmu.fix.empty());
    EXPECT_EQ(check(checks, "software events").level, CheckLevel::ok);
    EXPECT_EQ(check(checks, "rdpmc").level, CheckLevel::info);
}

TEST(Doctor, HealthyBareMetal) {
    pmu::PmuEnvironment env;
    env.core_pmus = {"cpu"};
    env.paranoid = 2;
    env.rdpmc = 1;
    env.nmi_watchdog = 0;
    auto system = zen3_vm();
    system.governor = "performance";
    const auto checks = build_doctor_report(env, system, DoctorProbes{});
    EXPECT_EQ(check(checks, "hardware PMU").level, CheckLevel::ok);
    EXPECT_EQ(check(checks, "rdpmc").level, CheckLevel::ok);
    EXPECT_EQ(check(checks, "perf_event_paranoid").level, CheckLevel::ok);
    EXPECT_EQ(check(checks, "CPU frequency").level, CheckLevel::ok);
}

// arm64 has no TSC: the region clock is the generic timer, and doctor names that one (x86
// keeps its TSC check).
TEST(Doctor, NamesTheClockThisArchitectureReads) {
    pmu::PmuEnvironment env;
    env.paranoid = 2;
    SystemInfo arm = zen3_vm();
    arm.cpu.vendor = "ARM";
    arm.cpu.generic_timer_hz = 62'500'000;
    arm.clocksource = "arch_sys_counter";
    const auto arm_checks = build_doctor_report(env, arm, DoctorProbes{});
    const auto clock = check(arm_checks, "clock");
    EXPECT_EQ(clock.level, CheckLevel::ok);
    EXPECT_TRUE(contains(clock.finding, "generic timer (CNTVCT_EL0) at 62.5 MHz (CNTFRQ_EL0)"))
        << clock.finding;
    EXPECT_THROW(check(arm_checks, "TSC"), std::runtime_error);
    for (const auto& c : arm_checks)
        EXPECT_FALSE(contains(c.finding, "TSC") || contains(c.finding, "rdtsc")) << c.finding;

    const auto x86_checks = build_doctor_report(env, zen3_vm(), DoctorProbes{});
    EXPECT_EQ(check(x86_checks, "TSC").level, CheckLevel::ok);
    EXPECT_THROW(check(x86_checks, "clock"), std::runtime_error);
}

TEST(Doctor, HybridIntelIsRecognised) {
    pmu::PmuEnvironment env;
    env.core_pmus = {"cpu_core", "cpu_atom"};
    env.paranoid = 2;
    const auto checks = build_doctor_report(env, zen3_vm(), DoctorProbes{});
    EXPECT_TRUE(contains(check(checks, "hardware PMU").finding, "hybrid"));
}

TEST(Doctor, WarnsAboutNoiseAndSlowPext) {
    pmu::PmuEnvironment env;
    env.core_pmus = {"cpu"};
    env.paranoid = 4;
    env.rdpmc = 0;
    env.nmi_watchdog = 1;
    auto system = zen3_vm();
    system.cpu.family = 0x17;  // Zen 2
    system.governor = "powersave";
    system.boost = true;
    system.smt_active = true;
    system.clocksource = "hpet";
    DoctorProbes probes;  // a patched kernel that refuses everything at 4
    probes.access = {EACCES, EACCES, EACCES, EACCES};
    const auto checks = build_doctor_report(env, system, probes);
    EXPECT_EQ(check(checks, "perf_event_paranoid").level, CheckLevel::fail);
    EXPECT_TRUE(contains(check(checks, "perf_event_paranoid").fix, "perf_event_paranoid=2"));
    EXPECT_EQ(check(checks, "rdpmc").level, CheckLevel::warn);
    EXPECT_EQ(check(checks, "NMI watchdog").level, CheckLevel::warn);
    EXPECT_EQ(check(checks, "CPU frequency").level, CheckLevel::warn);
    EXPECT_EQ(check(checks, "boost").level, CheckLevel::warn);
    EXPECT_EQ(check(checks, "SMT").level, CheckLevel::warn);
    EXPECT_EQ(check(checks, "clocksource").level, CheckLevel::warn);
}

TEST(Doctor, SoftwareEventsBlockedIsAFailureWithAFix) {
    pmu::PmuEnvironment env;
    env.paranoid = 3;
    DoctorProbes probes;
    probes.hardware_error = ENOENT;
    probes.software_error = EACCES;
    const auto sw = check(build_doctor_report(env, zen3_vm(), probes), "software events");
    EXPECT_EQ(sw.level, CheckLevel::fail);
    EXPECT_TRUE(contains(sw.finding, "permission denied")) << sw.finding;
    EXPECT_FALSE(sw.fix.empty());
}

TEST(Doctor, HeadlineKeepsAFindingThatFitsWhole) {
    EXPECT_EQ(finding_headline("'task-clock' opens (task-clock, page-faults work)", 60),
              "'task-clock' opens (task-clock, page-faults work)");
}

TEST(Doctor, HeadlineIsTheFirstClauseWhenTheFindingIsTooLong) {
    const std::string pmu =
        "this machine exposes no hardware PMU (/sys/bus/event_source/devices/cpu is missing), "
        "so cycles cannot be counted";
    EXPECT_EQ(finding_headline(pmu, 60), "this machine exposes no hardware PMU");
    EXPECT_EQ(finding_headline("2, but this process is privileged; tried as this process: x", 40),
              "2, but this process is privileged");
    EXPECT_EQ(finding_headline("not mounted: tracepoint events are unavailable", 20),
              "not mounted");
}

TEST(Doctor, HeadlineCutsAtAWordAndSaysSoWhenTheClauseIsTooLong) {
    const std::string gaps =
        "22 gap(s) of 5 us or more in 50 ms of reading the clock, 1.1% of the time, typically "
        "21 us every 2.72 ms: something else had the CPU";
    const auto head = finding_headline(gaps, 60);
    EXPECT_LE(head.size(), 60U);
    EXPECT_EQ(head, "22 gap(s) of 5 us or more in 50 ms of reading the clock...");
    // One word longer than the room: cut inside it rather than print nothing.
    EXPECT_EQ(finding_headline(std::string(30, 'x'), 10), "xxxxxxx...");
    EXPECT_EQ(finding_headline(std::string(30, 'x'), 2), "..");
}

}  // namespace
}  // namespace perfgauge::harness
