// history's texts (results' writers) from plain data, without a store: the words and numbers
// the end-to-end tests read through the binary, checked at the function that makes them.
#include "perfgauge/harness/history_text.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace perfgauge::harness {
namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(HistoryText, MetricValuesInTheirUnitWithAnSiPrefix) {
    MetricPolicy time;
    time.quantity = MetricPolicy::Quantity::time;
    time.per = "run";
    EXPECT_EQ(format_metric_value(6.91757e7, time), "69.18 ms/run");
    MetricPolicy count;
    count.per = "item";
    EXPECT_EQ(format_metric_value(517860, count), "517.9k/item");
    const auto axis = axis_scale(6.9e7, time);
    EXPECT_EQ(axis.label, "ms per run");
    EXPECT_DOUBLE_EQ(axis.scale, 1e-6);
}

TEST(HistoryText, ListShowsSourceCommandLabelsAndAcceptancesAfterTheRuns) {
    StoredRun r;
    r.id = 7;
    r.commit = "0123456789abcdef";
    r.source = "a.json";
    r.path = "/w/a.json";
    r.command = "./prog arg";
    r.labels = "team=perf";
    const auto without = history_list_text({r}, {});
    EXPECT_TRUE(has(without, "0123456789  ")) << without;  // the commit's first 10 characters
    EXPECT_TRUE(has(without, "/w/a.json (command: ./prog arg), team=perf")) << without;
    EXPECT_FALSE(has(without, "accepted:"));
    const Acceptance a{1, 7, "", "", "", "why", "2026-12-07 10:00:00"};
    const auto with = history_list_text({r}, {a});
    EXPECT_TRUE(has(with, "\naccepted:\n")) << with;
    EXPECT_TRUE(has(with, "-           (every)")) << with;  // no commit: "-"
}

TEST(HistoryText, CompareSaysDashWhereAClassCountedNoInstruction) {
    MachineComparison c;
    c.metric = "time";
    c.classes = {"aaaa", "bbbb"};
    c.summaries = {"A", "B"};
    c.rows = {{"bm", {100, 80}, {0.5, std::nullopt}}};
    c.geometric_means = {1, 0.8};
    const auto text = history_compare_text(c);
    EXPECT_TRUE(has(text, "  M0  aaaa  A  (reference)\n")) << text;
    EXPECT_TRUE(has(text, "     0.800x\n")) << text;
    EXPECT_TRUE(has(text, "  per instruction")) << text;
    EXPECT_TRUE(has(text, "0.5          -\n")) << text;
    EXPECT_TRUE(has(text, "1 benchmark on every class\n")) << text;
    c.left_out = 2;
    EXPECT_TRUE(has(history_compare_text(c), ", 2 left out (not measured on every class)"));
}

TEST(HistoryText, CheckSummaryCountsRegressionsPendingAndUnmeasured) {
    CheckOutcome o;
    o.checked = 3;
    o.unmeasured.push_back({{"bm", "time", "0123456789"}, 4});
    o.pending = 1;
    o.expected_false_alarms = 0.05;
    const auto text = history_check_text(o);
    EXPECT_TRUE(has(text, "bm [time] on 01234567: run 4: no clean sample")) << text;
    EXPECT_TRUE(has(text,
                    "3 series checked, 0 regressions, 1 pending, 1 with no clean sample in "
                    "their latest run, expected false alarms <= 0.05\n"))
        << text;
}

TEST(HistoryText, ExportQuotesCsvTextsAndKeepsEverySample) {
    StoredMeasurement m;
    m.run_id = 1;
    m.benchmark = "a\"b";
    m.metric = "time";
    m.unit = "ns/item";
    m.samples = {1.5, 2};
    const auto csv = history_export_csv({m});
    EXPECT_TRUE(has(csv, "\"a\"\"b\"")) << csv;
    EXPECT_TRUE(has(csv, "\"1.5;2\"\n")) << csv;
    const auto json = history_export_json({m});
    EXPECT_TRUE(has(json, "\"benchmark\": \"a\\\"b\"")) << json;
}

TEST(HistoryText, ExportWritesCsvAndJsonAndNoOtherFormat) {
    StoredMeasurement m;
    m.run_id = 1;
    m.benchmark = "b";
    m.samples = {1};
    EXPECT_EQ(history_export_text({m}, OutputFormat::csv), history_export_csv({m}));
    EXPECT_EQ(history_export_text({m}, OutputFormat::json), history_export_json({m}));
    for (const auto other :
         {OutputFormat::table, OutputFormat::markdown, OutputFormat::bmf, OutputFormat::answer})
        EXPECT_THROW(history_export_text({m}, other), std::invalid_argument);
}

TEST(HistoryText, AcceptedAndForgotLines) {
    const Acceptance a{3, 9, "abcdef0123456", "bm", "", "new compiler", ""};
    EXPECT_EQ(history_accepted_text({a}),
              "acceptance 3: from run 9 (commit abcdef0123) for benchmarks matching 'bm', every "
              "metric: new compiler\n");
    EXPECT_EQ(history_forgot_text(1), "forgot 1 run\n");
    EXPECT_EQ(history_forgot_text(2), "forgot 2 runs\n");
}

}  // namespace
}  // namespace perfgauge::harness
