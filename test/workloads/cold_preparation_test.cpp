#include "perfgauge/workloads/cold_preparation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::workloads {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;
constexpr std::uint64_t kPlausible = 256 * MiB;

constexpr FlushInstructions kX86{true, true, false};
constexpr FlushInstructions kOldX86{false, true, false};
constexpr FlushInstructions kArm64{false, false, true};
constexpr FlushInstructions kNone{};

ColdPreparation choose(std::uint64_t found, bool given, std::uint64_t l2,
                       FlushInstructions flush = kX86) {
    return choose_cold_preparation({found, given, l2, kPlausible}, flush);
}

TEST(ColdPreparation, RotatesOverABelievableLastLevel) {
    const auto sysfs = choose(32 * MiB, false, 512 * KiB);
    EXPECT_EQ(sysfs.method, ColdMethod::rotation);
    EXPECT_EQ(sysfs.why, "");
    // L2 unknown: nothing to hold the size against but the plausible maximum.
    EXPECT_EQ(choose(8 * MiB, false, 0).method, ColdMethod::rotation);
    EXPECT_EQ(choose(kPlausible, false, 1 * MiB).method, ColdMethod::rotation);
}

TEST(ColdPreparation, AGivenSizeStandsWhateverItIs) {
    // --l3: the user's word (selection_checks.cpp refuses one whose rotation fits in L1, notes a small one).
    EXPECT_EQ(choose(64 * KiB, true, 512 * KiB).method, ColdMethod::rotation);
    EXPECT_EQ(choose(0, true, 512 * KiB).method, ColdMethod::rotation);
}

TEST(ColdPreparation, NoLastLevelFoundFlushes) {
    const auto p = choose(0, false, 512 * KiB);
    EXPECT_EQ(p.method, ColdMethod::clflushopt);
    EXPECT_EQ(p.why, "no last-level cache size was found");
}

TEST(ColdPreparation, ASizeThatContradictsTheMachineFlushes) {
    // No larger than the L2 below it: a staircase that rose early beside other work.
    const auto small = choose(1 * MiB, false, 1 * MiB);
    EXPECT_EQ(small.method, ColdMethod::clflushopt);
    EXPECT_EQ(small.why, "the last-level size found, 1 MiB, is not above the L2 (1 MiB)");
    // More than any CPU has (a hypervisor's CPUID figure).
    const auto large = choose(508 * MiB, false, 512 * KiB);
    EXPECT_EQ(large.method, ColdMethod::clflushopt);
    EXPECT_EQ(large.why, "the last-level size found, 508 MiB, is more than any CPU has");
}

TEST(ColdPreparation, TheBestFlushTheMachineOffers) {
    EXPECT_EQ(choose(0, false, 0, kX86).method, ColdMethod::clflushopt);
    EXPECT_EQ(choose(0, false, 0, kOldX86).method, ColdMethod::clflush);
    EXPECT_EQ(choose(0, false, 0, kArm64).method, ColdMethod::dc_civac);
    const auto last = choose(0, false, 0, kNone);
    EXPECT_EQ(last.method, ColdMethod::eviction_buffer);
    EXPECT_EQ(last.eviction_bytes, 2 * kPlausible);  // outgrows any believable last level
}

TEST(ColdPreparation, Names) {
    EXPECT_EQ(cold_method_name(ColdMethod::rotation), "rotation");
    EXPECT_EQ(cold_method_name(ColdMethod::clflushopt), "clflushopt");
    EXPECT_EQ(cold_method_name(ColdMethod::clflush), "clflush");
    EXPECT_EQ(cold_method_name(ColdMethod::dc_civac), "dc civac");
    EXPECT_EQ(cold_method_name(ColdMethod::eviction_buffer), "eviction buffer");
}

// The methods this machine can run, as choose_cold_preparation would pick among them.
std::vector<ColdMethod> methods_here() {
    const auto flush = flush_instructions_here();
    std::vector<ColdMethod> out = {ColdMethod::eviction_buffer};
    if (flush.clflushopt)
        out.push_back(ColdMethod::clflushopt);
    if (flush.clflush)
        out.push_back(ColdMethod::clflush);
    if (flush.dc_civac)
        out.push_back(ColdMethod::dc_civac);
    return out;
}

TEST(ColdPreparation, EvictingKeepsTheDataAndTouchesTheEvictionBuffer) {
#if defined(__x86_64__)
    EXPECT_TRUE(flush_instructions_here().clflush);  // every x86-64 CPU has it
#elif defined(__aarch64__)
    EXPECT_TRUE(flush_instructions_here().dc_civac);
#endif
    // An unaligned range over several lines: its first and last lines are partial.
    std::vector<std::uint8_t> data(4096 + 3);
    std::iota(data.begin(), data.end(), std::uint8_t{7});
    const auto expected = data;
    for (const auto method : methods_here()) {
        std::vector<std::uint8_t> eviction(8 * 64);
        evict(method, data.data() + 3, 4000, &eviction);
        EXPECT_EQ(data, expected) << cold_method_name(method);
        // The eviction buffer's every line written once; the flushes leave it alone.
        const std::uint8_t touched = method == ColdMethod::eviction_buffer ? 1 : 0;
        for (std::size_t i = 0; i < eviction.size(); i += 64)
            EXPECT_EQ(eviction[i], touched) << cold_method_name(method) << " line " << i / 64;
    }
    // Rotation places data instead: evict leaves everything as it was.
    std::vector<std::uint8_t> eviction(64);
    evict(ColdMethod::rotation, data.data(), data.size(), &eviction);
    EXPECT_EQ(eviction, std::vector<std::uint8_t>(64, 0));
}

SuiteSpec evicting_spec(ColdMethod method) {
    SuiteSpec spec;
    spec.cache_sizes = {1 * KiB, 4 * KiB, 0};  // no last level found
    spec.sizes = {64, 1 * KiB};
    spec.caches = {CacheState::hot, CacheState::cold};
    spec.variants = {"branchy"};
    spec.cold = {method, method == ColdMethod::eviction_buffer ? 64 * KiB : 0,
                 "no last-level cache size was found"};
    return spec;
}

TEST(ColdPreparation, EvictedColdKeepsItsNamesInOneWindowAndSaysHow) {
    const auto suite = build_suite(evicting_spec(ColdMethod::clflush), harness::detect_cpu());
    std::map<std::string, std::string> context(suite.context.begin(), suite.context.end());
    EXPECT_EQ(context["cold_method"], "clflush");
    std::size_t cold = 0;
    for (const auto& b : suite.benchmarks) {
        std::map<std::string, std::string> params(b.params.begin(), b.params.end());
        if (params["cache"] != "cold")
            continue;
        ++cold;
        EXPECT_NE(b.name.find("/cold/"), std::string::npos) << b.name;
        EXPECT_EQ(params["windows"], "1") << b.name;  // evicted in place, not rotated
    }
    EXPECT_EQ(cold, 4u);  // branchy and memcpy at 64B and 1K
    const auto note = std::find_if(suite.notes.begin(), suite.notes.end(), [](const auto& n) {
        return n ==
               "cold is evicted, not rotated: no last-level cache size was found, so every cold "
               "iteration's data is evicted from the caches by clflush first, with the timer and "
               "counters paused";
    });
    EXPECT_NE(note, suite.notes.end());
    // Rotating, the result says so too.
    auto rotating = evicting_spec(ColdMethod::rotation);
    rotating.cache_sizes.l3 = 16 * KiB;
    std::map<std::string, std::string> rotated;
    for (const auto& [k, v] : build_suite(rotating, harness::detect_cpu()).context)
        rotated[k] = v;
    EXPECT_EQ(rotated["cold_method"], "rotation");
}

TEST(ColdPreparation, EveryMethodHereRunsThroughTheRunner) {
    for (const auto method : methods_here()) {
        auto spec = evicting_spec(method);
        spec.caches = {CacheState::cold};
        const auto suite = build_suite(spec, harness::detect_cpu());
        EXPECT_GE(suite_bytes_needed(spec), spec.cold.eviction_bytes);  // the buffer counted
        harness::RunnerOptions options;
        options.events = "task-clock";
        options.repetitions = 2;
        options.precision = 0;
        options.min_sample_time_s = 1e-4;
        options.warmup_time_s = 0;
        harness::Runner runner(options);
        const auto result = runner.run(suite.benchmarks);
        ASSERT_EQ(result.benchmarks.size(), suite.benchmarks.size());
        // Every planned round took a sample (kept, or set aside as disturbed on a busy machine).
        for (const auto& b : result.benchmarks)
            EXPECT_GE(b.ns_per_item.size() + b.disturbed.size(), 2u)
                << cold_method_name(method) << " " << b.name;
    }
}

}  // namespace
}  // namespace perfgauge::workloads
