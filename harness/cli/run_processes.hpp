// perfgauge run --processes N: the native measurement split over N fresh processes of
// perfgauge itself, one after another, so that effects lasting a whole process (code and data
// placement, the host's state while it ran) show as differences between processes instead of
// passing for a property of the code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/run_request.hpp"

namespace perfgauge::cli {

/// `request` as a measuring process's: no outputs of its own, no notes to say again, measured
/// here (the share of rounds, seed and budget, and its place, are the caller's to set).
harness::RunRequest measuring_request(harness::RunRequest request);

/// perfgauge `executable` run as the measuring process `request` describes.
std::vector<std::string> measuring_argv(const std::string& executable,
                                        const harness::RunRequest& request);

/// harness::measure_in_processes with `perfgauge run` as each measuring process: the same
/// suite, events and timing options, and the process's share (rounds, seed, budget, file).
harness::RunResult measure_in_processes(const harness::RunRequest& request, std::uint64_t seed);

}  // namespace perfgauge::cli
