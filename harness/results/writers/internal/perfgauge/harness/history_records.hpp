// The plain data of the results history (harness/history) that its texts are made from: the
// store's records (runs, series, acceptances, measurements), a series' points and change
// points, the gate's verdict, how a metric reads, and what each `perfgauge history` query
// returns. Plain data only, no behaviour: harness/history fills it (the store, the gate, the
// queries), results' writers render it (history_text.hpp), and neither includes the other's
// headers for it. (Data of the model's kind, here because the writers are the lowest layer
// that reads it; it moves to results/model unchanged, its include name staying.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace perfgauge::harness {

/// One run of a series: its value (the median of its samples; larger is worse: time or counts
/// per item) and its spread (half-width of that median's 95% interval, same unit; 0 when the
/// run is deterministic; NaN when unknown, e.g. a run of one sample).
struct RunPoint {
    double value = 0;
    double spread = 0;
};

/// Which way a metric gets worse: times and counts per item up, throughput down.
enum class Worse { up, down };

struct ChangePoint {
    std::size_t index = 0;  ///< of the first run after the change
    double before = 0;      ///< level of the runs since the previous change (geometric mean)
    double after = 0;       ///< level of the runs up to the next change
    double size = 0;        ///< after / before - 1 (0.1: 10% larger)
    double size_low = 0;    ///< 95% interval of `size` (on the log scale when positive)
    double size_high = 0;
    double p_value = 0;       ///< of the t test that confirmed it (0: deterministic, exact)
    bool regression = false;  ///< the value moved the way that is worse
};

/// The per-check level of a series judged alone (GateOptions::alpha), and the share of A/A
/// series of 20 runs, checked after every run, that ever alarm at that level (measured on
/// 3,000 seeded synthetic series: test/harness/history/regression_gate_test.cpp).
inline constexpr double kDefaultGateAlpha = 0.002;
inline constexpr double kGateLifetimeFalseAlarms = 0.016;

struct GateOptions {
    /// Significance of each split's two-sided t test at each run: the per-check level. The
    /// default holds a series of 20 runs, checked after every one, to about 1% false alarms
    /// (seeded synthetic series, test/harness/history/regression_gate_test.cpp).
    double alpha = kDefaultGateAlpha;
    std::size_t min_baseline = 5;  ///< runs before a split, at least
    std::size_t min_after = 3;     ///< runs after a split that confirm it (1 for exact series)
    std::size_t max_after = 6;     ///< the longest tail a run's check tests
    double min_change = 0;         ///< relative: a smaller standing change is no regression
    Worse worse = Worse::up;
};

/// One confirmed change point of the replay.
struct GateStep {
    std::size_t index = 0;      ///< first run after the change
    std::size_t confirmed = 0;  ///< the run at which the replay confirmed it
    double statistic = 0;       ///< |t| when confirmed
    double p_value = 0;         ///< of that t (0: exact)
};

struct GateVerdict {
    enum class Kind {
        too_short,     ///< fewer runs since the baseline than a judgment needs
        unchanged,     ///< the current level is the baseline's
        regression,    ///< a change point stands after the baseline, worse by min_change or more
        improvement,   ///< the same, better
        pending,       ///< the newest run alone is beyond the band: not yet a change point
        inconclusive,  ///< unchanged as far as the series tells, but the newest run's own
                       ///< interval is wider than what the series resolves
    };
    Kind kind = Kind::too_short;
    std::size_t baseline_first = 0, baseline_runs = 0;  ///< the baseline segment
    std::size_t current_first = 0;     ///< first run of the current level (the regression's start)
    double baseline = 0, current = 0;  ///< the two levels (means; geometric when positive)
    double size = 0, size_low = 0, size_high = 0;  ///< current / baseline - 1, 95% interval
    double newest_size = 0;       ///< the newest run against the current level's runs before it
    double band = 0;              ///< relative: the newest run beyond this is pending
    double detectable = 0;        ///< relative shift found within 3 runs with 90% probability
    double newest_spread = 0;     ///< relative half-width of the newest run's own interval
    bool exact = false;           ///< deterministic series
    std::vector<GateStep> steps;  ///< confirmed change points since the baseline
};

struct MetricPolicy {
    enum class Quantity { time, count, rate };
    Quantity quantity = Quantity::count;
    Worse worse = Worse::up;
    /// The default --min-change: a time 2% (below it a shared machine's noise decides more
    /// than the code, and few changes are worth blocking a merge for), a count 1%, an exact
    /// (deterministic) count 0.5%: counted to the last event, a half-percent more instructions
    /// is real, while 10 more branch-misses of 517,860 are not worth a failed build.
    double min_change = 0.01;
    std::string per;  ///< what the value is per: "item", "run", "iteration", ...
};

struct StoredRun {
    std::int64_t id = 0;
    std::string added_at, measured_at, commit, kind, source;
    std::string path, command;  ///< AddedRun's; empty in runs added before schema 3
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

/// `history accept`: from run `run_id` (commit `commit`) on, the series of the benchmarks that
/// `pattern` matches ("" every one), of `metric` ("" every one), have a new accepted baseline.
struct Acceptance {
    std::int64_t id = 0, run_id = 0;
    std::string commit, pattern, metric, reason, added_at;
};

struct StoredMeasurement {
    std::int64_t run_id = 0;
    std::string commit, measured_at, machine_class, benchmark, metric, unit, source;
    double median = 0, spread = 0;
    std::vector<double> samples;
};

// ---- what the queries return (history_queries.hpp) ------------------------------------

/// One series as `show` prints it: its runs, how its values read, its change points.
struct ShownSeries {
    SeriesKey key;
    std::string machine_summary;  ///< "?" when no run names the class
    std::vector<SeriesEntry> entries;
    MetricPolicy policy;
    std::vector<ChangePoint> changes;
    bool deterministic = false;
};

/// One series as history_plot.py draws it: raw values, the unit, where accepted baselines
/// start, the change points.
struct PlottedSeries {
    SeriesKey key;
    std::string machine;  ///< "SUMMARY (CLASS8)"
    std::string unit;     ///< metric_unit's
    MetricPolicy policy;  ///< for the axis (not exact)
    std::vector<SeriesEntry> entries;
    struct Accepted {
        std::size_t index = 0;
        std::string commit, reason;
    };
    std::vector<Accepted> accepted;
    std::vector<ChangePoint> changes;
};

/// A series whose newest run kept no sample: nothing to judge in it.
struct UnmeasuredSeries {
    SeriesKey key;
    std::int64_t last_run = 0;
};

struct JudgedSeries {
    SeriesKey key;
    std::vector<SeriesEntry> entries;
    MetricPolicy policy;
    GateOptions options;
    GateVerdict verdict;
    std::optional<Acceptance> accepted;  ///< the acceptance its baseline starts at
};
struct CheckOutcome {
    std::size_t checked = 0;  ///< series checked
    std::vector<UnmeasuredSeries> unmeasured;
    std::vector<JudgedSeries> judged;
    std::size_t regressions = 0, pending = 0;
    std::size_t below = 0;  ///< series that resolve less than --min-change
    std::optional<double> min_change;
    double expected_false_alarms = 0;  ///< of the whole check
};

/// One benchmark measured on every compared class: its value per class (in the classes'
/// order, the reference first) and, where instructions were counted on every class, its value
/// per instruction (nullopt where a class counted none).
struct ComparedBenchmark {
    std::string benchmark;
    std::vector<double> values;
    std::vector<std::optional<double>> per_instruction;  ///< empty: no such row
};
struct MachineComparison {
    std::string metric;
    std::vector<std::string> classes;    ///< the reference first
    std::vector<std::string> summaries;  ///< of each class
    std::vector<ComparedBenchmark> rows;
    std::vector<double> geometric_means;  ///< per class: of value / the reference's
    std::size_t left_out = 0;             ///< benchmarks not measured on every class
};

struct Forgotten {
    std::size_t existed = 0;
    std::set<std::int64_t> missing;  ///< asked for, not stored
};

}  // namespace perfgauge::harness
