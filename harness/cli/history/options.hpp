// perfgauge history's command line: each subcommand's options, their help, and the one place
// they become that subcommand's request. What can be checked without the store is checked
// here; a REGEX is checked where it was before (before the store is opened by compare and
// export, after it by show, check and plot), so that a command line with two mistakes still
// names the one it always named.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/user_pattern.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/store_location.hpp"

namespace perfgauge::cli {

/// The store a subcommand reads or writes: --db, else $PERFGAUGE_DB, else the default path
/// (harness::history_location_text), parsed once when the options are, report's too
/// (harness::parse_store_location: a bad one is a UsageError naming --db, $PERFGAUGE_DB or the
/// default location, and the accepted forms); the typed value is what every later step takes.
using HistoryLocation = harness::StoreLocation;

struct HistoryAddRequest {
    HistoryLocation store;
    std::vector<std::string> results;   ///< the result files, at least one
    std::optional<std::string> commit;  ///< --commit; none: the git HEAD of the current directory
    std::vector<std::pair<std::string, std::string>> labels;  ///< --label K=V, in order
    bool quiet = false;  ///< -q: no progress line on a terminal
};

struct HistoryListRequest {
    HistoryLocation store;
};

/// show and check: the series of one metric whose benchmark matches a pattern.
struct HistorySeriesRequest {
    HistoryLocation store;
    std::vector<std::string> patterns;  ///< REGEX as given (history_pattern)
    std::string metric;
};

/// check: the gate over every matching series, of the metrics asked (every stored one when
/// none is named).
struct HistoryCheckRequest {
    HistoryLocation store;
    std::vector<std::string> patterns;    ///< REGEX as given (history_pattern)
    std::vector<std::string> metrics;     ///< --metric, repeatable; empty: every metric
    std::optional<double> min_change;     ///< --min-change PCT / 100; none: per-metric default
    std::optional<std::string> since;     ///< --since REV: a commit prefix
    double expected_false_alarms = 0.05;  ///< --false-alarms: the whole check's bound
};

struct HistoryPlotRequest {
    HistorySeriesRequest series;
    std::string output;  ///< FILE.png or FILE.svg, checked writable
};

struct HistoryCompareRequest {
    HistoryLocation store;
    UserPattern pattern;
    std::string metric;
    std::string commit;                    ///< a prefix; "": every run
    std::optional<std::string> reference;  ///< the reference class as the user named it
};

struct HistoryExportRequest {
    HistoryLocation store;
    harness::OutputFormat format = harness::OutputFormat::csv;  ///< csv or json
    UserPattern pattern;
    std::string output;  ///< -o; "": stdout
};

/// accept: from the first run of REVISION on, the matching series have a new baseline.
struct HistoryAcceptRequest {
    HistoryLocation store;
    std::string revision;              ///< a prefix of exactly one stored commit
    std::string pattern;               ///< REGEX as given, checked; "": every benchmark
    std::vector<std::string> metrics;  ///< --metric, repeatable; empty: every metric
    std::string reason;                ///< --reason, not empty
};

/// report: one static page, DIR/index.html, of the matching series.
struct HistoryReportRequest {
    HistoryLocation store;
    std::vector<std::string> patterns;  ///< REGEX as given (history_pattern)
    std::string dir;                    ///< -o DIR, not empty
};

struct HistoryForgetRequest {
    HistoryLocation store;
    std::vector<std::int64_t> runs;  ///< positive run ids
};

/// Each subcommand's request from `args` (everything after its name); nullopt after printing
/// its --help. UsageError (exit 2) for bad options, values or output paths.
std::optional<HistoryAddRequest> parse_history_add(const std::vector<std::string>& args);
std::optional<HistoryListRequest> parse_history_list(const std::vector<std::string>& args);
std::optional<HistorySeriesRequest> parse_history_show(const std::vector<std::string>& args);
std::optional<HistoryCheckRequest> parse_history_check(const std::vector<std::string>& args);
std::optional<HistoryPlotRequest> parse_history_plot(const std::vector<std::string>& args);
std::optional<HistoryCompareRequest> parse_history_compare(const std::vector<std::string>& args);
std::optional<HistoryExportRequest> parse_history_export(const std::vector<std::string>& args);
std::optional<HistoryForgetRequest> parse_history_forget(const std::vector<std::string>& args);
std::optional<HistoryAcceptRequest> parse_history_accept(const std::vector<std::string>& args);
std::optional<HistoryReportRequest> parse_history_report(const std::vector<std::string>& args);

/// The one REGEX among `patterns` (one matching every name when none), through the one
/// matcher (RE2, linear time); UsageError for more than one or for one that is not valid.
UserPattern history_pattern(const std::vector<std::string>& patterns);

}  // namespace perfgauge::cli
