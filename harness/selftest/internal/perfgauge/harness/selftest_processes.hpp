// perfgauge selftest across processes: the injected changes measured as users of `stat` side
// by side and of `run --against` get them measured, each side a fresh perfgauge process doing
// the chain (a ChainJob, run by the hidden child mode of `perfgauge selftest`), compared by
// the same comparisons those commands print.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/harness/selftest_chain.hpp"
#include "perfgauge/harness/selftest_figures.hpp"
#include "perfgauge/harness/selftest_plan.hpp"

namespace perfgauge::harness {

/// One chain a measured child process samples: benchmark `name` (with params {kWorkParam,
/// work}) of `operations` dependent multiply-adds.
struct ChainWork {
    std::string name, work;
    std::uint64_t operations = 0;
};

/// What one selftest child process does.
struct ChainJob {
    /// Without a result_path: the chain of `operations`, `iterations` times, then exit 0 (stat
    /// side by side times the whole process).
    std::uint64_t operations = 0;
    std::uint64_t iterations = 0;
    /// With a result_path: a Runner measures `chains` (interleaved, round by round) with this
    /// sampling and writes its result (JSON) there, as perfgauge run's measuring processes do.
    std::filesystem::path result_path;
    std::vector<ChainWork> chains;
    ChainSampling sampling;
};

/// The chains of a selftest run: base, same and each change, named "chain/WORK".
std::vector<ChainWork> run_chains(const SelftestPlan& plan);

/// The job as one line of JSON, and back (std::invalid_argument naming what is wrong).
std::string chain_job_to_json(const ChainJob& job);
ChainJob chain_job_from_json(std::string_view json);

/// The child's side: does `job` and returns its exit status (0; std::runtime_error when the
/// result cannot be written).
int run_chain_job(const ChainJob& job);

/// The argv of a child process that does `job`: the caller's (perfgauge's own executable with
/// its hidden option), so that nothing here knows option names.
using ChainArgv = std::function<std::vector<std::string>(const ChainJob&)>;

/// Progress between trials: (phase, done, total).
using SelftestProgress = std::function<void(std::string_view, std::size_t, std::size_t)>;

/// The separate runs: plan.runs fresh processes one after another, each measuring every chain
/// of run_chains() with the plan's sampling (a Runner of its own, calibrated anew, its seed
/// drawn), as separate perfgauge runs would; their results read back from their files. A
/// child that fails ends the runs, keeping those before it (`failure` says why). Interrupted
/// when perfgauge is.
struct SeparateRuns {
    std::vector<RunResult> runs;
    std::string failure;
};
SeparateRuns measure_separate_runs(const SelftestPlan& plan, const ChainArgv& argv,
                                   const SelftestProgress& progress = {});

/// The trials of one way of measuring across processes, and why they stopped early ("": they
/// did not): a child that failed ends them, keeping the trials before it.
struct ProcessTrials {
    ComparisonTrials trials;
    std::string failure;
    double seconds = 0;  ///< wall time of the trials
};

/// stat side by side: plan.processes.side_by_side_trials runs of every chain (base, same, each
/// change), `iterations` iterations each, interleaved as stat interleaves them, each compared
/// with compare_side_by_side. Interrupted when perfgauge is.
ProcessTrials side_by_side_trials(const SelftestPlan& plan, std::uint64_t iterations,
                                  const ChainArgv& argv, const SelftestProgress& progress = {});

/// run --against: plan.processes.against_trials runs of measure_pairs over every work (same,
/// each change), one side's processes doing the base chain, the other's the work, compared as
/// run --against compares (compare_results over paired runs). Interrupted when perfgauge is.
ProcessTrials against_trials(const SelftestPlan& plan, const ChainArgv& argv,
                             const SelftestProgress& progress = {});

/// Throws Interrupted ("nothing is reported") once perfgauge has been interrupted
/// (interrupt_signal()): selftest reports whole or not at all.
void stop_if_interrupted();

/// How many iterations make the chain last `seconds` at `base_ns_per_iteration` (at least 1;
/// 1 ns per operation when that is not a positive number).
std::uint64_t iterations_lasting(double seconds, double base_ns_per_iteration,
                                 std::uint64_t operations);

}  // namespace perfgauge::harness
