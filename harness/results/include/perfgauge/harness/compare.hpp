// Comparing two sets of samples benchmark by benchmark, for time per item and every counter per
// item: medians, ratio, change, Mann-Whitney p-value, Hodges-Lehmann shift and a verdict that
// refuses to call tiny or under-sampled differences. Pure functions over RunResults.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// lower/higher: the contender's value is significantly lower/higher than the baseline's (for
/// time: faster/slower). no_difference: not significant, or below the floors.
enum class Verdict { lower, higher, no_difference, too_few_samples };

struct CompareOptions {
    double alpha = 0.05;          ///< significance level of the two-sided Mann-Whitney test
    std::size_t min_samples = 5;  ///< fewer on either side: too_few_samples
    double min_change = 0.01;     ///< relative change below this is no difference (1%)
    /// Absolute floor per item for counts of executed work (instructions, cycles, branches):
    /// less than one instruction per item is not worth a verdict.
    double min_work_delta = 1.0;
};

struct MetricComparison {
    std::string metric;                 ///< "time" or an event name
    std::optional<EventSource> source;  ///< the counter's source on both sides (none for time)
    bool is_time = false;
    double baseline_median = 0, contender_median = 0;
    double ratio = 0;       ///< contender / baseline (0 when the baseline is 0)
    double change_pct = 0;  ///< 100 * (contender - baseline) / baseline
    double shift = 0;       ///< Hodges-Lehmann estimate of contender - baseline
    double p_value = 1;
    std::size_t baseline_samples = 0, contender_samples = 0;
    Verdict verdict = Verdict::no_difference;
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
};

/// "faster"/"slower" for time, "fewer"/"more" for counters, "no difference",
/// "too few samples".
std::string verdict_text(const MetricComparison& m);

/// Compares one metric's samples.
MetricComparison compare_samples(std::string metric, bool is_time,
                                 const std::vector<double>& baseline,
                                 const std::vector<double>& contender,
                                 const CompareOptions& options);

/// Two results, benchmarks matched by name; counters matched by event name (counted on both).
Comparison compare_results(const RunResult& baseline, const RunResult& contender,
                           const CompareOptions& options);

/// One result, two values of one benchmark param (`param_key`, e.g. the workloads' "variant"):
/// benchmarks matched on every other param. Knows nothing of any particular workload.
Comparison compare_within(const RunResult& result, const std::string& param_key,
                          const std::string& baseline_value, const std::string& contender_value,
                          const CompareOptions& options);

/// Table, CSV, Markdown or JSON.
std::string render_comparison(const Comparison& c, OutputFormat format);

/// One line per time comparison that is significantly slower by more than `pct` percent.
std::vector<std::string> regressions(const Comparison& c, double pct);

}  // namespace perfgauge::harness
