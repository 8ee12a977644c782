// The formats, a closed set: one parser names each command's choices, and every report either
// writes a format or says it has no writer for it.
#include "perfgauge/harness/output_format.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "perfgauge/harness/bmf.hpp"
#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/session_report.hpp"
#include "perfgauge/harness/stat_report.hpp"

namespace perfgauge::harness {
namespace {

std::string parse_error(const std::string& text, std::span<const OutputFormat> accepted) {
    try {
        parse_output_format(text, accepted);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

TEST(OutputFormat, EveryNameParsesBackToItsFormat) {
    const OutputFormat all[] = {OutputFormat::table,    OutputFormat::csv, OutputFormat::json,
                                OutputFormat::markdown, OutputFormat::bmf, OutputFormat::answer};
    for (const OutputFormat f : all)
        EXPECT_EQ(parse_output_format(output_format_name(f), all), f) << output_format_name(f);
    EXPECT_EQ(parse_output_format("markdown", all), OutputFormat::markdown);
    EXPECT_STREQ(output_format_name(OutputFormat::markdown), "md");
}

TEST(OutputFormat, NamesTheChoicesInTheCommandsOrder) {
    // Each command's message as it was before the formats were one enum.
    EXPECT_EQ(parse_error("xml", kResultFormats),
              "unknown format 'xml': choose table, csv, json or md");
    const OutputFormat stat[] = {OutputFormat::answer, OutputFormat::table, OutputFormat::csv,
                                 OutputFormat::json, OutputFormat::markdown};
    EXPECT_EQ(parse_error("xml", stat),
              "unknown format 'xml': choose answer, table, csv, json or md");
    const OutputFormat exports[] = {OutputFormat::table, OutputFormat::csv, OutputFormat::json,
                                    OutputFormat::markdown, OutputFormat::bmf};
    EXPECT_EQ(parse_error("answer", exports),
              "unknown format 'answer': choose table, csv, json, md or bmf");
    const OutputFormat one[] = {OutputFormat::json};
    EXPECT_EQ(parse_error("table", one), "unknown format 'table': choose json");
}

TEST(OutputFormat, OnlyTheAcceptedOnes) {
    EXPECT_THROW(parse_output_format("bmf"), std::invalid_argument);
    EXPECT_THROW(parse_output_format("answer"), std::invalid_argument);
    EXPECT_THROW(
        parse_output_format("markdown", std::span<const OutputFormat>(kResultFormats.begin(), 3)),
        std::invalid_argument);
    EXPECT_THROW(parse_output_format(""), std::invalid_argument);
    EXPECT_THROW(parse_output_format("MD"), std::invalid_argument);
}

TEST(OutputFormat, EachReportWritesItsFormatsOrSaysItHasNoWriter) {
    RunResult run;
    EXPECT_EQ(render_run(run, OutputFormat::bmf), render_bmf(run));
    EXPECT_THROW(render_run(run, OutputFormat::answer), std::invalid_argument);
    StatResult stat;
    EXPECT_EQ(render_stat(stat, OutputFormat::answer), render_stat(stat, OutputFormat::table));
    EXPECT_THROW(render_stat(stat, OutputFormat::bmf), std::invalid_argument);
    Comparison comparison;
    EXPECT_THROW(render_comparison(comparison, OutputFormat::bmf), std::invalid_argument);
    EXPECT_THROW(render_comparison(comparison, OutputFormat::answer), std::invalid_argument);
    SessionReport session;
    EXPECT_THROW(render_session_report(session, OutputFormat::answer), std::invalid_argument);
    try {
        render_comparison(comparison, OutputFormat::bmf);
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "a comparison has no bmf format");
    }
}

}  // namespace
}  // namespace perfgauge::harness
