// End-to-end: `perfgauge calibrate` (structure only: timings are not asserted in unit tests).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "../support/cli.hpp"

namespace perfgauge::test {
namespace {

TEST(CliCalibrate, JsonHasTheDocumentedKeys) {
    const auto r = perfgauge({"calibrate", "--format", "json", "--samples", "2000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key :
         {"clock", "clock_overhead_ns", "clock_resolution_ns", "empty_region_residual_ns",
          "snapshot_read_ns", "snapshot_rdpmc_ns", "clocks"}) {
        EXPECT_TRUE(j.contains(key)) << key << "\n" << r.out;
    }
    EXPECT_GT(j["clock_overhead_ns"].get<double>(), 0.0);
    EXPECT_TRUE(std::isfinite(j["empty_region_residual_ns"].get<double>()));
    EXPECT_GT(j["snapshot_read_ns"].get<double>(), 0.0) << "software counters open here";
    if (!hardware_pmu_present()) {
        EXPECT_TRUE(j["snapshot_rdpmc_ns"].is_null());
    }
}

TEST(CliCalibrate, TableAndBadOptions) {
    const auto r = perfgauge({"calibrate", "--samples", "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("empty region with"), std::string::npos) << r.out;
    EXPECT_EQ(perfgauge({"calibrate", "--samples", "5"}).exit_code, 2);
    EXPECT_EQ(perfgauge({"calibrate", "--format", "xml"}).exit_code, 2);
}

}  // namespace
}  // namespace perfgauge::test
