// What every history subcommand shares: opening the store its --db names, picking the series
// a pattern and a metric select, and the short forms runs are printed in.
#pragma once

#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "history_options.hpp"
#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/history_store.hpp"

namespace perfgauge::cli {

/// Whether a store location names a server rather than a SQLite file.
bool on_a_server(const std::string& location);

/// UsageError when `output` (an -o) names the SQLite store being read: it would replace it.
void refuse_output_over_store(const std::string& output, const HistoryLocation& store);

/// Only `add` creates a SQLite store: reading one that is not there is a mistyped path.
enum class Create { yes, no };

std::unique_ptr<harness::HistoryStore> open_store(const HistoryLocation& store,
                                                  Create create = Create::no);

/// A commit's first 10 characters, "-" when unknown.
std::string short_commit(const std::string& commit);

/// Each machine class's summary, by class id.
std::map<std::string, std::string> class_summaries(harness::HistoryStore& store);

/// The metric that selects every metric's series.
inline const std::string kEveryMetric;

/// The series whose benchmark matches `re`, of one metric (kEveryMetric: of every metric).
std::vector<harness::SeriesKey> selected_series(harness::HistoryStore& store, const std::regex& re,
                                                const std::string& metric);

/// The matching series of --metric, for show, check and plot; UsageError when none matches.
std::vector<harness::SeriesKey> required_series(harness::HistoryStore& store,
                                                const HistorySeriesRequest& request);

/// The runs' points (median and spread), in order.
std::vector<harness::RunPoint> points(const std::vector<harness::SeriesEntry>& entries);

/// A share as a signed percentage: 0.123 -> "+12.3%".
std::string percent(double share);

}  // namespace perfgauge::cli
