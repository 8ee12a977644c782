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

/// harness::repetitions_per_process, its refusal a UsageError.
std::vector<std::size_t> repetitions_per_process(std::size_t repetitions, std::size_t processes);

/// harness::measure_in_processes with `perfgauge run` as each measuring process: the same
/// suite, events and timing options, and the process's share (rounds, seed, budget, file).
harness::RunResult measure_in_processes(const po::variables_map& vm, std::size_t processes,
                                        std::uint64_t seed);

}  // namespace perfgauge::cli
