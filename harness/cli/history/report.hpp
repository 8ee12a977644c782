// perfgauge history report (docs/cli/history.md): the store as a static page.
#pragma once

#include <string>
#include <vector>

namespace perfgauge::cli {

/// `history report -o DIR [REGEX] [--db ...]`: DIR/index.html, the open regressions, the
/// accepted changes and a graph per matching series, with filters; self-contained (no network).
int history_report(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
