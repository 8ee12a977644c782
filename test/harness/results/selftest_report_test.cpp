// perfgauge selftest's reports from plain data (no process, no PMU): the table and its counter
// section, the JSON with the counter checks, and selftest --counters' lines and JSON.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <limits>
#include <stdexcept>
#include <string>

#include "../../support/text.hpp"
#include "perfgauge/harness/selftest_report.hpp"

namespace perfgauge::harness {
namespace {

using test::contains;

CorrectionCheck passing_check() {
    CorrectionCheck check;
    CorrectionRow row;
    row.k = 1;
    row.reference_ns = 5;
    row.raw_ns = 30;
    row.corrected_ns = 5.5;
    row.error_ns = 0.5;
    row.pairs = 20;
    check.rows = {row};
    return check;
}

std::vector<CounterCheck> counter_checks() {
    return {{"instructions", CheckVerdict::pass, 3.0, 3.0, "instructions per iteration",
             "3 n + 39 exactly"},
            unavailable_check("cycles", "no hardware PMU")};
}

TEST(SelftestReport, CounterChecksOneLineEachAndTheirJson) {
    const std::string text = render_counter_checks(counter_checks(), OutputFormat::table);
    EXPECT_EQ(text,
              "perfgauge selftest --counters (loops of known work, counted)\n\n"
              "pass        instructions: 3 n + 39 exactly\n"
              "unavailable cycles: no hardware PMU\n");
    const auto j =
        nlohmann::json::parse(render_counter_checks(counter_checks(), OutputFormat::json));
    EXPECT_EQ(j["schema_version"], 1);
    EXPECT_EQ(j["checks"][1]["verdict"], "unavailable");
    EXPECT_TRUE(j["checks"][1]["measured"].is_null());
    EXPECT_EQ(j["checks"][0]["expected"], 3.0);
    EXPECT_THROW(render_counter_checks(counter_checks(), OutputFormat::markdown),
                 std::invalid_argument);
}

SelftestSummary summary() {
    SelftestSummary s;
    s.depth = "quick";
    s.runs = 4;
    s.base_operations = 1000;
    s.changes_pct = {5, 20};
    s.power = 0.95;
    s.min_change = 0.01;
    s.in_turn.figures.false_positives = {1, 20};
    s.in_turn.figures.power = {{5, {18, 20}}, {20, {20, 20}}};
    s.in_turn.figures.smallest_change_pct = 20;
    s.in_turn.trials.methods = {"paired"};
    s.correction = passing_check();
    s.verdict = "this machine resolves 20% changes measured in turn";
    s.counter_checks = counter_checks();
    return s;
}

TEST(SelftestReport, TableThenCounterChecksAndJsonWithThem) {
    const SelftestSummary s = summary();
    const std::string text = render_selftest(s, OutputFormat::table);
    EXPECT_TRUE(contains(text, "perfgauge selftest (quick: 4 runs of a chain of 1000")) << text;
    EXPECT_TRUE(contains(text, "A/A called different")) << text;
    EXPECT_TRUE(contains(text, "+5% found (slower)")) << text;
    EXPECT_TRUE(contains(text, "18/20")) << text;
    EXPECT_TRUE(contains(text, "methods: in turn paired, across runs -")) << text;
    EXPECT_TRUE(contains(text, "correction check (seed 000, short, no counters")) << text;
    EXPECT_TRUE(contains(text,
                         "\nthis machine resolves 20% changes measured in turn\n\n"
                         "counter checks (perfgauge selftest --counters: these alone):\n"
                         "pass        instructions: 3 n + 39 exactly\n"))
        << text;
    const auto j = nlohmann::json::parse(render_selftest(s, OutputFormat::json));
    EXPECT_EQ(j["depth"], "quick");
    EXPECT_EQ(j["in_turn"]["aa_false_positives"]["hits"], 1);
    EXPECT_EQ(j["in_turn"]["smallest_change_pct"], 20.0);
    EXPECT_TRUE(j["stat_side_by_side"]["stopped_early"].is_null());
    EXPECT_EQ(j["counter_checks"].size(), 2u);
    EXPECT_EQ(j["correction_check"]["pass"], true);

    SelftestSummary unavailable = s;
    unavailable.counters_unavailable = "no PMU here";
    EXPECT_TRUE(contains(render_selftest(unavailable, OutputFormat::table),
                         "counter checks: unavailable, no hardware event opens here: no PMU here "
                         "(perfgauge selftest --counters: each check)\n"));
    EXPECT_THROW(render_selftest(s, OutputFormat::bmf), std::invalid_argument);
}

}  // namespace
}  // namespace perfgauge::harness
