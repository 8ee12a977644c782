// perfgauge selftest's command line: the options, their help, and the one place they become a
// SelftestRequest (validated there: one depth at most, --runs' bounds, --json's path).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/selftest.hpp"

namespace perfgauge::cli {

struct SelftestRequest {
    harness::SelftestDepth depth = harness::SelftestDepth::standard;
    std::optional<std::size_t> runs;  ///< instead of the depth's
    std::string json_path;            ///< "": no JSON
    bool quiet = false;               ///< -q: no progress line on a terminal
    bool counters_only = false;       ///< --counters: the counter checks alone
    /// This perfgauge is one of a selftest's child processes (the hidden --internal-job): it
    /// does this and nothing else.
    std::optional<harness::ChainJob> child_job;
};

/// The request `args` (everything after "selftest") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options, values or output paths.
std::optional<SelftestRequest> parse_selftest_request(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
