#include "perfgauge/workloads/suite.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/workloads/variant_availability.hpp"

namespace perfgauge::workloads {
namespace {

// Small caches keep the data (2x "LLC" for cold) and the test fast.
SuiteSpec small_spec() {
    SuiteSpec spec;
    spec.cache_sizes = {1 << 10, 4 << 10, 16 << 10};
    spec.sizes = {64, 1 << 10};
    spec.caches = {CacheState::hot, CacheState::cold, CacheState::flush};
    spec.variants = {"branchy", "unrolled"};
    return spec;
}

std::map<std::string, std::string> params_of(const harness::Benchmark& b) {
    return {b.params.begin(), b.params.end()};
}

const harness::Benchmark* find(const Suite& suite, const std::string& name) {
    for (const auto& b : suite.benchmarks) {
        if (b.name == name)
            return &b;
    }
    return nullptr;
}

TEST(Suite, NamesParamsAndPlacement) {
    const auto suite = build_suite(small_spec(), harness::detect_cpu());
    // 3 cache states x 2 sizes x (2 variants + memcpy)
    EXPECT_EQ(suite.benchmarks.size(), 18u);
    const auto* cold = find(suite, "varint/branchy/log-uniform/end-on-end/cold/1K");
    ASSERT_NE(cold, nullptr);
    auto p = params_of(*cold);
    EXPECT_EQ(p["workload"], "varint");
    EXPECT_EQ(p["variant"], "branchy");
    EXPECT_EQ(p["cache"], "cold");
    EXPECT_EQ(p["size_bytes"], "1024");
    EXPECT_EQ(p["windows"], "32");  // 2 x 16K / 1K
    // ~1K of varints at the mean size (2.76 bytes)
    EXPECT_NEAR(cold->items_per_iteration, 1024 / 2.76, 15);
    EXPECT_NEAR(cold->bytes_per_iteration, 1024, 64);
    // A 64-byte working set is spread one window per cache line: 2 x 16K / 64.
    EXPECT_EQ(params_of(*find(suite, "memcpy/log-uniform/cold/64B"))["windows"], "512");
    EXPECT_EQ(params_of(*find(suite, "varint/unrolled/log-uniform/end-on-end/hot/64B"))["windows"],
              "1");
    // memcpy copies the bytes of the same varints.
    const auto* memcpy_cold = find(suite, "memcpy/log-uniform/cold/1K");
    ASSERT_NE(memcpy_cold, nullptr);
    EXPECT_EQ(memcpy_cold->items_per_iteration, cold->items_per_iteration);
    EXPECT_EQ(memcpy_cold->bytes_per_iteration, cold->bytes_per_iteration);
    bool has_cache_context = false;
    std::string cxx_flags;
    for (const auto& [key, value] : suite.context) {
        has_cache_context |= key == "l3_bytes" && value == "16384";
        if (key == "cxx_flags")
            cxx_flags = value;
    }
    EXPECT_TRUE(has_cache_context);
#ifdef NDEBUG  // an optimised build (this test is compiled like the workloads, with -O2 or -O3)
    EXPECT_NE(cxx_flags.find("-O3"), std::string::npos) << cxx_flags;
#else
    EXPECT_EQ(cxx_flags.find("-O3"), std::string::npos) << cxx_flags;
#endif
}

TEST(Suite, EveryBenchmarkRunsThroughTheRunner) {
    auto spec = small_spec();
    spec.shapes = {Shape::end_on_end, Shape::one_shot};
    spec.variants.clear();
    for (const auto& v : varint_variants()) {
        if (unavailable_reason(v, harness::detect_cpu()).empty())
            spec.variants.emplace_back(v.name);
    }
    const auto suite = build_suite(spec, harness::detect_cpu());
    harness::RunnerOptions options;
    options.events = "task-clock";
    options.repetitions = 2;
    options.min_sample_time_s = 1e-4;
    options.warmup_time_s = 0;
    harness::Runner runner(options);
    const auto result = runner.run(suite.benchmarks);
    ASSERT_EQ(result.benchmarks.size(), suite.benchmarks.size());
    for (const auto& b : result.benchmarks) {
        for (const double ns : b.raw_ns_per_item)
            EXPECT_GT(ns, 0) << b.name;
    }
}

TEST(Suite, OneShotIsNeverCold) {
    auto spec = small_spec();
    spec.shapes = {Shape::one_shot};
    spec.workloads = {"varint"};
    spec.distributions = {Distribution::fixed3};
    const auto suite = build_suite(spec, harness::detect_cpu());
    // hot and flush for each variant; cold skipped with a note
    EXPECT_EQ(suite.benchmarks.size(), 4u);
    EXPECT_NE(find(suite, "varint/branchy/fixed3/one-shot/hot/3B"), nullptr);
    EXPECT_NE(find(suite, "varint/unrolled/fixed3/one-shot/flush/3B"), nullptr);
    ASSERT_EQ(suite.notes.size(), 1u);
    EXPECT_NE(suite.notes[0].find("never cold"), std::string::npos);
}

TEST(Suite, VariantsTheCpuLacksAreSkippedWithANote) {
    auto spec = small_spec();
    spec.variants = {"bmi2", "branchy"};
    harness::CpuInfo old_cpu;
    old_cpu.model_name = "a CPU without BMI2";
    const auto suite = build_suite(spec, old_cpu);
    ASSERT_FALSE(suite.notes.empty());
    EXPECT_NE(suite.notes[0].find("needs BMI2"), std::string::npos);
    for (const auto& b : suite.benchmarks)
        EXPECT_EQ(b.name.find("bmi2"), std::string::npos) << b.name;

    spec.variants = {"bmi2"};
    spec.workloads = {"varint"};
    EXPECT_THROW(build_suite(spec, old_cpu), SuiteError);
}

TEST(Suite, VariantsValgrindCannotRunAreSkippedWhenSimulating) {
    auto spec = small_spec();
    spec.variants = {"avx512", "branchy"};
    spec.simulated = true;
    harness::CpuInfo cpu;
    cpu.bmi2 = cpu.avx2 = cpu.avx512_vbmi2 = true;  // it would run natively
    const auto suite = build_suite(spec, cpu);
    ASSERT_EQ(suite.notes.size(), 1u);
    EXPECT_NE(suite.notes[0].find("cannot run under valgrind"), std::string::npos);
    EXPECT_NE(find(suite, "varint/branchy/log-uniform/end-on-end/hot/1K"), nullptr);
    for (const auto& b : suite.benchmarks)
        EXPECT_EQ(b.name.find("avx512"), std::string::npos) << b.name;
}

TEST(Suite, RejectsUnknownNames) {
    auto spec = small_spec();
    spec.variants = {"bmi3"};
    EXPECT_THROW(build_suite(spec, harness::detect_cpu()), SuiteError);
    spec = small_spec();
    spec.workloads = {"strlen"};
    EXPECT_THROW(build_suite(spec, harness::detect_cpu()), SuiteError);
}

TEST(SuiteSelection, OneShotWithOnlyColdIsRefused) {
    SuiteSpec spec;
    spec.shapes = {Shape::one_shot};
    spec.caches = {CacheState::cold};
    EXPECT_NE(selection_refusal(spec).find("never cold"), std::string::npos);
    spec.caches = {CacheState::hot, CacheState::cold};  // hot still runs: cold is noted only
    EXPECT_EQ(selection_refusal(spec), "");
    spec.caches = {CacheState::cold};
    spec.shapes = {Shape::one_shot, Shape::end_on_end};
    EXPECT_EQ(selection_refusal(spec), "");
    spec.shapes = {Shape::one_shot};
    spec.workloads = {"memcpy"};  // memcpy has no shape
    EXPECT_EQ(selection_refusal(spec), "");
}

// The simulation places only the cold windows its two passes reach (placement.hpp): a warm-up
// and a counted batch of ceil(max_items / items) iterations each (run_simulated_batches), every
// window visited once, none revisited warm.
TEST(SuiteSimulation, ColdWindowsCoverBothPassesWithoutARevisit) {
    SuiteSpec spec;
    spec.cache_sizes = {1 << 10, 4 << 10, 16 << 10};
    spec.sizes = {3, 16, 64, 1 << 10, 4 << 10};
    spec.caches = {CacheState::cold};
    spec.variants = {"branchy"};
    spec.max_items_per_iteration = 40;
    const auto suite = build_suite(spec, harness::detect_cpu());
    ASSERT_FALSE(suite.benchmarks.empty());
    for (const auto& b : suite.benchmarks) {
        const double iterations = std::max(1.0, std::ceil(40 / b.items_per_iteration));
        EXPECT_LE(2 * iterations, std::stod(params_of(b)["windows"])) << b.name;
    }
    // Fewer than the native rotation's (2 x 16K / 64 = 512 for 3 bytes), yet each visited once.
    EXPECT_LT(std::stod(params_of(
                  *find(suite, "varint/branchy/log-uniform/end-on-end/cold/3B"))["windows"]),
              512);
}

// From 2x the last-level cache the decoders decode a slice per iteration (methodology.md).
TEST(SuiteSlices, DecodersSliceSetsInMemoryMemcpyAndFlushDoNot) {
    SuiteSpec spec;
    spec.cache_sizes = {1 << 10, 4 << 10, 16 << 10};
    spec.sizes = {16 << 10, 32 << 10};
    spec.caches = {CacheState::hot, CacheState::cold, CacheState::flush};
    spec.variants = {"branchy"};
    const auto suite = build_suite(spec, harness::detect_cpu());
    const auto windows = [&](const std::string& name) {
        const auto* b = find(suite, name);
        return b ? params_of(*b)["windows"] : "no " + name;
    };
    EXPECT_EQ(windows("varint/branchy/log-uniform/end-on-end/hot/16K"), "1");  // below 2x 16K
    EXPECT_EQ(windows("varint/branchy/log-uniform/end-on-end/hot/32K"), "64");
    EXPECT_EQ(windows("varint/branchy/log-uniform/end-on-end/cold/32K"), "64");
    EXPECT_EQ(windows("varint/branchy/log-uniform/end-on-end/flush/32K"), "1");
    EXPECT_EQ(windows("memcpy/log-uniform/hot/32K"), "1");
    const auto* sliced = find(suite, "varint/branchy/log-uniform/end-on-end/hot/32K");
    const auto* copied = find(suite, "memcpy/log-uniform/hot/32K");
    ASSERT_TRUE(sliced && copied);
    EXPECT_EQ(sliced->items_per_iteration, std::floor(copied->items_per_iteration / 64));
    EXPECT_NEAR(sliced->bytes_per_iteration, (32 << 10) / 64.0, 64);  // a slice's bytes
    // The simulation counts its prefix of the whole pass, as before.
    spec.max_items_per_iteration = 100;
    const auto simulated = build_suite(spec, harness::detect_cpu());
    const auto* prefix = find(simulated, "varint/branchy/log-uniform/end-on-end/hot/32K");
    ASSERT_NE(prefix, nullptr);
    EXPECT_EQ(params_of(*prefix)["windows"], "1");
}

TEST(SuiteSelection, ColdWhoseRotationFitsInL1IsRefused) {
    SuiteSpec spec;
    spec.caches = {CacheState::cold};
    spec.machine_caches = {48 << 10, 1 << 20, 32 << 20};
    spec.cache_sizes = spec.machine_caches;
    EXPECT_EQ(selection_refusal(spec), "");  // the default sweep on the machine's own caches
    spec.cache_sizes_given = true;
    spec.cache_sizes.l3 = 1;  // --l3 1: the whole rotation (2 windows, 128 bytes) stays in L1
    const auto why = selection_refusal(spec);
    EXPECT_NE(why.find("a last-level cache of 1B"), std::string::npos) << why;
    EXPECT_NE(why.find("covers 2x that, 128B, which fits in this machine's 48K L1 data cache"),
              std::string::npos)
        << why;
    spec.cache_sizes.l3 = 16 << 10;  // 32K of windows: still in L1
    EXPECT_NE(selection_refusal(spec), "");
    spec.cache_sizes.l3 = 32 << 10;  // 64K of windows: beyond L1, allowed with a note
    EXPECT_EQ(selection_refusal(spec), "");
    spec.cache_sizes.l3 = 1;
    spec.caches = {CacheState::hot};  // no cold, nothing mislabelled
    EXPECT_EQ(selection_refusal(spec), "");
    spec.caches = {CacheState::cold};
    spec.machine_caches = {};  // nothing known about the machine: nothing to hold it against
    EXPECT_EQ(selection_refusal(spec), "");
}

TEST(SuiteSelection, ColdWithoutAKnownCacheIsNotedNotRefused) {
    auto spec = small_spec();
    spec.sizes = {4 << 10};
    spec.cache_sizes = {};                   // sysfs reports no cache (some hypervisors)
    spec.machine_caches = {0, 0, 32 << 20};  // CPUID does
    EXPECT_EQ(selection_refusal(spec), "");  // the default run still runs
    const auto notes = build_suite(spec, harness::detect_cpu()).notes;
    const auto note = std::find_if(notes.begin(), notes.end(), [](const auto& n) {
        return n.find("cold is hot up to 4K: sysfs reports no last-level cache") !=
               std::string::npos;
    });
    EXPECT_NE(note, notes.end());
}

TEST(SuiteSelection, ColdOverSmallerCachesThanTheMachinesIsNoted) {
    auto spec = small_spec();
    spec.machine_caches = {48 << 10, 1 << 20, 32 << 20};
    const auto suite = build_suite(spec, harness::detect_cpu());
    const auto note = std::find_if(suite.notes.begin(), suite.notes.end(), [](const auto& n) {
        return n.find("smaller than this machine's (32M)") != std::string::npos;
    });
    EXPECT_NE(note, suite.notes.end());
    spec.caches = {CacheState::hot};
    for (const auto& n : build_suite(spec, harness::detect_cpu()).notes)
        EXPECT_EQ(n.find("machine's"), std::string::npos) << n;
}

TEST(SuiteMemory, CountsEveryBufferTheSuiteHolds) {
    SuiteSpec spec;
    spec.workloads = {"varint"};
    spec.caches = {CacheState::hot};
    spec.sizes = {1 << 20};
    spec.cache_sizes = {48 << 10, 1 << 20, 32 << 20};
    const std::uint64_t arena = suite_bytes_needed(spec);
    EXPECT_GE(arena, 1u << 20);
    EXPECT_LT(arena, 2u << 20);
    spec.workloads = {"varint", "memcpy"};  // + a destination of about the size
    EXPECT_GE(suite_bytes_needed(spec), arena + (1u << 20));
    spec.distributions = {Distribution::fixed1, Distribution::uniform};  // an arena each
    EXPECT_GE(suite_bytes_needed(spec), 2 * (arena + (1u << 20)));
    spec.workloads = {"varint"};
    spec.distributions = {Distribution::log_uniform};
    spec.caches = {CacheState::cold};  // windows over 2x the last-level cache
    spec.sizes = {1 << 10};
    EXPECT_GE(suite_bytes_needed(spec), 64u << 20);
    spec.shapes = {Shape::one_shot};  // one varint: no sized data
    EXPECT_LT(suite_bytes_needed(spec), 1u << 20);
}

TEST(SuiteMemory, SaturatesInsteadOfWrapping) {
    SuiteSpec spec;
    spec.sizes = {std::numeric_limits<std::uint64_t>::max() / 2};
    spec.cache_sizes = {48 << 10, 1 << 20, 32 << 20};
    EXPECT_EQ(suite_bytes_needed(spec), std::numeric_limits<std::uint64_t>::max());
    spec.sizes = {1 << 10};
    spec.cache_sizes.l3 = std::numeric_limits<std::uint64_t>::max();  // absurd --l3, cold
    EXPECT_EQ(suite_bytes_needed(spec), std::numeric_limits<std::uint64_t>::max());
}

TEST(Suite, StateNames) {
    for (const auto c : {CacheState::hot, CacheState::cold, CacheState::flush})
        EXPECT_EQ(parse_cache_state(cache_state_name(c)), c);
    for (const auto s : {Shape::one_shot, Shape::end_on_end})
        EXPECT_EQ(parse_shape(shape_name(s)), s);
    EXPECT_EQ(parse_cache_state("warm"), std::nullopt);
}

}  // namespace
}  // namespace perfgauge::workloads
