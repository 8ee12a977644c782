// End-to-end: `perfgauge selftest --counters`. One line per check, the JSON's `checks`, exit 0
// whatever the checks find and 2 for bad options. Where no hardware event opens (this x86 VM)
// every check says unavailable with the kernel's reason; the arm64 guest requires the passes
// (scripts/arm64/check_suite.py).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

// The checks' names and order are counter_checks.hpp's (CounterChecks.EveryCheckIsReportedInOrder).
constexpr std::size_t kChecks = 7;

TEST(CliSelftestCounters, OneLinePerCheckAndTheirJson) {
    TempDir dir;
    const auto json_path = dir.path() / "counters.json";
    const auto r = perfgauge({"selftest", "--counters", "--json", json_path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(read_file(json_path));
    ASSERT_EQ(j["checks"].size(), kChecks);
    EXPECT_EQ(j["schema_version"], 1);
    bool hardware = false;
    for (const auto& c : j["checks"]) {
        const std::string name = c["name"];
        const std::string verdict = c["verdict"];
        EXPECT_TRUE(verdict == "pass" || verdict == "fail" || verdict == "unavailable") << verdict;
        hardware = hardware || verdict != "unavailable";
        for (const char* key : {"measured", "expected", "unit", "detail"})
            EXPECT_TRUE(c.contains(key)) << name << " " << key;
        // The line: the verdict first, then the check's name and what was found.
        const std::string line = verdict + std::string(12 - verdict.size(), ' ') + name + ": " +
                                 c["detail"].get<std::string>();
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    }
    if (!hardware) {
        // No PMU: every check unavailable, with the kernel's refusal of its event.
        for (const auto& c : j["checks"]) {
            EXPECT_TRUE(c["measured"].is_null());
            EXPECT_NE(c["detail"].get<std::string>().find("not supported"), std::string::npos)
                << c["detail"];
        }
    }
}

TEST(CliSelftestCounters, BadOptionsAreExit2BeforeAnyWork) {
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"selftest", "--counters", "--quick"},
                                               {"selftest", "--counters", "--runs", "4"},
                                               {"selftest", "--counters", "--json", ""},
                                               {"selftest", "--counters", "--counters-typo"}}) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    const auto r = perfgauge({"selftest", "--counters", "--thorough"});
    EXPECT_NE(r.err.find("--counters runs the counter checks alone"), std::string::npos) << r.err;
}

TEST(CliSelftestCounters, HelpSaysWhatItChecks) {
    const auto r = perfgauge({"selftest", "--help"});
    ASSERT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("perfgauge selftest --counters [--json FILE]"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("user-space"), std::string::npos);
}

}  // namespace
}  // namespace perfgauge::test
