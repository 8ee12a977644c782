// What `perfgauge history`'s subcommands ask of the store, as typed queries: the series a
// pattern and a metric select, acceptances and where their baselines start, each subcommand's
// data (show, check, plot, compare --by machine, export, accept, forget). Text is the writers'
// (history_text.hpp); option names are the command line's. A user's REGEX is matched by the
// caller's one matcher (RE2, cli's UserPattern), handed in as a function: nothing here compiles
// a pattern.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/history_store.hpp"
#include "perfgauge/harness/metric_policy.hpp"
#include "perfgauge/harness/regression_gate.hpp"
#include "perfgauge/harness/report_model.hpp"
#include "perfgauge/harness/store_location.hpp"

namespace perfgauge::harness {

/// Bad input found by a query (a REGEX that matches nothing, a metric no series stores, an
/// unknown or ambiguous commit, a missing store): exit 2 on the command line, its message as
/// it is.
class HistoryInputError : public std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

/// A user's REGEX as the queries see it: its text ("" matches every name), for messages, and
/// the caller's matcher.
struct NamePattern {
    std::string text;
    std::function<bool(const std::string& name)> matches;
};

/// Whether a stored acceptance's REGEX matches a benchmark name, by the same matcher.
using StoredPatternMatch = std::function<bool(const std::string& pattern, const std::string& name)>;

/// What a subcommand does with the store. Only `add` creates a SQLite store: reading or
/// changing one that is not there is a mistyped path. Readers (list, show, check, plot,
/// compare, export) open it read-only and never write to it.
enum class StoreUse { read, write, create };

/// The store at `location`, opened for `use`: HistoryInputError for a SQLite path that is
/// missing (but to create), a directory or no regular file; StoreRefused for a store refused
/// for what it holds.
std::unique_ptr<HistoryStore> open_history_store(const StoreLocation& location,
                                                 StoreUse use = StoreUse::read);

/// Each machine class's summary, by class id.
std::map<std::string, std::string> class_summaries(HistoryStore& store);

/// "REGEX 'x' matches no stored series (...)", or that the store holds none when no REGEX is
/// given.
std::string no_series_matches(const NamePattern& pattern);

/// The metric that selects every metric's series.
inline const std::string kEveryMetric;

/// The series whose benchmark `pattern` matches, of one metric (kEveryMetric: of every metric).
std::vector<SeriesKey> selected_series(HistoryStore& store, const NamePattern& pattern,
                                       const std::string& metric);

/// HistoryInputError unless a series of the benchmarks `pattern` matches stores `metric`:
/// naming the metrics they store (a mistyped --metric), or saying that no series matches.
void require_stored_metric(HistoryStore& store, const NamePattern& pattern,
                           const std::string& metric);

/// The matching series of `metric`, for show and plot (require_stored_metric first).
std::vector<SeriesKey> required_series(HistoryStore& store, const NamePattern& pattern,
                                       const std::string& metric);

/// The runs' points (median and spread), in order; a run of one sample has no spread (NaN).
std::vector<RunPoint> points(const std::vector<SeriesEntry>& entries);

/// Whether the acceptance holds for the series: its pattern ("" every benchmark) matches the
/// benchmark and its metric is "" or the series'.
bool acceptance_applies(const Acceptance& a, const SeriesKey& key, const StoredPatternMatch& match);

/// The latest acceptance (the one with the highest run id) that applies to the series; nullptr
/// when none does.
const Acceptance* latest_acceptance(const std::vector<Acceptance>& acceptances,
                                    const SeriesKey& key, const StoredPatternMatch& match);

/// The index in `entries` (the series' runs, in order) of the first run with an id at least
/// the run of the latest applicable acceptance: where the accepted baseline starts. nullopt
/// when none applies or no run is that late.
std::optional<std::size_t> accepted_from(const std::vector<Acceptance>& acceptances,
                                         const SeriesKey& key,
                                         const std::vector<SeriesEntry>& entries,
                                         const StoredPatternMatch& match);

// ---- show ---------------------------------------------------------------------------------

std::vector<ShownSeries> show_series(HistoryStore& store, const NamePattern& pattern,
                                     const std::string& metric);

// ---- plot ---------------------------------------------------------------------------------

/// At most this many panels in one picture: beyond it the plot is unreadable, and a narrower
/// pattern says which series are meant.
inline constexpr std::size_t kMostPlottedSeries = 12;
/// The series to draw; HistoryInputError when too many match or none has a sample.
std::vector<PlottedSeries> plotted_series(HistoryStore& store, const NamePattern& pattern,
                                          const std::string& metric,
                                          const StoredPatternMatch& match);

// ---- check --------------------------------------------------------------------------------

struct CheckQuery {
    std::vector<std::string> metrics;  ///< empty: every stored metric
    std::optional<double> min_change;  ///< none: the metric's default
    std::optional<std::string> since;  ///< a commit prefix
    double expected_false_alarms = 0.05;
};
/// Every matching series judged since its baseline (HistoryInputError for a metric no series
/// stores, no series at all, an unknown --since).
CheckOutcome check_series(HistoryStore& store, const NamePattern& pattern, const CheckQuery& query,
                          const StoredPatternMatch& match);

// ---- compare --by machine ----------------------------------------------------------------

struct CompareQuery {
    std::string metric;
    std::string commit;                    ///< a prefix; "": every run
    std::optional<std::string> reference;  ///< a class as the user named it
};
MachineComparison compare_machines(HistoryStore& store, const NamePattern& pattern,
                                   const CompareQuery& query);

// ---- report -------------------------------------------------------------------------------

/// The static page's model: every matching series with a sample, judged as `history check`
/// judges it with `expected_false_alarms` shared by them (HistoryInputError when none matches).
ReportModel report_model(HistoryStore& store, const NamePattern& pattern,
                         double expected_false_alarms, const StoredPatternMatch& match);

// ---- export, accept, forget --------------------------------------------------------------

/// Every stored measurement whose benchmark matches, in run order, each unit as export states
/// it (metric_unit).
std::vector<StoredMeasurement> exported_measurements(HistoryStore& store,
                                                     const NamePattern& pattern);

struct AcceptQuery {
    std::string revision;              ///< a prefix of exactly one stored commit
    NamePattern pattern;               ///< REGEX as given (stored so); "": every benchmark
    std::vector<std::string> metrics;  ///< empty: every metric
    std::string reason;
};
/// Records one acceptance per metric (one for every metric without); returns them as
/// recorded. HistoryInputError for an unknown revision, a REGEX or metric nothing stores.
std::vector<Acceptance> accept_change(HistoryStore& store, const AcceptQuery& query);

Forgotten forget_runs(HistoryStore& store, const std::vector<std::int64_t>& ids);

}  // namespace perfgauge::harness
