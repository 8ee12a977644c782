#include "perfgauge/pmu/event_resolver.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "../support/model_pmu.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::pmu {
namespace {

EventSpec resolve_one(const EventResolver& resolver, const std::string& text) {
    const auto groups = resolver.resolve(text);
    EXPECT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups.at(0).events.size(), 1u);
    return groups.at(0).events.at(0);
}

// A resolver without tracepoints: libpfm4 names only, independent of this machine's tracefs.
const EventResolver& pfm_only() {
    static const EventResolver resolver{std::optional<Tracefs>{}};
    return resolver;
}

struct GenericCase {
    std::string name;
    std::uint32_t type;
    std::uint64_t config;
    EventKind kind;
};

void PrintTo(const GenericCase& c, std::ostream* os) {
    *os << c.name;
}

class GenericNames : public ::testing::TestWithParam<GenericCase> {};

TEST_P(GenericNames, ResolveToThePerfAbi) {
    const auto spec = resolve_one(pfm_only(), GetParam().name);
    EXPECT_EQ(spec.attr.type, GetParam().type);
    EXPECT_EQ(spec.attr.config, GetParam().config);
    EXPECT_EQ(spec.kind, GetParam().kind);
    EXPECT_EQ(spec.name, GetParam().name);
    // Default privilege: user space only.
    EXPECT_EQ(spec.attr.exclude_user, 0u);
    EXPECT_EQ(spec.attr.exclude_kernel, 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Resolver, GenericNames,
    ::testing::Values(
        GenericCase{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EventKind::hardware},
        GenericCase{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
                    EventKind::hardware},
        GenericCase{"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
                    EventKind::hardware},
        GenericCase{"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
                    EventKind::hardware},
        GenericCase{"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
                    EventKind::hardware},
        GenericCase{"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
                    EventKind::hardware},
        GenericCase{"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
                    EventKind::hardware},
        GenericCase{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
                    EventKind::software},
        GenericCase{"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, EventKind::software},
        GenericCase{"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
                    EventKind::software},
        GenericCase{"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
                    EventKind::software},
        GenericCase{"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
                    EventKind::software},
        GenericCase{"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
                    EventKind::software},
        GenericCase{"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
                    EventKind::software},
        GenericCase{"L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
                    PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
                        (PERF_COUNT_HW_CACHE_RESULT_MISS << 16),
                    EventKind::hw_cache},
        GenericCase{"perf::task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
                    EventKind::software},
        GenericCase{"perf::PERF_COUNT_HW_INSTRUCTIONS", PERF_TYPE_HARDWARE,
                    PERF_COUNT_HW_INSTRUCTIONS, EventKind::hardware}));

TEST(Resolver, RawEventsCarryTheirHexConfig) {
    const auto spec = resolve_one(pfm_only(), "r00c0");
    EXPECT_EQ(spec.attr.type, static_cast<std::uint32_t>(PERF_TYPE_RAW));
    EXPECT_EQ(spec.attr.config, 0xc0u);
    EXPECT_EQ(spec.kind, EventKind::raw);
    EXPECT_EQ(resolve_one(pfm_only(), "r1a2b").attr.config, 0x1a2bu);
}

TEST(Resolver, ModifiersSetTheExcludeBits) {
    auto u = resolve_one(pfm_only(), "task-clock:u").attr;
    EXPECT_EQ(u.exclude_user, 0u);
    EXPECT_EQ(u.exclude_kernel, 1u);
    auto k = resolve_one(pfm_only(), "task-clock:k").attr;
    EXPECT_EQ(k.exclude_user, 1u);
    EXPECT_EQ(k.exclude_kernel, 0u);
    auto uk = resolve_one(pfm_only(), "cycles:uk").attr;
    EXPECT_EQ(uk.exclude_user, 0u);
    EXPECT_EQ(uk.exclude_kernel, 0u);
    EXPECT_EQ(privilege_text(uk), "user+kernel");
}

TEST(Resolver, GroupsKeepTheirShape) {
    const auto groups = pfm_only().resolve("{cycles,instructions},task-clock:u");
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_TRUE(groups[0].explicit_group);
    ASSERT_EQ(groups[0].events.size(), 2u);
    EXPECT_EQ(groups[0].events[1].attr.config,
              static_cast<std::uint64_t>(PERF_COUNT_HW_INSTRUCTIONS));
    EXPECT_FALSE(groups[1].explicit_group);
    EXPECT_EQ(groups[1].events[0].name, "task-clock:u");
}

TEST(Resolver, UnknownNameSuggestsTheClosest) {
    try {
        pfm_only().resolve("cyclez");
        FAIL();
    } catch (const UnknownEventError& e) {
        ASSERT_FALSE(e.suggestions().empty());
        EXPECT_EQ(e.suggestions().front(), "cycles");
        EXPECT_LE(e.suggestions().size(), 5u);
        EXPECT_NE(std::string(e.what()).find("did you mean cycles"), std::string::npos) << e.what();
    }
}

TEST(Resolver, UnknownPmuListsThePresentOnes) {
    try {
        pfm_only().resolve("nosuchpmu::cycles");
        FAIL();
    } catch (const UnknownEventError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown PMU 'nosuchpmu'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("perf"), std::string::npos);
    }
}

TEST(Resolver, PerfSlashSyntaxIsRejectedWithAnAlternative) {
    EXPECT_THROW(pfm_only().resolve("cpu/event=0x3c/"), InvalidEventError);
}

TEST(Resolver, AllErrorsShareTheEventErrorBase) {
    for (const char* bad : {"cyclez", "{cycles", "cpu/event=1/"}) {
        EXPECT_THROW(pfm_only().resolve(bad), EventError) << bad;
    }
}

// libpfm4 recognises the CPU from CPUID even where the kernel exposes no PMU.
TEST(Resolver, ModelSpecificLibpfmNames) {
    const auto model = test::detected_model_pmu();
    if (!model)
        GTEST_SKIP() << test::kNoKnownModelPmu;
    const auto spec = resolve_one(pfm_only(), model->pmu + "::" + model->retired_any);
    EXPECT_EQ(spec.kind, EventKind::pmu);
    EXPECT_EQ(spec.pmu, model->pmu);
    EXPECT_EQ(spec.attr.config, 0xc0u);
    // Same event without the PMU prefix, and with a libpfm4 attribute (counter mask c=1).
    EXPECT_EQ(resolve_one(pfm_only(), model->retired_any).attr.config, 0xc0u);
    EXPECT_EQ(resolve_one(pfm_only(), model->retired_any + ":c=1").attr.config, 0x10000c0u);
    // A unit mask the event needs but was not given: the message names the valid ones.
    try {
        pfm_only().resolve(model->needs_mask);
        FAIL() << model->needs_mask;
    } catch (const InvalidEventError& e) {
        EXPECT_NE(std::string(e.what()).find(model->one_mask), std::string::npos) << e.what();
    }
}

TEST(Resolver, PerfStyleNames) {
    EXPECT_EQ(perf_style_name("CYCLES"), "cycles");
    EXPECT_EQ(perf_style_name("L1-DCACHE-LOAD-MISSES"), "L1-dcache-load-misses");
    EXPECT_EQ(perf_style_name("LLC-LOADS"), "LLC-loads");
    EXPECT_EQ(perf_style_name("DTLB-LOAD-MISSES"), "dTLB-load-misses");
    EXPECT_EQ(perf_style_name("ITLB-LOADS"), "iTLB-loads");
}

class FakeTracefs : public ::testing::Test {
  protected:
    FakeTracefs() {
        dir_.write("events/syscalls/sys_enter_write/id", "840\n");
        dir_.write("events/syscalls/sys_enter_writev/id", "838\n");
        dir_.write("events/sched/sched_switch/id", "312\n");
    }
    test::TempDir dir_;
    EventResolver resolver_{Tracefs(dir_.path())};
};

TEST_F(FakeTracefs, TracepointsResolveToTheirId) {
    const auto spec = resolve_one(resolver_, "syscalls:sys_enter_write");
    EXPECT_EQ(spec.kind, EventKind::tracepoint);
    EXPECT_EQ(spec.attr.type, static_cast<std::uint32_t>(PERF_TYPE_TRACEPOINT));
    EXPECT_EQ(spec.attr.config, 840u);
    EXPECT_EQ(resolve_one(resolver_, "sched:sched_switch").attr.config, 312u);
}

TEST_F(FakeTracefs, TracepointDefaultCountsBothLevelsUnlessRestricted) {
    EXPECT_EQ(privilege_text(resolve_one(resolver_, "syscalls:sys_enter_write").attr),
              "user+kernel");
    EXPECT_EQ(privilege_text(resolve_one(resolver_, "syscalls:sys_enter_write:k").attr), "kernel");
}

TEST_F(FakeTracefs, UnknownTracepointSuggestsFromItsSubsystem) {
    try {
        resolver_.resolve("syscalls:sys_enter_wrte");
        FAIL();
    } catch (const UnknownEventError& e) {
        ASSERT_FALSE(e.suggestions().empty());
        EXPECT_EQ(e.suggestions().front(), "syscalls:sys_enter_write");
    }
}

TEST_F(FakeTracefs, ListsTracepoints) {
    const Tracefs fs(dir_.path());
    EXPECT_EQ(fs.all_tracepoints(),
              (std::vector<std::string>{"sched:sched_switch", "syscalls:sys_enter_write",
                                        "syscalls:sys_enter_writev"}));
    EXPECT_FALSE(fs.tracepoint_id("syscalls", "../sched").has_value());
}

TEST(Resolver, TracepointNameWithoutTracefsSaysHowToMountIt) {
    try {
        pfm_only().resolve("syscalls:sys_enter_write");
        FAIL();
    } catch (const UnknownEventError& e) {
        EXPECT_NE(std::string(e.what()).find("mount -t tracefs"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace perfgauge::pmu

namespace perfgauge::pmu {
namespace {

TEST(Resolver, RealTracefsTracepoint) {
    const auto tracefs = Tracefs::locate();
    if (!tracefs)
        GTEST_SKIP() << kMountTracefsHint;
    if (!tracefs->tracepoint_id("syscalls", "sys_enter_write")) {
        GTEST_SKIP() << "syscalls:sys_enter_write is not readable here (needs root, or a kernel "
                        "with syscall tracepoints)";
    }
    const EventResolver resolver{tracefs};
    const auto spec = resolver.resolve(EventTerm{"syscalls:sys_enter_write", {}, 1});
    EXPECT_EQ(spec.kind, EventKind::tracepoint);
    EXPECT_EQ(spec.attr.config, *tracefs->tracepoint_id("syscalls", "sys_enter_write"));
}

}  // namespace
}  // namespace perfgauge::pmu
