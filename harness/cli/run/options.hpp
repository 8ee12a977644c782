// perfgauge run's command line: the options, their help, and the one place they become a
// harness::RunRequest (validated there: unknown names with "did you mean", sizes, bounds,
// output paths, --against's rules; repeats in a selection folded with a note).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/cli_common.hpp"
#include "perfgauge/harness/child_request.hpp"
#include "perfgauge/harness/run_request.hpp"

namespace perfgauge::cli {

/// What `perfgauge run` was started for: the user's run, or a child of one (a measuring process
/// or the simulation child), handed its request by its parent.
using RunCall = std::variant<harness::RunRequest, harness::ChildRequest>;

/// The request `args` (everything after "run") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options, names, values, output paths or a child's request.
std::optional<RunCall> parse_run_request(const std::vector<std::string>& args);

/// A size option ("64K", "1M"); throws UsageError naming `option` when it is not one.
std::uint64_t size_option(const std::string& text, const char* option);

}  // namespace perfgauge::cli
