// perfgauge compare's request: the result files (or one file and two of its variants or
// commands), the thresholds, and where the comparison goes. Built once by harness/cli from the
// options (cli/compare/options.cpp); nothing below it sees an option name. Header only: the
// commands that only read results include it without linking the request library.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

/// One file and two of its variants (or, in a side-by-side stat result, two of its commands).
struct CompareWithin {
    std::string baseline, contender;  ///< different names

    bool operator==(const CompareWithin&) const = default;
};

struct CompareRequest {
    /// As given: two (baseline, contender), each a path or runs joined with commas; one with
    /// `within`.
    std::vector<std::string> files;
    std::optional<CompareWithin> within;
    CompareOptions options;
    /// Exit 3 when a benchmark is slower by more than this, in % (0 or more).
    std::optional<double> fail_on_regression_percent;
    OutputFormat format = OutputFormat::table;
    std::string output;  ///< -o; empty: stdout
};

}  // namespace perfgauge::harness
