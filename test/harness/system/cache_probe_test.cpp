// The last-level cache size read from synthetic latency staircases (no timing here).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "perfgauge/harness/cache_probe.hpp"
#include "perfgauge/harness/scratch_dir.hpp"

namespace perfgauge::harness {
namespace {

constexpr std::uint64_t MiB = std::uint64_t{1} << 20;

// 1 MiB to 256 MiB doubling: `cache_ns` up to `llc` bytes, then a ramp, then `memory_ns`.
std::vector<LatencyStep> staircase(std::uint64_t llc, double cache_ns, double memory_ns) {
    std::vector<LatencyStep> steps;
    for (std::uint64_t bytes = MiB; bytes <= 256 * MiB; bytes *= 2) {
        double ns = cache_ns;
        if (bytes == 2 * llc)
            ns = (cache_ns + memory_ns) * 0.6;  // half in the cache: more than half of memory's
        else if (bytes > 2 * llc)
            ns = memory_ns;
        steps.push_back({bytes, ns});
    }
    return steps;
}

TEST(CacheProbe, GivesTheLargestBufferBelowMemoryLatencyAnUpperBound) {
    // The buffer twice the cache is still partly served by it: below memory's plateau.
    EXPECT_EQ(last_level_from_staircase(staircase(32 * MiB, 12, 110)), 64 * MiB);
    EXPECT_EQ(last_level_from_staircase(staircase(8 * MiB, 15, 90)), 16 * MiB);
}

TEST(CacheProbe, AGradualRiseBesideOtherWorkGivesALargeBoundNotASmallOne) {
    // Measured here beside four builds on two CPUs (thread CPU time, ns per load): the shared
    // cache held far less than sysfs's 32 MiB. The bound stays above it.
    const std::vector<LatencyStep> loaded = {
        {MiB, 35.4},       {2 * MiB, 69.1},    {4 * MiB, 114.7},
        {8 * MiB, 117.7},  {16 * MiB, 145.1},  {32 * MiB, 152.8},
        {64 * MiB, 150.9}, {128 * MiB, 180.8}, {256 * MiB, 204.7}};
    EXPECT_EQ(last_level_from_staircase(loaded), 128 * MiB);
}

TEST(CacheProbe, AnL2StepBelowTheLastLevelIsNotTakenForIt) {
    auto steps = staircase(16 * MiB, 12, 100);
    steps[0].ns_per_load = 4;  // 1 MiB fits a larger L2: faster still, same answer
    EXPECT_EQ(last_level_from_staircase(steps), 32 * MiB);
}

TEST(CacheProbe, NoAnswerWithoutAMemoryPlateau) {
    // Still climbing at the largest buffer: the cache may be larger than what was measured.
    auto climbing = staircase(128 * MiB, 12, 100);
    climbing.back().ns_per_load = 60;
    EXPECT_EQ(last_level_from_staircase(climbing), std::nullopt);
    // Flat: nothing tells a cache from memory.
    EXPECT_EQ(last_level_from_staircase(staircase(512 * MiB, 20, 20)), std::nullopt);
}

TEST(CacheProbe, RefusesMalformedStaircases) {
    EXPECT_EQ(last_level_from_staircase({}), std::nullopt);
    const std::vector<LatencyStep> short_one = {{MiB, 10}, {2 * MiB, 10}, {4 * MiB, 100}};
    EXPECT_EQ(last_level_from_staircase(short_one), std::nullopt);
    auto unordered = staircase(8 * MiB, 10, 100);
    std::swap(unordered[1], unordered[2]);
    EXPECT_EQ(last_level_from_staircase(unordered), std::nullopt);
    auto zero = staircase(8 * MiB, 10, 100);
    zero[3].ns_per_load = 0;  // a step that measured nothing
    EXPECT_EQ(last_level_from_staircase(zero), std::nullopt);
}

TEST(CacheProbe, APlausibleSysfsSizeIsTakenWithoutMeasuring) {
    const auto llc = find_last_level_cache(32 * MiB, "any CPU");
    EXPECT_EQ(llc.bytes, 32 * MiB);
    EXPECT_EQ(llc.how, "sysfs");
}

// What a run's first process found is what its later processes read, a size or none (0): they
// must all prepare cold data alike. Read from the kept file, nothing measured.
TEST(CacheProbe, AKeptAnswerIsReadSizeOrNone) {
    const ScratchDir dir("perfgauge-cache-probe-test", "the cache probe test");
    const std::string old = std::getenv("XDG_CACHE_HOME") ? std::getenv("XDG_CACHE_HOME") : "";
    ::setenv("XDG_CACHE_HOME", dir.path().c_str(), 1);
    std::filesystem::create_directories(dir.path() / "perfgauge");
    std::ofstream(dir.path() / "perfgauge" / "last-level-cache.txt")
        << "cpu A | sysfs 0\t0\ncpu B | sysfs 0\t" << 48 * MiB << "\n";
    const auto none = find_last_level_cache(0, "cpu A");
    const auto some = find_last_level_cache(0, "cpu B", false);
    // Under valgrind nothing is measured: a machine without a kept answer has none.
    const auto unknown = find_last_level_cache(0, "cpu C", false);
    if (old.empty())
        ::unsetenv("XDG_CACHE_HOME");
    else
        ::setenv("XDG_CACHE_HOME", old.c_str(), 1);
    EXPECT_EQ(none.bytes, 0u);
    EXPECT_NE(none.how.find("measured earlier showed no step to memory"), std::string::npos)
        << none.how;
    EXPECT_EQ(some.bytes, 48 * MiB);
    EXPECT_EQ(some.how.rfind("measured earlier (sysfs reports none;", 0), 0u) << some.how;
    EXPECT_EQ(unknown.bytes, 0u);
    EXPECT_EQ(unknown.how, "sysfs reports none, and no staircase measured earlier");
}

}  // namespace
}  // namespace perfgauge::harness
