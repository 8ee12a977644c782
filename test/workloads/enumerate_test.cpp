// enumerate lists what build_suite builds, name for name and note for note, without the data;
// benchmark keys round-trip through params; the memory check's words.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/workloads/benchmark_key.hpp"
#include "perfgauge/workloads/suite.hpp"
#include "perfgauge/workloads/suite_here.hpp"

namespace perfgauge::workloads {
namespace {

// perfgauge run's default suite (its selection, the decoders it adds) on a machine with small
// caches, so that the data build_suite allocates stays small.
SuiteSpec default_suite() {
    SuiteSpec spec;
    spec.variants = {"branchy", "bmi2", "avx2", "avx512"};
    spec.cache_sizes = {32 << 10, 256 << 10, 1 << 20};
    spec.machine_caches = spec.cache_sizes;
    return spec;
}

void expect_listed_as_built(const SuiteSpec& spec) {
    const auto cpu = harness::detect_cpu();
    const auto built = build_suite(spec, cpu);
    const auto listed = enumerate(spec, cpu);
    ASSERT_EQ(listed.benchmarks.size(), built.benchmarks.size());
    for (std::size_t i = 0; i < built.benchmarks.size(); ++i) {
        const auto& b = built.benchmarks[i];
        const auto& l = listed.benchmarks[i];
        EXPECT_EQ(l.name, b.name);
        ASSERT_GE(b.params.size(), 6u);
        EXPECT_EQ(l.params, BenchmarkParams(b.params.begin(), b.params.begin() + 6)) << b.name;
        EXPECT_EQ(key_from_params(b.params), l.key) << b.name;
    }
    EXPECT_EQ(listed.notes, built.notes);
}

TEST(Enumerate, ListsTheDefaultSuiteAsBuilt) {
    const auto spec = default_suite();
    expect_listed_as_built(spec);
    // The sweep's first point is one varint of the arena's mean (log-uniform: 2.76 bytes).
    const auto listed = enumerate(spec, harness::detect_cpu());
    ASSERT_FALSE(listed.benchmarks.empty());
    EXPECT_EQ(listed.benchmarks.front().name, "varint/branchy/log-uniform/end-on-end/hot/3B");
}

TEST(Enumerate, ListsSelectionsAsBuilt) {
    auto spec = default_suite();
    spec.shapes = {Shape::one_shot, Shape::end_on_end};
    spec.caches = {CacheState::flush, CacheState::hot, CacheState::cold};
    spec.distributions = {Distribution::uniform, Distribution::fixed1, Distribution::fixed5};
    expect_listed_as_built(spec);  // every shape, cache state, the sweep per distribution
    spec.sizes = {64, 3000, 1 << 20};
    spec.data_seed = 7;
    expect_listed_as_built(spec);  // sizes given
    spec.workloads = {"memcpy"};
    expect_listed_as_built(spec);
    spec = default_suite();
    spec.workloads = {"varint"};
    spec.shapes = {Shape::one_shot};
    spec.caches = {CacheState::hot, CacheState::cold};
    spec.cold = {ColdMethod::clflush, 0, "no last-level cache size"};
    spec.simulated = true;  // avx512 skipped with a note, whatever the CPU
    expect_listed_as_built(spec);
}

TEST(Enumerate, RefusesWhatBuildSuiteRefuses) {
    auto spec = default_suite();
    spec.workloads = {"varint", "strlen"};
    EXPECT_THROW(enumerate(spec, harness::detect_cpu()), SuiteError);
    spec.workloads = {"varint"};
    spec.variants = {"nosuch"};
    EXPECT_THROW(enumerate(spec, harness::detect_cpu()), SuiteError);
    spec.variants = {"branchy"};
    spec.shapes = {Shape::one_shot};
    spec.caches = {CacheState::cold};
    EXPECT_THROW(enumerate(spec, harness::detect_cpu()), SuiteError);  // nothing left
    EXPECT_THROW(build_suite(spec, harness::detect_cpu()), SuiteError);
}

TEST(Enumerate, AllocatesNoData) {
    // 1 TiB of varints per working set: build_suite would allocate it, enumerate only names it.
    auto spec = default_suite();
    spec.sizes = {std::uint64_t{1} << 40};
    spec.caches = {CacheState::cold};
    const auto listed = enumerate(spec, harness::detect_cpu());
    ASSERT_FALSE(listed.benchmarks.empty());
    EXPECT_EQ(listed.benchmarks.front().name, "varint/branchy/log-uniform/end-on-end/cold/1024G");
    EXPECT_EQ(listed.benchmarks.back().name, "memcpy/log-uniform/cold/1024G");
}

TEST(BenchmarkKey, NamesAndParamsRoundTrip) {
    const BenchmarkKey varint{"varint",          "bmi2", Distribution::fixed3, Shape::one_shot,
                              CacheState::flush, 3};
    EXPECT_EQ(benchmark_name(varint), "varint/bmi2/fixed3/one-shot/flush/3B");
    EXPECT_EQ(key_from_params(key_params(varint)), varint);
    const BenchmarkKey memcpy{"memcpy",     "memcpy",         Distribution::log_uniform,
                              std::nullopt, CacheState::cold, 256 << 10};
    EXPECT_EQ(benchmark_name(memcpy), "memcpy/log-uniform/cold/256K");
    const BenchmarkParams expected = {{"workload", "memcpy"},  {"variant", "memcpy"},
                                      {"dist", "log-uniform"}, {"shape", "-"},
                                      {"cache", "cold"},       {"size_bytes", "262144"}};
    EXPECT_EQ(key_params(memcpy), expected);
    EXPECT_EQ(key_from_params(expected), memcpy);
    EXPECT_THROW(key_from_params({{"workload", "varint"}}), std::logic_error);
}

TEST(MemoryRefusal, SaysWhatDoesNotFitAndWhatToGive) {
    auto spec = default_suite();
    spec.sizes = {std::uint64_t{1} << 30};
    EXPECT_EQ(memory_refusal(spec, std::nullopt), "");  // unknown: the allocation decides
    EXPECT_EQ(memory_refusal(spec, std::uint64_t{1} << 40), "");
    const auto why = memory_refusal(spec, std::uint64_t{100} << 20);
    EXPECT_EQ(why.rfind("--sizes: the largest working set, 1G, makes the run allocate ", 0), 0u)
        << why;
    EXPECT_NE(why.find("(varints, cold windows over 2x the last-level cache, memcpy's copies)"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("only 100.0 MiB (104857600 bytes) is available"), std::string::npos) << why;
    spec.sizes.clear();
    EXPECT_NE(memory_refusal(spec, 4096).find("Give smaller --sizes (or a smaller --l3)"),
              std::string::npos);
}

}  // namespace
}  // namespace perfgauge::workloads
