// perfgauge selftest: how far can measurements on this machine be trusted, now? Real work with
// known differences, measured by the library's own Runner and compared by its own comparisons,
// so that the figures describe what users of run, compare, stat and run --against get: a
// chain of k dependent multiply-adds (latency-bound, not foldable), the same chain again
// (A/A), and chains of (1 + p/100) k operations for each injected change p, all interleaved in
// each of several separate runs (a fresh perfgauge process each, as separate perfgauge runs);
// then the same chains side by side as stat runs commands and in pairs of processes as run
// --against runs two builds; then seed 000's correction check in short form.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfgauge/harness/correction_check.hpp"
#include "perfgauge/harness/selftest_figures.hpp"
#include "perfgauge/harness/selftest_plan.hpp"
#include "perfgauge/harness/selftest_processes.hpp"

namespace perfgauge::harness {

/// One way of measuring across processes: its trials, figures, and why it stopped early.
struct ProcessFigures {
    ProcessTrials measured;
    ResolutionFigures figures;
};

struct SelftestReport {
    SelftestPlan plan;
    TrialEvidence evidence;
    /// across: with the between-run floor (compare --floor); across_without_floor: as a bare
    /// `compare A.json B.json` (the probes' drift and the blocks' spread widen it).
    ResolutionFigures in_turn, across, across_without_floor;
    ProcessFigures side_by_side, against;
    /// Why the separate runs stopped before plan.runs ("": they did not).
    std::string runs_failure;
    /// The chain's iterations in each process stat side by side timed (process_work_s long at
    /// the base's speed in the first run).
    std::uint64_t side_by_side_iterations = 0;
    Spread within_run, between_run;  ///< of identical work's medians
    Rate disturbed;                  ///< disturbed samples among all samples taken
    CorrectionCheck correction;      ///< seed 000, short form, no counters
    double seconds = 0;              ///< wall time of the whole selftest
    std::string verdict;
    /// Ways of measuring this selftest does not measure, or measured only in part, in words.
    std::vector<std::string> not_covered;
    /// Ways of measuring it was to measure and made no trial of ("in turn: the separate runs
    /// stopped early: run 1 of 40: ..."): their figures are not measurements. Exit 1.
    std::vector<std::string> not_measured;
};

/// Runs the plan on the calling thread; `argv` starts its child processes (every separate run
/// and every side of the trials across processes). Interrupted when perfgauge is.
SelftestReport run_selftest(const SelftestPlan& plan, const ChainArgv& argv,
                            const SelftestProgress& progress = {});

/// The report's figures from its evidence and trials (pure; run_selftest's last step).
void summarize_evidence(SelftestReport& report);

}  // namespace perfgauge::harness
