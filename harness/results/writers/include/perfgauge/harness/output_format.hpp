// The formats every result can be written in.
#pragma once

#include <string>

namespace perfgauge::harness {

enum class OutputFormat { table, csv, json, markdown };

/// "table", "csv", "json", "md"/"markdown"; throws std::invalid_argument naming the choices.
OutputFormat parse_output_format(const std::string& text);

}  // namespace perfgauge::harness
