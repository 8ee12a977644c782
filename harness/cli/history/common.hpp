// What every history subcommand shares: opening the store its --db names, picking the series
// a pattern and a metric select, and the short forms runs are printed in.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/options.hpp"
#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/history_store.hpp"

namespace perfgauge::cli {

/// UsageError when `output` (an -o) names the SQLite store being read: it would replace it.
void refuse_output_over_store(const std::string& output, const HistoryLocation& store);

/// What a subcommand does with the store. Only `add` creates a SQLite store: reading or
/// changing one that is not there is a mistyped path. Readers (list, show, check, plot,
/// compare, export) open it read-only and never write to it.
enum class StoreUse { read, write, create };

/// The store, opened for `use`; UsageError for a SQLite path that is missing (but to create)
/// or a directory, and for a store refused for what it holds (harness::StoreRefused).
std::unique_ptr<harness::HistoryStore> open_store(const HistoryLocation& store,
                                                  StoreUse use = StoreUse::read);

/// A commit's first 10 characters, "-" when unknown.
std::string short_commit(const std::string& commit);

/// Each machine class's summary, by class id.
std::map<std::string, std::string> class_summaries(harness::HistoryStore& store);

/// "REGEX 'x' matches no stored series (...)", or that the store holds none when no REGEX is given.
std::string no_series_matches(const UserPattern& pattern);

/// The metric that selects every metric's series.
inline const std::string kEveryMetric;

/// The series whose benchmark `pattern` matches, of one metric (kEveryMetric: of every metric).
std::vector<harness::SeriesKey> selected_series(harness::HistoryStore& store,
                                                const UserPattern& pattern,
                                                const std::string& metric);

/// UsageError unless a series of the benchmarks `pattern` matches stores `metric`: naming the
/// metrics they store (a mistyped --metric), or saying that no series matches at all.
void require_stored_metric(harness::HistoryStore& store, const UserPattern& pattern,
                           const std::string& metric);

/// The matching series of --metric, for show and plot; UsageError (require_stored_metric) when
/// none matches.
std::vector<harness::SeriesKey> required_series(harness::HistoryStore& store,
                                                const HistorySeriesRequest& request);

/// The runs' points (median and spread), in order; a run of one sample has no spread (NaN).
std::vector<harness::RunPoint> points(const std::vector<harness::SeriesEntry>& entries);

/// A share as a signed percentage: 0.123 -> "+12.3%".
std::string percent(double share);

/// Whether the acceptance holds for the series: its pattern ("" every benchmark) matches the
/// benchmark (through UserPattern) and its metric is "" or the series'.
bool acceptance_applies(const harness::Acceptance& a, const harness::SeriesKey& key);

/// The latest acceptance (the one with the highest run id) that applies to the series; nullptr
/// when none does.
const harness::Acceptance* latest_acceptance(const std::vector<harness::Acceptance>& acceptances,
                                             const harness::SeriesKey& key);

/// The index in `entries` (the series' runs, in order) of the first run with an id at least
/// the run of the latest applicable acceptance (the one with the highest run id): where the
/// accepted baseline starts. nullopt when no acceptance applies or no run is that late.
std::optional<std::size_t> accepted_from(const std::vector<harness::Acceptance>& acceptances,
                                         const harness::SeriesKey& key,
                                         const std::vector<harness::SeriesEntry>& entries);

}  // namespace perfgauge::cli
