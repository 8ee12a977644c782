// Hybrid CPUs on fake sysfs trees (no machine here has one): which core PMUs a tree holds, which
// a task may run on, and how an event list is opened on each of them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "perfgauge/pmu/core_pmus.hpp"

namespace perfgauge::pmu {
namespace {

namespace fs = std::filesystem;

// A temporary /sys/bus/event_source/devices, removed with the test.
class FakeDevices {
  public:
    FakeDevices() {
        root_ = fs::temp_directory_path() /
                ("perfgauge-core-pmus-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        fs::create_directories(root_);
    }
    ~FakeDevices() {
        std::error_code ec;
        fs::remove_all(root_, ec);
    }
    // A PMU directory with `type` and, when given, `cpus` (or `cpumask`, as uncore PMUs have).
    void add(const std::string& name, const std::string& type, const char* cpus = nullptr,
             const char* cpumask = nullptr) {
        fs::create_directories(root_ / name);
        std::ofstream(root_ / name / "type") << type << "\n";
        if (cpus != nullptr)
            std::ofstream(root_ / name / "cpus") << cpus << "\n";
        if (cpumask != nullptr)
            std::ofstream(root_ / name / "cpumask") << cpumask << "\n";
    }
    const fs::path& path() const { return root_; }

  private:
    fs::path root_;
};

EventSpec hardware_event(const std::string& name, std::uint64_t config) {
    EventSpec e;
    e.name = name;
    e.kind = EventKind::hardware;
    e.attr.type = PERF_TYPE_HARDWARE;
    e.attr.config = config;
    return e;
}

EventSpec software_event() {
    EventSpec e;
    e.name = "task-clock";
    e.kind = EventKind::software;
    e.attr.type = PERF_TYPE_SOFTWARE;
    e.attr.config = PERF_COUNT_SW_TASK_CLOCK;
    return e;
}

TEST(CorePmus, ParsesCpuLists) {
    EXPECT_EQ(*parse_cpu_list("0-3,8,10-11"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
    EXPECT_EQ(*parse_cpu_list("16-23"), (std::vector<int>{16, 17, 18, 19, 20, 21, 22, 23}));
    EXPECT_TRUE(parse_cpu_list("")->empty());
    EXPECT_FALSE(parse_cpu_list("3-1"));
    EXPECT_FALSE(parse_cpu_list("a"));
    EXPECT_FALSE(parse_cpu_list("1,,2"));
}

TEST(CorePmus, TwoIntelCorePmusAreHybrid) {
    FakeDevices d;
    d.add("cpu_core", "4", "0-15");
    d.add("cpu_atom", "10", "16-23");
    d.add("msr", "11");                         // not a core PMU
    d.add("uncore_imc_0", "12", nullptr, "0");  // nor is an uncore one
    const auto pmus = read_core_pmus(d.path(), CorePmuNaming::x86);
    ASSERT_EQ(pmus.size(), 2u);
    EXPECT_EQ(pmus[0].name, "cpu_atom");
    EXPECT_EQ(*pmus[0].type, 10u);
    EXPECT_EQ(pmus[0].cpus.front(), 16);
    EXPECT_EQ(pmus[1].name, "cpu_core");
    EXPECT_TRUE(is_hybrid(pmus));
    EXPECT_EQ(describe_core_pmus(pmus), "cpu_atom (CPUs 16-23), cpu_core (CPUs 0-15)");
    // A task allowed on P-cores only opens its events there, as written.
    const auto p_only = core_pmus_for_cpus(pmus, {0, 1, 2, 3});
    ASSERT_EQ(p_only.size(), 1u);
    EXPECT_EQ(p_only[0].name, "cpu_core");
    EXPECT_FALSE(is_hybrid(p_only));
    EXPECT_EQ(core_pmus_for_cpus(pmus, {3, 17}).size(), 2u);
}

TEST(CorePmus, ArmBigLittleCorePmusListTheirCpus) {
    FakeDevices d;
    d.add("armv8_cortex_a53", "8", "0-3");
    d.add("armv8_cortex_a72", "9", "4-5");
    d.add("arm_cmn_0", "12", nullptr, "0");  // uncore: cpumask, no cpus
    const auto pmus = read_core_pmus(d.path(), CorePmuNaming::arm);
    ASSERT_EQ(pmus.size(), 2u);
    EXPECT_EQ(pmus[1].name, "armv8_cortex_a72");
    EXPECT_EQ(pmus[1].cpus, (std::vector<int>{4, 5}));
    EXPECT_TRUE(is_hybrid(pmus));
    EXPECT_TRUE(read_core_pmus(d.path(), CorePmuNaming::x86).empty());
}

TEST(CorePmus, OneCorePmuIsNotHybridAndChangesNothing) {
    FakeDevices d;
    d.add("cpu", "4");  // x86 without hybrid: no cpus file, every CPU
    const auto pmus = read_core_pmus(d.path(), CorePmuNaming::x86);
    ASSERT_EQ(pmus.size(), 1u);
    EXPECT_FALSE(pmus[0].cpus_listed);
    EXPECT_EQ(describe_core_pmus(pmus), "cpu (every CPU)");
    EXPECT_EQ(core_pmus_for_cpus(pmus, {0}).size(), 1u) << "a PMU without cpus counts on all";
    EXPECT_FALSE(is_hybrid(pmus));
    const std::vector<GroupSpec> groups = {{{hardware_event("instructions", 1)}, false}};
    const auto same = per_core_pmu(groups, pmus);
    ASSERT_EQ(same.size(), 1u);
    ASSERT_EQ(same[0].events.size(), 1u);
    EXPECT_EQ(same[0].events[0].name, "instructions");
}

TEST(CorePmus, APmuWithoutCpusOnArmIsNotACorePmu) {
    FakeDevices d;
    d.add("armv8_pmuv3_0", "8", "0");
    d.add("armv8_spe_0", "9");  // no cpus file
    const auto pmus = read_core_pmus(d.path(), CorePmuNaming::arm);
    ASSERT_EQ(pmus.size(), 1u);
    EXPECT_EQ(pmus[0].name, "armv8_pmuv3_0");
    EXPECT_TRUE(read_core_pmus(d.path() / "missing", CorePmuNaming::arm).empty());
}

TEST(CorePmus, APmuWithoutTypeIsNotOpenedOn) {
    std::vector<CorePmu> pmus = {{"cpu_atom", std::nullopt, {16}, true},
                                 {"cpu_core", 4u, {0}, true}};
    EXPECT_FALSE(is_hybrid(pmus)) << "events cannot be opened on a PMU of unknown type";
}

TEST(CorePmus, GenericEventsCarryThePmuTypeInTheirUpperConfig) {
    const CorePmu atom{"cpu_atom", 10u, {16}, true};
    const auto e = on_core_pmu(hardware_event("instructions:u", PERF_COUNT_HW_INSTRUCTIONS), atom);
    EXPECT_EQ(e.name, "cpu_atom/instructions:u/");
    EXPECT_EQ(e.attr.type, static_cast<std::uint32_t>(PERF_TYPE_HARDWARE));
    EXPECT_EQ(e.attr.config, (std::uint64_t{10} << 32) | PERF_COUNT_HW_INSTRUCTIONS);
    EventSpec raw;
    raw.name = "r00c0";
    raw.kind = EventKind::raw;
    raw.attr.type = PERF_TYPE_RAW;
    raw.attr.config = 0xc0;
    const auto r = on_core_pmu(raw, atom);
    EXPECT_EQ(r.attr.type, 10u);
    EXPECT_EQ(r.attr.config, 0xc0u);
    EXPECT_EQ(on_core_pmu(software_event(), atom).name, "task-clock");
}

TEST(CorePmus, HybridListsOpenEachCoreEventOnEveryPmu) {
    const std::vector<CorePmu> pmus = {{"cpu_atom", 10u, {16}, true}, {"cpu_core", 4u, {0}, true}};
    const std::vector<GroupSpec> groups = {
        {{hardware_event("cycles", 0), software_event()}, false},
        {{hardware_event("instructions", 1), hardware_event("cycles", 0)}, true}};
    const auto out = per_core_pmu(groups, pmus);
    // The bare list: cycles on each PMU, task-clock once.
    ASSERT_EQ(out.size(), 3u);
    ASSERT_EQ(out[0].events.size(), 3u);
    EXPECT_EQ(out[0].events[0].name, "cpu_atom/cycles/");
    EXPECT_EQ(out[0].events[1].name, "cpu_core/cycles/");
    EXPECT_EQ(out[0].events[2].name, "task-clock");
    // The written group: one group per PMU, each on one PMU only.
    for (std::size_t g = 1; g < 3; ++g) {
        EXPECT_TRUE(out[g].explicit_group);
        ASSERT_EQ(out[g].events.size(), 2u);
        const std::string pmu = g == 1 ? "cpu_atom" : "cpu_core";
        EXPECT_EQ(out[g].events[0].name, pmu + "/instructions/");
        EXPECT_EQ(out[g].events[1].name, pmu + "/cycles/");
    }
}

}  // namespace
}  // namespace perfgauge::pmu
