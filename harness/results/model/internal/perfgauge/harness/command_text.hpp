// A measured command line as results name it: a stat result's benchmark, the side-by-side
// labels and every stat report.
#pragma once

#include <string>
#include <vector>

namespace perfgauge::harness::detail {

/// The command line as one text: its words joined by spaces.
std::string command_text(const std::vector<std::string>& command);

}  // namespace perfgauge::harness::detail
