// Saying a comparison (compare.hpp): the verdict and the change in words, the table, CSV,
// Markdown and JSON of `perfgauge compare`, each stating the thresholds the verdicts used, and
// the regression lines `compare --fail-on-regression` prints. Pure functions over Comparisons.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

/// "faster"/"slower" for time, "fewer"/"more" for counters, "equivalent (±x%)",
/// "inconclusive", "too few samples".
std::string verdict_text(const MetricComparison& m);

/// The change as people say it: a factor from 1.5x on ("2.4x faster", "13.0x fewer"), a
/// percentage below ("34.0% slower"); for a counter whose baseline is below the smallest change
/// that counts (its threshold), the difference per item ("+0.167/item from ~0"), never a
/// percentage of almost nothing; likewise to near zero ("-0.936/item to ~0"); "none", or "-"
/// without samples on both sides.
std::string change_text(const MetricComparison& m);

/// The interval of the change relative to the baseline's median: "[-3.1%, +0.4%]"; "exact" for
/// deterministic counts, "-" without one.
std::string interval_text(const MetricComparison& m);

/// Table, CSV, Markdown or JSON; std::invalid_argument for bmf and answer.
std::string render_comparison(const Comparison& c, OutputFormat format);

/// One line per time comparison that is significantly slower by more than `pct` percent.
std::vector<std::string> regressions(const Comparison& c, double pct);

}  // namespace perfgauge::harness
