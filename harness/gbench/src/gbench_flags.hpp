// perfgauge's own flags in a Google Benchmark binary, and the command line of its simulation
// child: pure functions over argument lists, unit-tested without running anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"

namespace perfgauge::gbench {

/// The Google Benchmark context key that says the benchmarks were built without optimization
/// (absent when they were).
inline constexpr std::string_view kUnoptimizedContextKey = "perfgauge_unoptimized";

struct GbenchFlags {
    std::optional<std::string> events;                       ///< --perfgauge_events=LIST
    harness::Backend backend = harness::Backend::automatic;  ///< --perfgauge_backend=
    std::uint64_t sim_items = 100000;                        ///< --perfgauge_sim_items=N
    /// --internal-sim-child=M: this process is the simulation child (under valgrind) and
    /// writes its manifest to M.
    std::optional<std::string> sim_child_manifest;
};

/// Takes perfgauge's flags out of `args` (the others keep their order). Throws
/// std::invalid_argument for a bad value, naming the flag.
GbenchFlags take_perfgauge_flags(std::vector<std::string>& args);

/// The simulation child's arguments: the user's (the filter, the binary's own flags) minus
/// Google Benchmark's reporting, repetition and timing flags, plus the ones that make every
/// benchmark run with 1, 10, 100... iterations (no clock decides: a minimum time no run
/// reaches) until perfgauge stops it, once.
std::vector<std::string> simulation_child_arguments(const std::vector<std::string>& user_args);

/// Whether Google Benchmark was asked only to list the benchmarks (nothing to simulate).
bool lists_tests_only(const std::vector<std::string>& args);

/// The value of --NAME=VALUE in `args` (the last one wins), or nullopt.
std::optional<std::string> flag_value(const std::vector<std::string>& args, std::string_view name);

/// A per-item counter's name in state.counters: the event in upper case, "[sim]" appended when
/// callgrind simulated it, so a simulated count is never read as a hardware one.
std::string counter_name(std::string_view event, bool simulated);

/// One thread's share of a per-item counter. Google Benchmark sums each thread's counters, so a
/// thread stores count / (items x threads): with every thread processing the same number of
/// items (as Google Benchmark runs them) the sum is the count per item across threads, not the
/// per-thread value multiplied by the number of threads.
double per_item_share(double count, double items, int threads);

}  // namespace perfgauge::gbench
