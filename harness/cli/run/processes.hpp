// perfgauge run's measuring processes, started as this executable: the argv that hands a child
// its request (harness::measuring_request), and the --processes fan-out over them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/run_request.hpp"

namespace perfgauge::cli {

/// perfgauge `executable` run as the measuring process `request` describes.
std::vector<std::string> measuring_argv(const std::string& executable,
                                        const harness::RunRequest& request);

/// harness::measure_in_processes with `perfgauge run` as each measuring process: the same
/// suite, events and timing options, and the process's share (rounds, seed, budget, file).
harness::RunResult measure_in_processes(const harness::RunRequest& request, std::uint64_t seed);

}  // namespace perfgauge::cli
