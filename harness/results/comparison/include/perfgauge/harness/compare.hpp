// Comparing two sets of samples benchmark by benchmark, for time per item and every counter per
// item: medians, ratio, a confidence interval of the change, and a verdict that says only what
// the interval supports: faster/slower (fewer/more), equivalent within the threshold, or
// inconclusive. Pure functions over RunResults; the writers say it (compare_report.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

/// lower/higher: the interval of the change lies entirely beyond the threshold (for time:
/// faster/slower). equivalent: it lies entirely within ±threshold (and the threshold is not a
/// side's own spread). inconclusive: it straddles the threshold (more samples, or a quieter
/// machine, would decide).
enum class Verdict { lower, higher, equivalent, inconclusive, too_few_samples };

struct CompareOptions {
    /// 1 - confidence of the interval (and the level of the displayed Mann-Whitney p-value).
    double alpha = 0.05;
    std::size_t min_samples = 5;  ///< fewer on either side: too_few_samples
    double min_change = 0.01;     ///< the smallest relative change worth a verdict (1%)
    /// Absolute floors per item, by what the counter counts: executed work (instructions,
    /// cycles, branches), misses and cache accesses, and rare kernel events (context switches,
    /// migrations, page faults). A change below its floor is never called.
    double min_work_delta = 1.0;
    double min_miss_delta = 0.01;
    double min_rare_delta = 0.001;
    /// The machine's between-run floor, as a share: how far a run's median of identical work
    /// typically moves from one separate run to the next (the median of |ratio - 1| of two runs'
    /// medians: selftest's "noise floor between runs"); 0: not known. Across two results, a
    /// time compared as independent samples then widens by this measured noise (or by its own
    /// blocks' spread where that is larger), in quadrature with its Moses interval, instead of
    /// by batch means, the blocks' spread and the machine probes' drift: see kFloorToSd. Pairs
    /// (rounds of one result, runs taken in turn) cancel it and ignore it.
    double between_run_floor = 0;
};

/// The standard deviation of the log ratio of two runs' medians, per unit of floor: for a
/// normal difference, the median of its absolute value is 0.6745 standard deviations.
inline constexpr double kFloorToSd = 1 / 0.6744897501960817;

/// How one metric's two sample sets were compared.
enum class Method {
    /// one result: per-round ratios of times, differences of counts (same interleaved
    /// round), the sign-test CI of their median (pair_changes, median_interval)
    paired,
    /// two results (or one whose variants share too few rounds): Hodges-Lehmann shift; the CI
    /// spans both its Mann-Whitney (Moses) interval and a batch-means interval over blocks of
    /// consecutive samples (time_blocks), widened by the blocks' spread
    independent,
    deterministic,  ///< simulated or otherwise constant counts: the exact difference, no test
    /// two sides joining the same number of runs, taken in turn (A B, B A, ...): run i of one
    /// side paired with run i of the other: log ratios of their medians for times, differences
    /// for counts (run_median_pairs, pair_changes); the median and its sign-test interval from
    /// min_sign_test_pairs pairs on (median_interval), a Student t interval of the mean below
    /// (mean_interval)
    paired_runs,
};

/// The fewest pairs whose sign-test interval of the median reaches `confidence`: its widest
/// interval, [min, max], misses the median only when every pair falls on one side, 2 / 2^n (at
/// 95%: 6 pairs cover 96.9%, 5 only 93.8%).
std::size_t min_sign_test_pairs(double confidence);

/// Half the width of the sign-test interval of the pairs' median (in their unit: log ratios for
/// times), as paired runs compare them; nullopt with fewer than min_sign_test_pairs pairs, which
/// have no such interval.
std::optional<double> median_pair_half_width(std::span<const double> pair_changes,
                                             double confidence = 0.95);

/// The fewest pairs of runs a paired-runs comparison uses: with two, Student's t (1 degree of
/// freedom) makes any interval too wide to say anything.
inline constexpr std::size_t kMinPairedRuns = 3;

struct MetricComparison {
    std::string metric;                 ///< "time" or an event name
    std::string per = "item";           ///< what the values are per: item, run or iteration
    std::optional<EventSource> source;  ///< the counter's source on both sides (none for time)
    bool is_time = false;
    Method method = Method::independent;
    double baseline_median = 0, contender_median = 0;
    /// contender / baseline medians (0 when the baseline is 0); paired rows: 1 + shift / the
    /// baseline's median, the pairs' own change (their median or geometric mean ratio; with a
    /// value of 0, their difference), which the interval is about, and which may differ from the
    /// ratio of the medians (medians_disagree)
    double ratio = 0;
    double change_pct = 0;  ///< 100 * (ratio - 1)
    double shift = 0;       ///< estimate of contender - baseline (per item)
    /// Interval of contender - baseline (per item), at `confidence`; equal to `shift` at both
    /// ends when deterministic.
    double ci_low = 0, ci_high = 0;
    double confidence = 0;
    /// The effect a verdict must exceed, per item: the largest of min_change times the baseline,
    /// the counter's floor and, across results where a side has too few samples for two
    /// blocks, each side's IQR. Across results the interval (not the threshold) also widens by
    /// the spread between each side's blocks and by a drift of the machine probes.
    double threshold = 0;
    std::optional<double> p_value;  ///< Mann-Whitney, for reference; none when deterministic
    /// False when a side's own IQR (too few samples for blocks), not --min-change or a floor,
    /// set the threshold: a change within one IQR is then not shown to be absent, so the
    /// verdict is inconclusive rather than "equivalent".
    bool equivalence_shown = true;
    /// Independent: the blocks of consecutive samples each side's batch means used (0: too few
    /// samples for two blocks; that side's IQR raised the threshold instead).
    std::size_t baseline_blocks = 0, contender_blocks = 0;
    std::size_t run_pairs = 0;  ///< paired runs: the pairs of runs with samples on both sides
    /// paired runs: the median of the pairs and its sign-test interval (min_sign_test_pairs
    /// or more pairs), not Student's t over their mean
    bool run_pairs_median = false;
    /// Paired rounds or runs: the pairs' log ratios were compared (every paired value positive),
    /// not their differences (a value of 0, or a time below 0 after its correction).
    bool log_ratio_pairs = false;
    /// The interval was taken on the ratio scale (log ratios, mapped back onto the baseline's
    /// median): every value on both sides was positive, so it can never reach -100%.
    bool ratio_scale = false;
    /// Every value on both sides was at least 0 (a time, a count): the contender's median cannot
    /// fall below 0, so an interval taken on differences (a count of 0 on a side) is cut at
    /// -100% of the baseline's median.
    bool non_negative = false;
    /// Across results with a between-run floor: the standard deviation of the runs' difference
    /// (log ratio) the interval was widened by - the floor's, or the blocks' where larger; 0 when
    /// no floor widened this metric (the probes' drift and the blocks' spread did, if anything).
    double between_run_sd = 0;
    std::size_t baseline_samples = 0, contender_samples = 0;
    Verdict verdict = Verdict::inconclusive;
};

struct BenchmarkComparison {
    std::string name;  ///< what both sides are (without the variant when comparing variants)
    std::string baseline, contender;        ///< the benchmark names compared
    std::vector<MetricComparison> metrics;  ///< time first, then counters in event order
};

struct Comparison {
    std::string baseline_label, contender_label;
    std::vector<BenchmarkComparison> benchmarks;
    std::vector<std::string> notes;  ///< unmatched benchmarks, events on one side only
    CompareOptions options;          ///< the thresholds the verdicts used; every format states them
    /// Across two results: the change of perfgauge's machine probe between the runs, as a share
    /// of the baseline's; every time's interval is widened by it beyond --min-change (with paired
    /// runs only the times that could not be paired).
    std::optional<double> machine_drift;
    /// Across runs taken in turn: the pairs of runs (0: not paired).
    std::size_t paired_runs = 0;
};

/// The half-width, on the log-ratio scale, of the interval of two independent runs' difference:
/// the within-run interval's half-width `within` (sampling) and the runs' own noise, whose
/// difference has standard deviation `run_sd`, are independent, so they add in quadrature; `z`
/// the normal quantile of the confidence (1.96 at 95%).
double across_half_width(double within, double run_sd, double z);

/// "paired", "independent", "deterministic", "paired-runs".
const char* method_name(Method method);

/// What `ratio` is the ratio of: "medians" (contender / baseline medians), "rounds" (the median
/// of the per-round ratios, or 1 + the median difference / the baseline's median), "runs" (the
/// same over pairs of runs).
const char* ratio_of(const MetricComparison& m);

/// A paired row whose medians' ratio (contender / baseline medians, shown beside it) lies
/// outside the interval of the pairs' change its ratio and verdict are about (66 -> 56.5 with
/// the pairs +1.5%: the rounds differ more than the sides do). Writers say so at the row.
bool medians_disagree(const MetricComparison& m);

/// Which block of consecutive samples each sample of either side belongs to (time_blocks).
struct SampleBlocks {
    std::span<const std::size_t> baseline, contender;
};

/// Which run each sample of either side came from (paired runs: run i of one side was taken
/// next to run i of the other).
struct SampleRuns {
    std::span<const std::size_t> baseline, contender;
};

/// Compares one metric's samples. `method` paired needs equal sample counts, in round order
/// (it falls back to independent otherwise). Independent samples with `blocks` (two or more a
/// side) get the batch-means interval too; without, each side's IQR raises the threshold. Counts
/// that are all equal on both sides are compared exactly (deterministic) when the caller passes
/// Method::deterministic (simulated counts, however few) or when each side has at least min_samples
/// of them; times never are. Method::paired_runs needs `runs` and at least kMinPairedRuns runs
/// with samples on both sides; otherwise it compares as independent.
MetricComparison compare_samples(std::string metric, bool is_time,
                                 const std::vector<double>& baseline,
                                 const std::vector<double>& contender,
                                 const CompareOptions& options, Method method = Method::independent,
                                 const SampleBlocks* blocks = nullptr,
                                 const SampleRuns* runs = nullptr);

/// Why two results cannot be compared ("" when they can): results of different kinds (a run
/// result, a stat result, a Google Benchmark result) measure different things under different
/// names, so nothing of one matches anything of the other.
std::string mixing_refusal(const RunResult& baseline, const RunResult& contender);

/// Two results, benchmarks matched by name; counters matched by event name (counted on both).
/// Two stat results of one command each are matched whatever the commands (that is what
/// comparing them asks). Throws std::invalid_argument with mixing_refusal's reason when the
/// kinds differ. `paired_runs`: each side joins as many runs, kMinPairedRuns or more
/// (merge_processes: process i = run i; std::invalid_argument otherwise), taken in turn with the
/// other side's, run i next to run i - the caller checked their times; samples are then compared
/// per pair of runs (Method::paired_runs), and no machine drift widens them (a pair shares the
/// machine's state). A metric with fewer pairs of runs with samples falls back to blocks of
/// samples, is widened by the drift and named in a note.
Comparison compare_results(const RunResult& baseline, const RunResult& contender,
                           const CompareOptions& options, bool paired_runs = false);

/// One result, two values of one benchmark param (`param_key`, e.g. the workloads' "variant"):
/// benchmarks matched on every other param. Knows nothing of any particular workload.
Comparison compare_within(const RunResult& result, const std::string& param_key,
                          const std::string& baseline_value, const std::string& contender_value,
                          const CompareOptions& options);

}  // namespace perfgauge::harness
