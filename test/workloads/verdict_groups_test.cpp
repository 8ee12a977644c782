#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::workloads {
namespace {

harness::Benchmark bench(const std::string& workload, const std::string& variant,
                         const std::string& shape, const std::string& cache,
                         const std::string& size) {
    harness::Benchmark b;
    b.name = workload + "/" + variant + "/" + shape + "/" + cache + "/" + size;
    b.params = {{"workload", workload}, {"variant", variant}, {"dist", "log-uniform"},
                {"shape", shape},       {"cache", cache},     {"size_bytes", size}};
    return b;
}

TEST(VerdictGroups, DecodersAtOnePointAgainstBranchyWithMemcpyRidingAlong) {
    const std::vector<harness::Benchmark> benchmarks = {
        bench("varint", "bmi2", "end-on-end", "hot", "4096"),      // 0
        bench("varint", "branchy", "end-on-end", "hot", "4096"),   // 1
        bench("varint", "avx2", "end-on-end", "hot", "4096"),      // 2
        bench("memcpy", "memcpy", "-", "hot", "4096"),             // 3
        bench("varint", "branchy", "end-on-end", "cold", "4096"),  // 4
        bench("varint", "bmi2", "end-on-end", "cold", "4096"),     // 5
        bench("varint", "branchy", "one-shot", "hot", "3"),        // 6: not summarised
        bench("varint", "bmi2", "one-shot", "hot", "3"),           // 7
        bench("varint", "branchy", "end-on-end", "hot", "65536"),  // 8: alone at its size
        bench("memcpy", "memcpy", "-", "hot", "65536"),            // 9
    };
    const auto groups = verdict_groups(benchmarks);
    ASSERT_EQ(groups.size(), 2u);
    // Ordered by (dist, cache, size): cold 4096 first.
    EXPECT_EQ(groups[0].baseline, 4u);
    EXPECT_EQ(groups[0].contenders, (std::vector<std::size_t>{5}));
    EXPECT_TRUE(groups[0].riders.empty());
    EXPECT_EQ(groups[1].baseline, 1u);
    EXPECT_EQ(groups[1].contenders, (std::vector<std::size_t>{0, 2}));
    EXPECT_EQ(groups[1].riders, (std::vector<std::size_t>{3}));
}

TEST(VerdictGroups, WithoutBranchyTheFirstDecoderIsTheBaseline) {
    const std::vector<harness::Benchmark> benchmarks = {
        bench("varint", "bmi2", "end-on-end", "hot", "4096"),
        bench("varint", "avx2", "end-on-end", "hot", "4096"),
    };
    const auto groups = verdict_groups(benchmarks);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].baseline, 0u);
    EXPECT_EQ(groups[0].contenders, (std::vector<std::size_t>{1}));
    EXPECT_TRUE(verdict_groups({benchmarks[0]}).empty());
}

}  // namespace
}  // namespace perfgauge::workloads
