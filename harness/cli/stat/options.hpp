// perfgauge stat's command line: the options, their help, and the one place they become a
// harness::StatRequest (validated, with the messages and exit statuses of bad input).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/stat_request.hpp"

namespace perfgauge::cli {

/// The request `args` (everything after "stat") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options, values, commands or output paths.
std::optional<harness::StatRequest> parse_stat_request(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
