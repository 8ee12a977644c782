// perfgauge calibrate's report from plain data (no clock): the table's verdict, the JSON's pass
// flags and nulls, and the formats it does not have refused.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <limits>
#include <stdexcept>
#include <string>

#include "../../support/text.hpp"
#include "perfgauge/harness/calibration_report.hpp"

namespace perfgauge::harness {
namespace {

using test::contains;

Calibration calibration() {
    Calibration c;
    ClockCalibration clock;
    clock.name = "tsc";
    clock.overhead_ns = 21.5;
    clock.steps.granularity_ns = 10;
    clock.steps.exact = true;
    clock.steps.common = {{10, 0.75}, {20, 0.25}};
    clock.nominal_ghz = 2.5;
    c.clocks = {clock};
    c.snapshot_read_ns = 950;
    c.samples = 100;
    return c;
}

CorrectionCheck sweep(double error_ns, std::size_t pairs) {
    CorrectionCheck check;
    CorrectionRow row;
    row.k = 1;
    row.reference_ns = 5;
    row.raw_ns = 30;
    row.corrected_ns = 5 + error_ns;
    row.error_ns = error_ns;
    row.pairs = pairs;
    check.rows = {row};
    return check;
}

TEST(CalibrationReport, TableSaysTheVerdictAndJsonThePassFlags) {
    const std::vector<CorrectionCheck> good = {sweep(0.5, 20)};
    const std::string table = render_calibration(calibration(), good, OutputFormat::table);
    EXPECT_TRUE(contains(table, "tsc")) << table;
    EXPECT_TRUE(contains(table, "10.0 ns 75.0%, 20.0 ns 25.0%; same value 0%")) << table;
    EXPECT_TRUE(contains(table, "rdpmc of hardware counters: unavailable")) << table;
    EXPECT_TRUE(contains(table, "correction holds: 1 of 1 rows")) << table;
    const auto j =
        nlohmann::json::parse(render_calibration(calibration(), good, OutputFormat::json));
    EXPECT_EQ(j["correction"]["pass"], true);
    EXPECT_EQ(j["correction"]["checks"][0]["rows"][0]["k"], 1);
    EXPECT_TRUE(j["snapshot_rdpmc_ns"].is_null());
    EXPECT_EQ(j["schema_version"], 1);

    const std::vector<CorrectionCheck> bad = {sweep(3, 20)};
    EXPECT_TRUE(contains(render_calibration(calibration(), bad, OutputFormat::table),
                         "CORRECTION OFF TARGET: 0 of 1 rows"));
    // No pair: not checked, which is not a failed correction, and its errors are null.
    std::vector<CorrectionCheck> none = {sweep(std::numeric_limits<double>::quiet_NaN(), 0)};
    EXPECT_TRUE(contains(render_calibration(calibration(), none, OutputFormat::table),
                         "correction not fully checked: 0 of 1 rows"));
    const auto unchecked =
        nlohmann::json::parse(render_calibration(calibration(), none, OutputFormat::json));
    EXPECT_TRUE(unchecked["correction"]["checks"][0]["rows"][0]["error_ns"].is_null());
    EXPECT_THROW(render_calibration(calibration(), good, OutputFormat::csv), std::invalid_argument);
}

}  // namespace
}  // namespace perfgauge::harness
