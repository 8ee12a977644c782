// perfgauge run --processes N: the native measurement split over N fresh measuring processes,
// one after another, so that effects lasting a whole process (code and data placement, the
// host's state while it ran) show as differences between processes instead of passing for a
// property of the code. How one process is started is the caller's: a function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "perfgauge/harness/exit_status.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// How a run's repetitions are shared: process i of n takes repetitions / n rounds, the first
/// repetitions % n processes one more. Throws std::invalid_argument when there are fewer
/// rounds than processes (or no process).
std::vector<std::size_t> repetitions_per_process(std::size_t repetitions, std::size_t processes);

/// What one measuring process is asked to do.
struct ProcessShare {
    std::size_t index = 0;      ///< 0-based, in the order the processes run
    std::size_t processes = 1;  ///< how many there are in all
    std::size_t repetitions = 0;
    std::uint64_t seed = 0;             ///< the run's seed + index
    double max_time_s = 0;              ///< the run's per-benchmark budget, shared like the rounds
    std::filesystem::path result_path;  ///< where it writes its result (JSON), private to it
};

/// Starts one measuring process for `share`, waits for it and returns how it ended.
using MeasuringProcess = std::function<ExitStatus(const ProcessShare&)>;

struct FanOut {
    std::size_t processes = 1;
    std::size_t repetitions = 1;
    std::uint64_t seed = 0;
    double max_time_s = 0;
    /// The signal that interrupted perfgauge, 0 when none (interrupt_signal()): asked after
    /// every process. A seam for tests.
    std::function<int()> interrupt_signal;
};

/// Runs the processes one after another, each with its share of the repetitions, and merges
/// their results (merge_processes). After an interruption the processes already done are kept,
/// and so is the interrupted one's result when it sampled every benchmark (it saves what it
/// had); the merged result then records the signal. Returns an empty result when nothing was
/// sampled. A process that fails (an exit status, a signal, no readable result) loses its own
/// samples only: the later ones still run, the others are merged, the result's warnings name
/// the process lost and why, and each is a failed stage (record_stage_failure: exit status 1).
/// Throws std::runtime_error naming the first failure when every process failed.
RunResult measure_in_processes(const FanOut& fan_out, const MeasuringProcess& run_process);

}  // namespace perfgauge::harness
