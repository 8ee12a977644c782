// perfgauge run --processes N: the native measurement split over N fresh processes of
// perfgauge itself, one after another, so that effects lasting a whole process (code and data
// placement, the host's state while it ran) show as differences between processes instead of
// passing for a property of the code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::cli {

/// The options every measuring child takes over unchanged besides the selection and the
/// backend: events, sample and warm-up time, precision, interleaving and scheduling.
std::vector<std::string> timing_arguments(const po::variables_map& vm);

/// How a run's repetitions are shared: process i of n takes repetitions / n rounds, the first
/// repetitions % n processes one more. Throws UsageError when there are fewer rounds than
/// processes.
std::vector<std::size_t> repetitions_per_process(std::size_t repetitions, std::size_t processes);

/// Runs `perfgauge run` once per process with the same suite, events and timing options, its
/// share of the repetitions and seed + i, each writing its result to a private directory, and
/// merges them (harness::merge_processes). Throws std::runtime_error naming the process that
/// failed.
harness::RunResult measure_in_processes(const po::variables_map& vm, std::size_t processes,
                                        std::uint64_t seed);

}  // namespace perfgauge::cli
