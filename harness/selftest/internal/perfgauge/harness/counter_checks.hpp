// selftest --counters: do this machine's counters count right? Loops of known work
// (pmu/known_loops.hpp) counted through perfgauge's own counter groups and Session, each judged
// by counter_judging.hpp: instructions exact (a*n + b, one b), cycles plausible, branch-misses
// near 0 and near 0.5 per iteration, a multiplexed list scaled within 1%, user-space reads
// equal to read(), and a Session's corrected regions equal to their work. A check that cannot
// run here says why (the kernel's reason, or the machine's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/counter_judging.hpp"

namespace perfgauge::harness {

/// How much work the checks count; the defaults take well under a second on hardware and
/// about a second of guest time in the arm64 guest.
struct CounterCheckPlan {
    /// Sizes of the straight loop for the exact check (each counted `repeats` times).
    std::vector<std::uint64_t> sizes = {10000, 100000, 1000000, 10000000};
    std::size_t repeats = 3;
    /// The multiplexed loop: long enough that a rotation's edge is far below 1% (at 1e7 the
    /// guest's scaled counts came out 0.8% off, at 1e8 0.04%).
    std::uint64_t multiplex_iterations = 100000000;
    /// Bytes of branch_loop (a table a predictor cannot learn) and its seed.
    std::uint64_t branch_iterations = 1 << 20;
    std::uint64_t seed = 51;
    /// Entries of the Session check's outer region (each holds two inner ones).
    int region_entries = 4;
};

/// The checks, in the order run_counter_checks() returns them.
inline constexpr const char* kCounterCheckNames[] = {"instructions",
                                                     "cycles",
                                                     "branch-misses predictable",
                                                     "branch-misses random",
                                                     "multiplexing",
                                                     "user-space reads",
                                                     "regions"};

/// Why no hardware event can be counted here ("instructions:u: not supported: ..."), or
/// nullopt when instructions:u opens.
std::optional<std::string> hardware_counting_unavailable();

/// Runs every check in order (instructions, cycles, branch-misses predictable and random,
/// multiplexing, user-space reads, regions).
std::vector<CounterCheck> run_counter_checks(const CounterCheckPlan& plan = {});

}  // namespace perfgauge::harness
