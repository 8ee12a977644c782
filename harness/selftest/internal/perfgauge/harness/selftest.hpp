// perfgauge selftest: how far can measurements on this machine be trusted, now? Real work with
// known differences, measured by the library's own Runner and compared by its own comparisons,
// so that the figures describe what users of run and compare get: a chain of k dependent
// multiply-adds (latency-bound, not foldable), the same chain again (A/A), and chains of
// (1 + p/100) k operations for each injected change p, all interleaved in each of several
// separate runs; then seed 000's correction check in short form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/correction_check.hpp"
#include "perfgauge/harness/selftest_figures.hpp"

namespace perfgauge::harness {

/// How long to look: quick ~15 s, standard ~1 min, thorough several minutes; tiny: a few
/// seconds of structure only (tests), whose figures mean nothing.
enum class SelftestDepth { tiny, quick, standard, thorough };

/// "tiny", "quick", "standard", "thorough".
const char* depth_name(SelftestDepth depth);

struct SelftestPlan {
    SelftestDepth depth = SelftestDepth::standard;
    /// Separate runs (a Runner each, calibrated anew): each is one trial in turn, and each two
    /// are one trial across runs.
    std::size_t runs = 40;
    std::vector<double> changes_pct = {2, 3, 5, 10, 20, 50};
    std::uint64_t base_operations = 1000;  ///< k: dependent multiply-adds per iteration
    /// Sampling per run, as perfgauge run's defaults except the time per benchmark.
    std::size_t repetitions = 10;
    double precision = 0.01;
    double max_time_s = 0.1;
    double min_sample_time_s = 0.002;
    double warmup_time_s = 0.02;
    double power = 0.95;  ///< the detection rate a change must reach to count as resolved
    CompareOptions compare;
    CorrectionCheckOptions correction;
};

/// The plan of each depth (pure).
SelftestPlan plan_for(SelftestDepth depth);

/// The chain of `operations` dependent multiply-adds per iteration, with params
/// {kWorkParam, work}: the compiler can neither fold it (the multiplier is read at run time and
/// an empty asm hides the value at every step) nor overlap its steps.
Benchmark chain_benchmark(const std::string& work, std::uint64_t operations);

struct SelftestReport {
    SelftestPlan plan;
    TrialEvidence evidence;
    ResolutionFigures in_turn, across;
    Spread within_run, between_run;  ///< of identical work's medians
    Rate disturbed;                  ///< disturbed samples among all samples taken
    CorrectionCheck correction;      ///< seed 000, short form, no counters
    double seconds = 0;              ///< wall time of the whole selftest
    std::string verdict;
    /// Ways of measuring this selftest does not measure, in words.
    std::vector<std::string> not_covered;
};

/// Progress between runs (never inside one): (phase, done, total).
using SelftestProgress = std::function<void(std::string_view, std::size_t, std::size_t)>;

/// Runs the plan on the calling thread.
SelftestReport run_selftest(const SelftestPlan& plan, const SelftestProgress& progress = {});

/// The report's figures from its evidence (pure; run_selftest's last step).
void summarize_evidence(SelftestReport& report);

}  // namespace perfgauge::harness
