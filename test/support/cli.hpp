// Helpers shared by the end-to-end CLI tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace perfgauge::test {

/// Runs the perfgauge binary under test with `args`.
inline ProcessResult perfgauge(std::vector<std::string> args) {
    args.insert(args.begin(), PERFGAUGE_CLI_PATH);
    return run_process(args);
}

/// The same, run as `options` say (working directory, outputs, a signal).
inline ProcessResult perfgauge_with(const ProcessOptions& options, std::vector<std::string> args) {
    args.insert(args.begin(), PERFGAUGE_CLI_PATH);
    return run_process(args, options);
}

/// Whether the kernel exposes a core PMU (expectations differ with and without one).
inline bool hardware_pmu_present() {
    return std::filesystem::exists("/sys/bus/event_source/devices/cpu") ||
           std::filesystem::exists("/sys/bus/event_source/devices/cpu_core");
}

}  // namespace perfgauge::test
