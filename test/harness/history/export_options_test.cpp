// history export's --format: the one format parser (csv and json accepted), with the error
// message export always gave for another value, word for word.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/cli_common.hpp"
#include "history/options.hpp"

namespace perfgauge::cli {
namespace {

using harness::OutputFormat;

std::string usage_error(const std::vector<std::string>& args) {
    try {
        parse_history_export(args);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "(accepted)";
}

TEST(HistoryExportOptions, CsvByDefaultAndJsonOnRequest) {
    EXPECT_EQ(parse_history_export({})->format, OutputFormat::csv);
    EXPECT_EQ(parse_history_export({"--format", "csv"})->format, OutputFormat::csv);
    EXPECT_EQ(parse_history_export({"--format=json"})->format, OutputFormat::json);
}

TEST(HistoryExportOptions, AnotherFormatKeepsExportsOwnMessage) {
    EXPECT_EQ(usage_error({"--format", "xml"}), "--format xml: expected csv or json");
    // Formats other commands take, and other spellings, are refused alike.
    for (const std::string format : {"table", "md", "markdown", "bmf", "answer", "CSV", ""})
        EXPECT_EQ(usage_error({"--format", format}),
                  "--format " + format + ": expected csv or json");
}

TEST(HistoryExportOptions, TheFormatIsJudgedBeforeTheOtherOptions) {
    EXPECT_EQ(usage_error({"--format", "xml", "-o", "-", "a", "b"}),
              "--format xml: expected csv or json");
}

}  // namespace
}  // namespace perfgauge::cli
