#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/stat_report.hpp"

namespace perfgauge::harness {
namespace {

StatResult with_regions() {
    StatResult r;
    r.command = {"./a"};
    r.repetitions = 1;
    r.regions = {{"small", 3, {{"instructions", 1.5e6}}}, {"large", 3, {{"instructions", 1.5e7}}}};
    return r;
}

TEST(StatRegions, JsonListsEachRegionLabelledSim) {
    const auto j = nlohmann::json::parse(render_stat(with_regions(), OutputFormat::json));
    ASSERT_EQ(j["regions"].size(), 2u);
    EXPECT_EQ(j["regions"][0]["name"], "small");
    EXPECT_EQ(j["regions"][0]["count"], 3);
    EXPECT_EQ(j["regions"][0]["source"], "sim");
    EXPECT_EQ(j["regions"][1]["counters"]["instructions"].get<double>(), 1.5e7);
    // Without regions the JSON is as before: no key.
    StatResult plain = with_regions();
    plain.regions.clear();
    EXPECT_FALSE(nlohmann::json::parse(render_stat(plain, OutputFormat::json)).contains("regions"));
}

TEST(StatRegions, TableShowsTheRegionsAsSimulated) {
    const std::string text = render_stat(with_regions(), OutputFormat::table);
    EXPECT_NE(text.find("simulated under callgrind [sim]"), std::string::npos) << text;
    EXPECT_NE(text.find("15000000"), std::string::npos) << text;
    EXPECT_NE(render_stat(with_regions(), OutputFormat::markdown).find("| large"),
              std::string::npos);
}

}  // namespace
}  // namespace perfgauge::harness
