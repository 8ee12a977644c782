// perfgauge history check (docs/cli/history.md).
#pragma once

#include <string>
#include <vector>

namespace perfgauge::cli {

/// `history check ARGS...`: exit 3 when a regression stands in a checked series.
int history_check(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
