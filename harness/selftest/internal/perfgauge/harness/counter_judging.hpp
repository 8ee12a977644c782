// The judging of selftest --counters: counts of loops whose work is known (pmu/known_loops.hpp)
// against what that work must count. Pure: plain functions over plain counts, unit-tested on
// fake counts; counter_checks.hpp takes the counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/counter_check.hpp"  // CounterCheck: the data the writers say

namespace perfgauge::harness {

/// One count of a loop of `iterations` iterations.
struct LoopCount {
    std::uint64_t iterations = 0;
    double count = 0;
};

/// Least-squares a and b of count = a * iterations + b (nullopt: fewer than two distinct n).
struct LineFit {
    double a = 0;
    double b = 0;
};
std::optional<LineFit> fit_line(const std::vector<LoopCount>& counts);

/// How far a count may stray from a*n + b and still be exact: 2 instructions, plus one in a
/// million of the count (an interrupt returning into the loop can be charged an instruction on
/// some cores). In the arm64 guest every count sits on the line to the instruction.
double exact_tolerance(double count);

/// instructions: every count equals per_iteration * n + b, one b for every n (within
/// exact_tolerance). measured: the fitted a; expected: per_iteration.
CounterCheck judge_exact_instructions(const std::vector<LoopCount>& counts, unsigned per_iteration);

/// Plausible cycles per instruction of the straight loop on any core: at least 1/8 (no core
/// retires more than 8 instructions a cycle), at most 50 (a 3-instruction loop from L1).
inline constexpr double kMinCyclesPerInstruction = 1.0 / 8;
inline constexpr double kMaxCyclesPerInstruction = 50;

/// cycles: counted, non-zero, and cycles / instructions within the plausible range.
CounterCheck judge_cycles(double instructions, double cycles);

/// branch-misses per iteration of branch_loop: near `expected` (0 over zeros, 0.5 over seeded
/// random bytes) within `tolerance`.
CounterCheck judge_branch_misses(std::string name, double misses, std::uint64_t iterations,
                                 double expected, double tolerance);
inline constexpr double kPredictableMissTolerance = 0.02;
inline constexpr double kRandomMissTolerance = 0.1;

/// One event of a multiplexed list: its count scaled by enabled / running, and that fraction.
struct ScaledEvent {
    double scaled = 0;
    double running_fraction = 0;
    bool counted = false;
};
/// Scaled counts may be this far from the unmultiplexed count (relative).
inline constexpr double kMultiplexTolerance = 0.01;
/// multiplexing: every event counted and scaled within 1% of `exact`, the unmultiplexed count
/// of the same loop; unavailable when no event ran less than all the time (nothing was
/// multiplexed). measured: the scaled count farthest from exact.
CounterCheck judge_multiplexed(const std::vector<ScaledEvent>& events, double exact);

/// user-space reads: the loop's instructions seen through user-space reads and through read()
/// of the same counter, as the difference between two loop sizes (each path's own cost
/// cancels): equal, and per_iteration per iteration. measured: user-space reads' count of the
/// difference; expected: read()'s.
CounterCheck judge_user_reads(const std::vector<LoopCount>& user_reads,
                              const std::vector<LoopCount>& read_calls, unsigned per_iteration);

/// One region of a Session around known work: its corrected count per entry and that work.
struct RegionCount {
    std::string name;
    std::size_t depth = 0;
    double corrected_per_entry = 0;
    double work_per_entry = 0;
};
/// A region's corrected count may be this far from its work per entry (what calibration
/// cannot see: the loop's count load, the part of a nested entry its parent keeps).
inline constexpr double kRegionTolerance = 128;
/// regions: every region's corrected count per entry within kRegionTolerance of its work.
/// measured / expected: of the region farthest off.
CounterCheck judge_regions(const std::vector<RegionCount>& regions);

}  // namespace perfgauge::harness
