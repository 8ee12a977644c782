#include "perfgauge/harness/output_format.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace perfgauge::harness {

const char* output_format_name(OutputFormat format) {
    switch (format) {
        case OutputFormat::table:
            return "table";
        case OutputFormat::csv:
            return "csv";
        case OutputFormat::json:
            return "json";
        case OutputFormat::markdown:
            return "md";
        case OutputFormat::bmf:
            return "bmf";
        case OutputFormat::answer:
            return "answer";
    }
    return "table";  // not a value of the enum: unreachable from a parsed format
}

namespace {

// "table, csv, json or md".
std::string choices_text(std::span<const OutputFormat> accepted) {
    std::string text;
    for (std::size_t i = 0; i < accepted.size(); ++i) {
        if (i > 0)
            text += i + 1 == accepted.size() ? " or " : ", ";
        text += output_format_name(accepted[i]);
    }
    return text;
}

}  // namespace

OutputFormat parse_output_format(std::string_view text, std::span<const OutputFormat> accepted) {
    const auto found = std::find_if(accepted.begin(), accepted.end(), [text](OutputFormat f) {
        return text == output_format_name(f) || (f == OutputFormat::markdown && text == "markdown");
    });
    if (found != accepted.end())
        return *found;
    throw std::invalid_argument(
        fmt::format("unknown format '{}': choose {}", text, choices_text(accepted)));
}

void no_writer(std::string_view report, OutputFormat format) {
    throw std::invalid_argument(
        fmt::format("{} has no {} format", report, output_format_name(format)));
}

}  // namespace perfgauge::harness
