// End-to-end: `perfgauge stat --backend sim` on a program with Session regions reports simulated
// counts per region.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "../support/cli.hpp"

namespace perfgauge::test {
namespace {

TEST(StatRegions, SimulatedInstructionsPerSessionRegion) {
    if (PERFGAUGE_SANITIZED_BUILD)
        GTEST_SKIP() << "AddressSanitizer builds cannot run under valgrind";
    if (::access("/usr/bin/valgrind", X_OK) != 0 && ::access("/bin/valgrind", X_OK) != 0)
        GTEST_SKIP() << "valgrind is not installed (apt-get install valgrind)";
    const auto r = perfgauge({"stat", "--backend", "sim", "-e", "instructions", "--format", "json",
                              "--", PERFGAUGE_SESSION_REGIONS_PATH});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // stat reports on stderr, as perf stat does, after its notice line.
    const auto j = nlohmann::json::parse(r.err.substr(r.err.find("\n{") + 1));
    ASSERT_TRUE(j.contains("regions")) << r.err;
    std::map<std::string, nlohmann::json> regions;
    for (const auto& region : j["regions"])
        regions[region["name"].get<std::string>()] = region;
    ASSERT_TRUE(regions.count("small") && regions.count("large")) << j["regions"].dump();
    EXPECT_EQ(regions["small"]["count"], 3);
    EXPECT_EQ(regions["large"]["count"], 3);
    EXPECT_EQ(regions["large"]["source"], "sim");
    const double small = regions["small"]["counters"]["instructions"].get<double>();
    const double large = regions["large"]["counters"]["instructions"].get<double>();
    // Three entries of 100000 and of 1000000 loop iterations, several instructions each.
    EXPECT_GT(small, 3 * 100000.0);
    EXPECT_NEAR(large / small, 10.0, 0.2) << "small " << small << " large " << large;
    // The regions are part of the whole command's count.
    EXPECT_LT(small + large, j["events"][0]["value"].get<double>());

    // Counted by perf, there is nothing simulated per region.
    const auto perf = perfgauge({"stat", "--backend", "perf", "-e", "task-clock", "--format",
                                 "json", "--", PERFGAUGE_SESSION_REGIONS_PATH});
    ASSERT_EQ(perf.exit_code, 0) << perf.err;
    EXPECT_FALSE(nlohmann::json::parse(perf.err).contains("regions")) << perf.err;
}

}  // namespace
}  // namespace perfgauge::test
