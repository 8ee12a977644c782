#include "../../../harness/gbench/src/gbench_flags.hpp"

#include <gtest/gtest.h>

namespace perfgauge::gbench {
namespace {

TEST(GbenchFlags, TakesPerfgaugeFlagsAndKeepsTheRestInOrder) {
    std::vector<std::string> args = {"--benchmark_filter=x", "--perfgauge_events=instructions",
                                     "--own", "--perfgauge_backend=sim",
                                     "--perfgauge_sim_items=500"};
    const auto f = take_perfgauge_flags(args);
    EXPECT_EQ(args, (std::vector<std::string>{"--benchmark_filter=x", "--own"}));
    EXPECT_EQ(f.events, "instructions");
    EXPECT_EQ(f.backend, harness::Backend::sim);
    EXPECT_EQ(f.sim_items, 500u);
    EXPECT_FALSE(f.sim_child_manifest);

    std::vector<std::string> child = {"--internal-sim-child=/tmp/m.json"};
    EXPECT_EQ(take_perfgauge_flags(child).sim_child_manifest, "/tmp/m.json");
    EXPECT_TRUE(child.empty());
}

TEST(GbenchFlags, BadValuesNameTheFlag) {
    std::vector<std::string> backend = {"--perfgauge_backend=fast"};
    EXPECT_THROW(take_perfgauge_flags(backend), std::invalid_argument);
    for (const char* bad :
         {"--perfgauge_sim_items=0", "--perfgauge_sim_items=12x", "--perfgauge_sim_items="}) {
        std::vector<std::string> args = {bad};
        try {
            take_perfgauge_flags(args);
            ADD_FAILURE() << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("--perfgauge_sim_items"), std::string::npos);
        }
    }
}

TEST(GbenchFlags, TheChildKeepsTheSelectionAndRunsByIterationCountOnly) {
    const auto child = simulation_child_arguments(
        {"--benchmark_filter=bmi2", "--benchmark_out=r.json", "--benchmark_out_format=json",
         "--benchmark_repetitions=5", "--benchmark_min_time=2", "--benchmark_format=json",
         "--own=3"});
    EXPECT_EQ(child, (std::vector<std::string>{"--benchmark_filter=bmi2", "--own=3",
                                               "--benchmark_min_time=1000000000",
                                               "--benchmark_repetitions=1"}));
}

TEST(GbenchFlags, FlagValuesAndListing) {
    const std::vector<std::string> args = {"--benchmark_out=a", "--benchmark_out=b"};
    EXPECT_EQ(flag_value(args, "benchmark_out"), "b");
    EXPECT_FALSE(flag_value(args, "benchmark_out_format"));
    EXPECT_FALSE(lists_tests_only(args));
    EXPECT_TRUE(lists_tests_only({"--benchmark_list_tests"}));
    EXPECT_TRUE(lists_tests_only({"--benchmark_list_tests=true"}));
    EXPECT_FALSE(lists_tests_only({"--benchmark_list_tests=false"}));
}

TEST(GbenchFlags, CounterNamesAndThreadShares) {
    EXPECT_EQ(counter_name("branch-misses", false), "BRANCH-MISSES");
    EXPECT_EQ(counter_name("instructions:u", true), "INSTRUCTIONS:U[sim]");
    // Two threads, 1000 items each, 1000 and 1200 events: 1.1 per item in all.
    EXPECT_DOUBLE_EQ(per_item_share(1000, 1000, 2) + per_item_share(1200, 1000, 2), 1.1);
    EXPECT_EQ(per_item_share(5, 0, 1), 0);
}

}  // namespace
}  // namespace perfgauge::gbench
