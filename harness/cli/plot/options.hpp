// perfgauge plot's command line: the options, their help, and the one place they become a
// PlotRequest (validated there, before Python is looked for: the result readable, the picture's
// path and type).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace perfgauge::cli {

struct PlotRequest {
    std::string result;                   ///< the result file, readable
    std::string output;                   ///< FILE.png or FILE.svg, checked writable
    std::optional<std::string> counters;  ///< --counters as given, for the script
};

/// The request `args` (everything after "plot") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options, an unreadable result or a bad output path.
std::optional<PlotRequest> parse_plot_request(const std::vector<std::string>& args);

/// -o's value when it names a picture (.png or .svg); UsageError when absent or another type.
/// Shared by `plot` and `history plot`.
std::string picture_output(const std::optional<std::string>& output);

}  // namespace perfgauge::cli
