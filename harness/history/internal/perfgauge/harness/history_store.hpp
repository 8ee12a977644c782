// The history store: results over time and across machines, in a SQLite file (the default,
// embedded) or on a PostgreSQL server (a team, a fleet), with one schema for both, versioned
// by migrations applied when the store is opened. Every sample of every metric is kept
// (compactly: sample_codec.hpp) with its run's commit, labels, context and machine
// fingerprint. A series is one benchmark's metric on one comparable machine class.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/history_records.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/store_location.hpp"

namespace perfgauge::harness {

namespace history_db {
class Database;
}

/// The schema version this perfgauge writes; a store migrated past it is refused.
/// 1: machines, runs, measurements. 2: acceptances. 3: each run's absolute path and command.
inline constexpr int kHistorySchemaVersion = 3;

/// The store cannot be used, for what it holds rather than for its engine: no perfgauge
/// history in it (read), a schema newer than this perfgauge's, not a SQLite database. Nothing
/// was written. Bad input (exit 2) to the command line.
class StoreRefused : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// How a store is opened. A reader writes nothing (no table, no journal switch, no migration,
/// no write transaction), so it reads a store it may not write, and an older schema as it is.
enum class StoreAccess { read, write };

/// The metric name of the time per item (events use their own names).
inline constexpr const char* kTimeMetric = "time";
/// The metric name of the CPU time per item of Google Benchmark and stat results.
inline constexpr const char* kCpuTimeMetric = "cpu-time";

struct AddedRun {
    std::string source;  ///< the file it came from, as the user named it
    std::string commit;  ///< empty: unknown
    std::vector<std::pair<std::string, std::string>> labels;
    /// The same file's absolute path (lexically: a symlink named stays named), which a user
    /// recognises wherever the store is read; empty: unknown.
    std::string path = {};  // (= {}: `{source, commit, labels}` stays a complete AddedRun)
    /// The command that made the result, as its file records it (stat's measured command,
    /// Google Benchmark's executable); empty when the file records none (perfgauge run).
    std::string command = {};
};

/// A run found by its commit.
struct CommitRun {
    std::int64_t run_id = 0;
    std::string commit;
};

class HistoryStore {
  public:
    /// The store at `location`. A writer creates a missing SQLite file (and its directory)
    /// and migrates an older schema; a reader reads what is there. StoreRefused (nothing
    /// written) for a newer schema, or for a reader, a store without perfgauge's tables.
    static std::unique_ptr<HistoryStore> open(const StoreLocation& location, StoreAccess access);
    /// A writer's store by location text (parse_store_location; std::invalid_argument).
    static std::unique_ptr<HistoryStore> open(const std::string& location);
    HistoryStore(std::unique_ptr<history_db::Database> db, StoreAccess access,
                 const std::string& shown);
    ~HistoryStore();
    HistoryStore(const HistoryStore&) = delete;
    HistoryStore& operator=(const HistoryStore&) = delete;

    int schema_version();
    /// Stores the run in one transaction: its machine (once), the run, every benchmark's
    /// samples per metric. Returns the run's id. std::invalid_argument when the result names
    /// no machine (unidentified_machine) and no `machine` label does.
    /// Texts are stored through store_text (store_text.hpp): each one that had to be escaped
    /// is named in `escaped` (when given), for the note add prints.
    std::int64_t add(const RunResult& result, const AddedRun& how,
                     std::vector<std::string>* escaped = nullptr);
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
    /// Removes the runs (and their samples); returns how many existed. Their acceptances
    /// stay: an acceptance names a commit and a point in the series, which later runs keep.
    std::size_t forget(const std::vector<std::int64_t>& run_ids);

    /// Records an acceptance (a write); returns its id. Its texts go through store_text.
    std::int64_t accept(const Acceptance& a);
    /// Every acceptance in id order; empty on a schema-1 store opened read-only.
    std::vector<Acceptance> acceptances();
    /// The first run (lowest id) whose commit starts with `prefix`; std::invalid_argument
    /// (UsageError-worthy) when no run or several distinct commits match (naming them).
    CommitRun first_run_of_commit(const std::string& prefix);

  private:
    void check_version(int found);
    void migrate();
    std::unique_ptr<history_db::Database> db_;
    std::string shown_;  ///< the location for messages, passwords redacted
    int version_ = 0;    ///< the schema version found (a reader's) or made (a writer's)
};

/// Why `result` cannot be stored even with its texts escaped (two benchmarks whose names are
/// the same once escaped); empty when it can. Checked by add, and by callers before they
/// store anything.
std::string unstorable(const RunResult& result);

/// The value of the run's `machine` label, empty without one.
std::string machine_label(const AddedRun& how);

}  // namespace perfgauge::harness
