#include "perfgauge/harness/text_table.hpp"

#include <gtest/gtest.h>

namespace perfgauge::harness {
namespace {

TextTable sample() {
    TextTable t({"name", "value"}, {TextTable::Align::left, TextTable::Align::right});
    t.add_row({"plain", "1"});
    t.add_row({"a,b \"quoted\"", "22"});
    t.add_row({"pipe|cell"});  // a missing cell renders empty
    return t;
}

TEST(TextTable, ConsoleAlignsColumns) {
    EXPECT_EQ(sample().render(),
              "name          value\n"
              "plain             1\n"
              "a,b \"quoted\"     22\n"
              "pipe|cell\n");
}

TEST(TextTable, CsvQuotesOnlyWhatNeedsIt) {
    EXPECT_EQ(sample().render_csv(),
              "name,value\n"
              "plain,1\n"
              "\"a,b \"\"quoted\"\"\",22\n"
              "pipe|cell,\n");
    EXPECT_EQ(csv_field("line\nbreak"), "\"line\nbreak\"");
}

TEST(TextTable, MarkdownEscapesPipesAndAlignsNumbersRight) {
    EXPECT_EQ(sample().render_markdown(),
              "| name | value |\n"
              "|---|---:|\n"
              "| plain | 1 |\n"
              "| a,b \"quoted\" | 22 |\n"
              "| pipe\\|cell |  |\n");
}

TEST(TextTable, MarkdownKeepsARowWithALineBreakOnOneLine) {
    TextTable t({"name"});
    t.add_row({"two\nlines\r"});
    EXPECT_EQ(t.render_markdown(), "| name |\n|---|\n| two lines  |\n");
}

TEST(TextTable, CsvColumnsSplitsAHeader) {
    EXPECT_EQ(csv_columns("a,b,,c"), (std::vector<std::string>{"a", "b", "", "c"}));
    EXPECT_TRUE(csv_columns("").empty());
}

}  // namespace
}  // namespace perfgauge::harness
