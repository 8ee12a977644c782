// perfgauge compare's command line: the options, their help, and the one place they become a
// harness::CompareRequest (validated, with the messages and exit statuses of bad input).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/compare_request.hpp"

namespace perfgauge::cli {

/// The request `args` (everything after "compare") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options, values, file counts or output paths.
std::optional<harness::CompareRequest> parse_compare_request(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
