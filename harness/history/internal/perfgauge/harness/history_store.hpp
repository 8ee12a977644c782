// The history store: results over time and across machines, in a SQLite file (the default,
// embedded) or on a PostgreSQL server (a team, a fleet), with one schema for both, versioned
// by migrations applied when the store is opened. Every sample of every metric is kept
// (compactly: sample_codec.hpp) with its run's commit, labels, context and machine
// fingerprint. A series is one benchmark's metric on one comparable machine class.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

namespace history_db {
class Database;
}

/// The schema version this perfgauge writes; a store migrated past it is refused.
inline constexpr int kHistorySchemaVersion = 1;

/// The metric name of the time per item (events use their own names).
inline constexpr const char* kTimeMetric = "time";

struct AddedRun {
    std::string source;  ///< the file it came from
    std::string commit;  ///< empty: unknown
    std::vector<std::pair<std::string, std::string>> labels;
};

struct StoredRun {
    std::int64_t id = 0;
    std::string added_at, measured_at, commit, kind, source;
    std::string machine_class, machine_id, machine_summary;
    std::string labels;  ///< "k=v,k=v"
    std::int64_t benchmarks = 0, sample_bytes = 0;
};

struct SeriesKey {
    std::string benchmark, metric, machine_class;
    bool operator<(const SeriesKey& o) const {
        return std::tie(benchmark, metric, machine_class) <
               std::tie(o.benchmark, o.metric, o.machine_class);
    }
};

/// One run of a series.
struct SeriesEntry {
    std::int64_t run_id = 0;
    std::string commit, measured_at, unit, source;
    std::size_t sample_count = 0;
    RunPoint point;  ///< median and the half-width of its 95% interval
};

struct StoredMeasurement {
    std::int64_t run_id = 0;
    std::string commit, measured_at, machine_class, benchmark, metric, unit, source;
    double median = 0, spread = 0;
    std::vector<double> samples;
};

class HistoryStore {
  public:
    /// A store by location: postgresql://... or postgres://... is a server, anything else a
    /// SQLite file (created, with its migrations, when missing). Migrates an older schema.
    static std::unique_ptr<HistoryStore> open(const std::string& location);
    explicit HistoryStore(std::unique_ptr<history_db::Database> db);
    ~HistoryStore();
    HistoryStore(const HistoryStore&) = delete;
    HistoryStore& operator=(const HistoryStore&) = delete;

    int schema_version();
    /// Stores the run in one transaction: its machine (once), the run, every benchmark's
    /// samples per metric. Returns the run's id. std::invalid_argument when the result names
    /// no machine (unidentified_machine) and no `machine` label does.
    std::int64_t add(const RunResult& result, const AddedRun& how);
    std::vector<StoredRun> runs();
    /// Every series, ordered by benchmark, metric, machine class.
    std::vector<SeriesKey> series();
    /// The runs of one series in the order they were added (those that kept a sample).
    std::vector<SeriesEntry> series_runs(const SeriesKey& key);
    /// The last run added to the series whatever it kept: a run whose every sample was set
    /// aside (a busy machine) or that was interrupted first stores the benchmark with none,
    /// and `check` must say so rather than judge the run before it again. 0 when none.
    std::int64_t last_run_of(const SeriesKey& key);
    /// Every stored measurement with its samples (for export), in run order.
    std::vector<StoredMeasurement> measurements();
    /// Removes the runs (and their samples); returns how many existed.
    std::size_t forget(const std::vector<std::int64_t>& run_ids);

  private:
    void migrate();
    std::unique_ptr<history_db::Database> db_;
};

/// The value of the run's `machine` label, empty without one.
std::string machine_label(const AddedRun& how);

/// Where the store is when no --db is given: $PERFGAUGE_DB, else
/// $XDG_DATA_HOME/perfgauge/history.db, else ~/.local/share/perfgauge/history.db.
std::string default_history_location();

}  // namespace perfgauge::harness
