#include "perfgauge/pmu/open_error.hpp"

#include <gtest/gtest.h>

#include "../support/text.hpp"
#include "sysfs_pmu.hpp"

#include <cerrno>
#include <filesystem>

namespace perfgauge::pmu {
namespace {

using test::contains;

PmuEnvironment vm_without_pmu() {
    PmuEnvironment env;
    env.paranoid = 2;
    env.hypervisor = "KVMKVMKVM";
    env.kernel_pmu_message = "Performance Events: PMU not available due to virtualization";
    return env;
}

PmuEnvironment bare_metal(int paranoid) {
    PmuEnvironment env;
    env.core_pmus = {"cpu"};
    env.paranoid = paranoid;
    return env;
}

perf_event_attr user_only() {
    perf_event_attr attr{};
    attr.exclude_kernel = 1;
    return attr;
}

TEST(OpenError, NoPmuInVirtualMachineExplainsAndOffersSimulation) {
    for (int err : {ENOENT, EOPNOTSUPP, ENODEV}) {
        const auto d = diagnose_open_error(err, EventKind::hardware, user_only(), vm_without_pmu());
        EXPECT_EQ(d.status, "not supported");
        EXPECT_TRUE(contains(d.reason, "no hardware PMU")) << d.reason;
        EXPECT_TRUE(contains(d.reason, "KVMKVMKVM")) << d.reason;
        EXPECT_TRUE(contains(d.fix, "pmu=on")) << d.fix;
        EXPECT_EQ(d.hint, ToolHint::simulate);  // the program says how it simulates
    }
}

TEST(OpenError, MissingEventOnRealPmuPointsToTheCatalog) {
    const auto d = diagnose_open_error(ENOENT, EventKind::pmu, user_only(), bare_metal(2));
    EXPECT_EQ(d.status, "not supported");
    EXPECT_TRUE(contains(d.reason, "does not implement")) << d.reason;
    EXPECT_EQ(d.hint, ToolHint::list_events);
}

TEST(OpenError, KernelCountingAtParanoidTwoSuggestsUserSpace) {
    perf_event_attr attr{};  // exclude_kernel = 0: counts kernel
    const auto d = diagnose_open_error(EACCES, EventKind::hardware, attr, bare_metal(2));
    EXPECT_EQ(d.status, "permission denied");
    EXPECT_TRUE(contains(d.reason, "perf_event_paranoid <= 1")) << d.reason;
    EXPECT_TRUE(contains(d.fix, "drop ':k'")) << d.fix;
    EXPECT_TRUE(contains(d.fix, "kernel.perf_event_paranoid=1")) << d.fix;
}

TEST(OpenError, ParanoidThreeOrMoreForbidsEverything) {
    for (int level : {3, 4}) {
        const auto d =
            diagnose_open_error(EPERM, EventKind::software, user_only(), bare_metal(level));
        EXPECT_EQ(d.status, "permission denied");
        EXPECT_TRUE(contains(d.reason, "is " + std::to_string(level))) << d.reason;
        EXPECT_TRUE(contains(d.fix, "perf_event_paranoid=2")) << d.fix;
        EXPECT_TRUE(contains(d.fix, "CAP_PERFMON")) << d.fix;
        EXPECT_EQ(d.hint, ToolHint::grant_perfmon);
    }
}

TEST(OpenError, TracepointsNeedPrivileges) {
    const auto d = diagnose_open_error(EACCES, EventKind::tracepoint, user_only(), bare_metal(2));
    EXPECT_TRUE(contains(d.reason, "root or CAP_PERFMON")) << d.reason;
}

TEST(OpenError, PrivilegedButRefusedBlamesTheContainer) {
    auto env = bare_metal(2);
    env.privileged = true;
    env.container = "/.dockerenv";
    const auto d = diagnose_open_error(EPERM, EventKind::software, user_only(), env);
    EXPECT_TRUE(contains(d.reason, "seccomp")) << d.reason;
    EXPECT_TRUE(contains(d.reason, "/.dockerenv")) << d.reason;
    EXPECT_TRUE(contains(d.fix, "PERFMON")) << d.fix;
}

TEST(OpenError, NoDiagnosisNamesACommand) {
    // pmu is a library: the program using it names its own commands (ToolHint).
    auto container = bare_metal(2);
    container.privileged = true;
    container.container = "/.dockerenv";
    for (const auto& env : {vm_without_pmu(), bare_metal(2), bare_metal(3), container}) {
        for (int err : {ENOENT, EOPNOTSUPP, ENODEV, EACCES, EPERM, EINVAL, EMFILE, ENFILE, ENOSPC,
                        EBUSY, E2BIG, ESRCH, EIO}) {
            for (auto kind : {EventKind::hardware, EventKind::software, EventKind::pmu,
                              EventKind::tracepoint}) {
                perf_event_attr attr{};  // kernel counted too: every permission branch
                for (const auto& d : {diagnose_open_error(err, kind, user_only(), env),
                                      diagnose_open_error(err, kind, attr, env)}) {
                    for (const auto& text : {d.reason, d.fix}) {
                        EXPECT_FALSE(contains(text, "perfgauge")) << text;
                        EXPECT_FALSE(contains(text, "--backend")) << text;
                        EXPECT_FALSE(contains(text, "--verbose")) << text;
                    }
                }
            }
        }
    }
}

TEST(OpenError, OtherErrnos) {
    const auto env = bare_metal(2);
    EXPECT_EQ(diagnose_open_error(EINVAL, EventKind::pmu, user_only(), env).status, "invalid");
    EXPECT_EQ(diagnose_open_error(EINVAL, EventKind::pmu, user_only(), env).hint,
              ToolHint::show_encoding);
    EXPECT_EQ(diagnose_open_error(EMFILE, EventKind::pmu, user_only(), env).status,
              "too many open files");
    EXPECT_TRUE(
        contains(diagnose_open_error(EMFILE, EventKind::pmu, user_only(), env).fix, "ulimit -n"));
    EXPECT_EQ(diagnose_open_error(ENOSPC, EventKind::pmu, user_only(), env).status,
              "no counter available");
    EXPECT_EQ(diagnose_open_error(EBUSY, EventKind::pmu, user_only(), env).status,
              "no counter available");
    EXPECT_TRUE(
        contains(diagnose_open_error(EBUSY, EventKind::pmu, user_only(), env).fix, "nmi_watchdog"));
    EXPECT_EQ(diagnose_open_error(E2BIG, EventKind::pmu, user_only(), env).status, "invalid");
    EXPECT_EQ(diagnose_open_error(ESRCH, EventKind::pmu, user_only(), env).status,
              "no such process");
    EXPECT_EQ(diagnose_open_error(EIO, EventKind::pmu, user_only(), env).status, "error");
}

TEST(OpenError, DumpAttrShowsTheFieldsThatMatter) {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_RAW;
    attr.config = 0xc0;
    attr.exclude_kernel = 1;
    const std::string text = dump_attr(attr);
    EXPECT_TRUE(contains(text, "type 4")) << text;
    EXPECT_TRUE(contains(text, "config 0xc0")) << text;
    EXPECT_TRUE(contains(text, "exclude_kernel 1")) << text;
}

TEST(PmuEnvironment, FindsTheKernelsPmuLine) {
    const std::string log =
        "6,100,144098,-;smpboot: CPU0: AMD EPYC\n"
        "6,101,144100,-;Performance Events: PMU not available due to virtualization, using "
        "software events only.\n6,102,144200,-;rcu: Hierarchical SRCU\n";
    EXPECT_EQ(
        find_pmu_message(log),
        "Performance Events: PMU not available due to virtualization, using software events only.");
    EXPECT_FALSE(find_pmu_message("nothing here\n").has_value());
}

TEST(PmuEnvironment, DescribesEveryParanoidLevel) {
    EXPECT_TRUE(contains(describe_paranoid(-1), "no restrictions"));
    EXPECT_TRUE(contains(describe_paranoid(1), "kernel space included"));
    EXPECT_TRUE(contains(describe_paranoid(2), "user space only"));
    // The level alone cannot say "disabled": upstream kernels treat 3 and 4 like 2.
    for (const int level : {3, 4}) {
        EXPECT_TRUE(contains(describe_paranoid(level), "patched")) << describe_paranoid(level);
        EXPECT_TRUE(contains(describe_paranoid(level), "upstream kernels treat it like 2"));
        EXPECT_FALSE(contains(describe_paranoid(level), "disabled entirely"));
    }
}

TEST(PmuEnvironment, DetectionMatchesSysfs) {
    const auto env = detect_pmu_environment();
    EXPECT_EQ(env.has_hardware_pmu(), test::sysfs_lists_core_pmu());
    ASSERT_TRUE(env.paranoid.has_value()) << "kernel without perf events";
}

}  // namespace
}  // namespace perfgauge::pmu
