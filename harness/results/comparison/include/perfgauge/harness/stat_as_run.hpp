// perfgauge stat's results in the result model, so that compare, export and the side-by-side
// verdicts treat them like every other result: one benchmark per command, one sample per run.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/stat_result.hpp"

namespace perfgauge::harness {

/// The param naming a stat result's command (`compare --baseline/--contender` picks by it).
inline constexpr const char* kCommandParam = "command";

/// One benchmark per command, named by its label (param kCommandParam), sample k = run k (for
/// side-by-side results: round k, so runs of one round are paired), values per run: wall time
/// as time, user+system CPU time, every event. Counts simulated in one extra run under
/// callgrind are the same for every run, so they are copied into each sample (and compare as
/// deterministic). An event not counted for one command is not counted for the result (its
/// refusal says which command). Each command's failure, interruption and notes become
/// warnings, prefixed with its label when there are several.
RunResult stat_as_run_result(const std::vector<StatResult>& commands,
                             const std::vector<std::string>& labels);

/// Every command against the first, paired by round (compare_within over kCommandParam).
Comparison compare_side_by_side(const SideBySideResult& result, const CompareOptions& options);

}  // namespace perfgauge::harness
