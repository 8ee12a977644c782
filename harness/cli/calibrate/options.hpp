// perfgauge calibrate's command line: the options, their help, and the one place they become a
// CalibrateRequest (validated there, before the seconds of measuring: format, output path,
// sample count, and the event list resolved).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::cli {

struct CalibrateRequest {
    /// --format: table or json.
    harness::OutputFormat format = harness::OutputFormat::table;
    std::string output;       ///< -o; "": stdout
    std::size_t samples = 0;  ///< clock and snapshot samples, 100 to 100000000
    std::string events;       ///< the second sweep's counters, resolved once already
    bool quick = false;       ///< 5 samples per side, no precision target, 5 ms warm-up
    bool quiet = false;       ///< -q: no progress line on a terminal
};

/// The request `args` (everything after "calibrate") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options, values or output paths; pmu::EventError (exit 2) for
/// an event that does not resolve.
std::optional<CalibrateRequest> parse_calibrate_request(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
