// perfgauge export's command line: the options, their help, and the one place they become an
// ExportRequest (validated there, before the result is read: format, --filter, output path).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/user_pattern.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::cli {

struct ExportRequest {
    std::string path;  ///< the result file
    /// table, csv, json, markdown (a run result re-rendered) or bmf (Bencher Metric Format,
    /// from a result of any kind).
    harness::OutputFormat format = harness::OutputFormat::table;
    std::string format_name;            ///< --format as given, for messages
    std::optional<UserPattern> filter;  ///< only benchmarks whose name matches
    std::string output;                 ///< -o; "": stdout
};

/// The request `args` (everything after "export") make; nullopt after printing --help.
/// UsageError (exit 2) for bad options, patterns or output paths.
std::optional<ExportRequest> parse_export_request(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
