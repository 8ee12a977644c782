#include <gtest/gtest.h>

#include <string>

#include "perfgauge/harness/simulation.hpp"

namespace perfgauge::harness {
namespace {

// A dump as callgrind writes it, with `ir` instructions since the previous one.
pmu::CallgrindDump dump(std::uint64_t pid, std::uint64_t part, const std::string& trigger,
                        std::uint64_t ir) {
    return pmu::parse_callgrind_dump(
        "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: " + std::to_string(pid) +
        "\ncmd: ./a\npart: " + std::to_string(part) + "\n\ndesc: Trigger: " + trigger +
        "\n\npositions: line\nevents: Ir\nsummary: " + std::to_string(ir) + "\n");
}

TEST(SimulatedRegions, DumpsBelongToTheRegionsOpenUntilTheirBoundary) {
    const std::string enter = "Client Request: perfgauge-region:enter:";
    const std::string leave = "Client Request: perfgauge-region:leave:";
    // Given out of order: they are put in order by process and part.
    const std::vector<pmu::CallgrindDump> dumps = {
        dump(7, 4, leave + "outer", 5),     // the rest of outer
        dump(7, 1, enter + "outer", 1000),  // before any region
        dump(7, 3, leave + "inner", 30),    // inner (and outer)
        dump(7, 2, enter + "inner", 10),    // outer only
        dump(7, 5, enter + "inner", 2000),  // no region open
        dump(7, 6, leave + "inner", 7),     // inner alone
        dump(7, 7, "Program termination", 50),
        dump(9, 1, enter + "outer", 1),  // another process: its own stack
        dump(9, 2, leave + "outer", 100),
    };
    const auto regions = simulated_regions(dumps, {"instructions"});
    ASSERT_EQ(regions.size(), 2u);
    EXPECT_EQ(regions[0].name, "outer");
    EXPECT_EQ(regions[0].count, 2u);
    EXPECT_EQ(regions[0].counters.at(0).first, "instructions");
    EXPECT_EQ(regions[0].counters.at(0).second, 10 + 30 + 5 + 100);
    EXPECT_EQ(regions[1].name, "inner");
    EXPECT_EQ(regions[1].count, 2u);
    EXPECT_EQ(regions[1].counters.at(0).second, 30 + 7);
}

TEST(SimulatedRegions, NoRegionDumpsNoRegions) {
    EXPECT_TRUE(
        simulated_regions({dump(1, 0, "Program termination", 9)}, {"instructions"}).empty());
}

}  // namespace
}  // namespace perfgauge::harness
