// End-to-end: `perfgauge calibrate`. Structure, and sanity far outside any timing target: this
// machine is shared, so whether the correction meets its target is measured, not asserted.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

TEST(CliCalibrate, JsonHasClocksAndBothSweeps) {
    const auto r = perfgauge({"calibrate", "--format", "json", "--samples", "2000", "--quick"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("seed experiment"), std::string::npos) << r.err;  // a pipe: no progress
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"clock", "clock_overhead_ns", "clock_granularity_ns",
                            "snapshot_read_ns", "snapshot_rdpmc_ns", "clocks", "correction"}) {
        EXPECT_TRUE(j.contains(key)) << key << "\n" << r.out;
    }
    EXPECT_GT(j["clock_overhead_ns"].get<double>(), 0.0);
    EXPECT_GT(j["snapshot_read_ns"].get<double>(), 0.0) << "software counters open here";
    if (!hardware_pmu_present()) {
        EXPECT_TRUE(j["snapshot_rdpmc_ns"].is_null());
        EXPECT_TRUE(j["snapshot_rdpmc_group"].is_null());  // no group of hardware events opened
    }
    for (const auto& clock : j["clocks"]) {
        EXPECT_GT(clock["granularity_ns"].get<double>(), 0.0) << clock;
        EXPECT_FALSE(clock["steps"].empty()) << clock;
        // The TSC cannot advance by less than one tick: never report 1/frequency as less.
        if (clock["nominal_ghz"].get<double>() > 0) {
            EXPECT_GE(clock["granularity_ns"].get<double>() * clock["nominal_ghz"].get<double>(),
                      0.999)
                << clock;
        }
    }

    const auto& correction = j["correction"];
    ASSERT_EQ(correction["checks"].size(), 2u) << correction;
    EXPECT_EQ(correction["rows"], 12);
    std::size_t passed = 0, unchecked = 0;
    for (const auto& check : correction["checks"]) {
        ASSERT_EQ(check["rows"].size(), 6u) << check;
        EXPECT_GT(check["pause_overhead_ns"].get<double>(), 0.0) << check;
        std::uint64_t k = 0;
        for (const auto& row : check["rows"]) {
            EXPECT_GT(row["k"].get<std::uint64_t>(), k) << row;
            k = row["k"].get<std::uint64_t>();
            for (const char* key : {"reference_ns", "raw_ns", "raw_error_ns", "corrected_ns",
                                    "error_ns", "error_share", "tolerance_ns", "pass", "pairs",
                                    "snapshot_pause_ns", "machine_drift"})
                EXPECT_TRUE(row.contains(key)) << key << "\n" << row;
            // The probe's median over the row against the calibration's: a share, measured
            // wherever a sample was timed, disturbed or not (null only where none was).
            ASSERT_TRUE(row["machine_drift"].is_number()) << row;
            EXPECT_GT(row["machine_drift"].get<double>(), -1.0) << row;
            // task-clock is read with read(): the paused loop is timed apart from its snapshots,
            // and says what they added (a figure with a clean pair); no counters, nothing apart.
            if (check["events"] == "") {
                EXPECT_TRUE(row["snapshot_pause_ns"].is_null()) << row;
            } else if (row["pairs"].get<std::size_t>() > 0) {
                EXPECT_TRUE(row["snapshot_pause_ns"].is_number()) << row;
            }
            if (row["pairs"].get<std::size_t>() == 0) {
                // Every round disturbed on one side (seen under the whole suite with two busy
                // loops, ASan build): nothing checked, nothing passed; a side may have no clean
                // sample at all, and then its median is null too.
                EXPECT_TRUE(row["error_ns"].is_null()) << row;
                EXPECT_FALSE(row["pass"].get<bool>()) << row;
                ++unchecked;
            } else {
                EXPECT_GT(row["reference_ns"].get<double>(), 0.0) << row;
                EXPECT_EQ(row["pass"].get<bool>(), std::abs(row["error_ns"].get<double>()) <=
                                                       row["tolerance_ns"].get<double>())
                    << row;
            }
            passed += row["pass"].get<bool>() ? 1 : 0;
        }
        // 100000 adds take longer than one, by far, on any machine (where both were measured).
        const auto& one = check["rows"][0]["reference_ns"];
        const auto& many = check["rows"][5]["reference_ns"];
        if (one.is_number() && many.is_number()) {
            EXPECT_GT(many.get<double>(), 100 * one.get<double>()) << check;
        }
    }
    EXPECT_EQ(correction["rows_passed"], passed);
    EXPECT_EQ(correction["rows_unchecked"], unchecked);
    EXPECT_EQ(correction["pass"].get<bool>(), passed == 12);

    const auto& none = correction["checks"][0];
    EXPECT_EQ(none["events"], "");
    EXPECT_TRUE(none["counted"].empty());
    const auto& counted = correction["checks"][1];
    EXPECT_EQ(counted["counted"][0], "task-clock") << counted;
    if (!hardware_pmu_present()) {
        EXPECT_EQ(counted["not_counted"].size(), 2u) << "cycles and instructions: " << counted;
    }
}

TEST(CliCalibrate, TableAndBadOptions) {
    const auto r = perfgauge({"calibrate", "--samples", "1000", "--quick", "-e", "task-clock"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* text :
         {"GRANULARITY", "Seed experiment", "with no counters", "with counters task-clock",
          "REFERENCE", "CORRECTED", " of 12 rows", "DRIFT"})
        EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
    // The SNAPSHOTS column exists when some row kept a clean sample, which a loaded machine (or
    // a sanitized binary beside QEMU) may not: then neither it nor its legend is printed.
    EXPECT_EQ(r.out.find("SNAPSHOTS") != std::string::npos,
              r.out.find("a counter snapshot is a system call here") != std::string::npos)
        << r.out;
    EXPECT_EQ(perfgauge({"calibrate", "--samples", "5"}).exit_code, 2);
    EXPECT_EQ(perfgauge({"calibrate", "--format", "xml"}).exit_code, 2);
    EXPECT_EQ(perfgauge({"calibrate", "-e", ""}).exit_code, 2);
    EXPECT_EQ(perfgauge({"calibrate", "-e", "no-such-event", "--quick"}).exit_code, 2);
}

// -o: the report goes to the file, whole, and nothing to stdout; an output path that cannot be
// written is refused before the seconds of measuring, leaving what is there as it was.
TEST(CliCalibrate, WritesItsReportToAFileGivenAsOutput) {
    TempDir dir;
    const auto path = dir.path() / "cal.json";
    const auto r = perfgauge({"calibrate", "--format", "json", "--samples", "1000", "--quick", "-e",
                              "task-clock", "-o", path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "");
    std::stringstream text;
    text << std::ifstream(path).rdbuf();
    const auto j = nlohmann::json::parse(text.str());
    EXPECT_EQ(j["correction"]["checks"].size(), 2u) << text.str();

    const auto table = dir.path() / "cal.txt";
    ASSERT_EQ(perfgauge({"calibrate", "--samples", "1000", "--quick", "-e", "task-clock", "-o",
                         table.string()})
                  .exit_code,
              0);
    std::stringstream rendered;
    rendered << std::ifstream(table).rdbuf();
    EXPECT_NE(rendered.str().find("Seed experiment"), std::string::npos) << rendered.str();

    // "-" is standard output, as for every other -o: nothing named "-" appears where it ran.
    const auto to_stdout = run_process(
        {"/usr/bin/env", "-C", dir.path().string(), PERFGAUGE_CLI_PATH, "calibrate", "--format",
         "json", "--samples", "1000", "--quick", "-e", "task-clock", "-o", "-"});
    ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
    EXPECT_EQ(nlohmann::json::parse(to_stdout.out)["correction"]["checks"].size(), 2u)
        << to_stdout.out;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "-"));

    const auto refused = perfgauge({"calibrate", "--quick", "-o", dir.path().string()});
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_TRUE(std::filesystem::is_directory(dir.path()));
    const auto missing = dir.path() / "no-such-dir" / "cal.json";
    EXPECT_EQ(perfgauge({"calibrate", "--quick", "-o", missing.string()}).exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(missing.parent_path()));
}

}  // namespace
}  // namespace perfgauge::test
