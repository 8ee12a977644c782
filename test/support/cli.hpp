// Helpers shared by the end-to-end CLI tests.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "../pmu/sysfs_pmu.hpp"
#include "run_process.hpp"

namespace perfgauge::test {

/// The sanitized perfgauge the sanitizer stage of scripts/test.sh names in
/// PERFGAUGE_TEST_SANITIZED_CLI, or nullptr: that stage runs the release build's drivers against
/// its sanitized binary that way (test/CMakeLists.txt), instead of compiling every driver twice.
inline const char* sanitized_cli_from_environment() {
    const char* sanitized = std::getenv("PERFGAUGE_TEST_SANITIZED_CLI");
    return sanitized != nullptr && *sanitized != '\0' ? sanitized : nullptr;
}

/// The perfgauge binary the end-to-end tests start: that one, or the one this driver was built
/// beside.
inline const char* cli_under_test() {
    static const char* const path = [] {
        const char* sanitized = sanitized_cli_from_environment();
        return sanitized != nullptr ? sanitized : PERFGAUGE_CLI_BUILT_PATH;
    }();
    return path;
}

/// Whether that binary runs under AddressSanitizer (some expectations differ: valgrind cannot
/// run it, its page faults and start-up cost more).
inline bool cli_under_test_is_sanitized() {
    return sanitized_cli_from_environment() != nullptr || PERFGAUGE_CLI_BUILT_SANITIZED;
}

// The names the tests use.
#define PERFGAUGE_CLI_PATH (::perfgauge::test::cli_under_test())
#define PERFGAUGE_SANITIZED_BUILD (::perfgauge::test::cli_under_test_is_sanitized())

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

/// Whether the kernel exposes a core PMU (expectations differ with and without one): `cpu` or
/// `cpu_core` on x86, the arm_pmu driver's `armv8_pmuv3_0`, ... on arm64 (the guest of
/// scripts/arm64-guest.sh runs these tests there).
inline bool hardware_pmu_present() {
    return sysfs_lists_core_pmu();
}

}  // namespace perfgauge::test
