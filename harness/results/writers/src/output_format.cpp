#include "perfgauge/harness/output_format.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace perfgauge::harness {

OutputFormat parse_output_format(const std::string& text) {
    if (text == "table")
        return OutputFormat::table;
    if (text == "csv")
        return OutputFormat::csv;
    if (text == "json")
        return OutputFormat::json;
    if (text == "md" || text == "markdown")
        return OutputFormat::markdown;
    throw std::invalid_argument(
        fmt::format("unknown format '{}': choose table, csv, json or md", text));
}

}  // namespace perfgauge::harness
