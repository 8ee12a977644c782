// perfgauge run --against OTHER's measuring loop: this build and another perfgauge build
// measured in turn, benchmark by benchmark - each benchmark in --pairs pairs of fresh processes,
// one of each build, alternating which goes first (A B, B A, ...) - so that what changes on a
// shared machine from one second to the next falls on both builds of a pair alike and cancels
// in the pair's ratio. How a measuring process is started is the caller's (a function), so the
// pairing order, the stopping rule and what a failed or killed process does are unit-tested
// without the binary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/exit_status.hpp"
#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// One build's side of the measurement: for every benchmark measured in full, its pairs'
/// results merged (merge_processes: process i of one build paired with process i of the other).
struct AgainstSide {
    std::string executable;  ///< as given, in messages
    const char* label;       ///< in messages: "this build", "the other build"
    std::vector<RunResult> benchmarks;
    std::string launch;  ///< what is executed: `executable`, of one length (equal_length_paths)
};

/// The two builds' executables as absolute paths of one length, so that both sides' processes
/// get argv of equal length: the shorter is padded with slashes before its file name
/// ("/a/b///perfgauge"), which names the same file on any filesystem and keeps its directory
/// for a wrapper script's `dirname "$0"`. With result files named -own and -other, memcpy hot 4K
/// ran 6% apart in the two sides' processes of one binary (every pair, three runs); with names
/// of one length it did not. Likely the heap's layout following argv's lengths; not pinned down.
std::pair<std::string, std::string> equal_length_paths(const std::string& a, const std::string& b);

/// What the pairs are measured of and how many: fixed for the whole loop.
struct PairsPlan {
    std::vector<std::string> benchmarks;  ///< names, in the order they are measured
    std::size_t pairs = 6;                ///< the fewest pairs per benchmark (--pairs)
    std::size_t max_pairs = 30;           ///< pairs are added while the interval is wide
    double precision = 0.05;              ///< pairs_precise_enough's, a share
    std::size_t repetitions = 10;         ///< a benchmark's rounds, shared by a side's processes
    std::uint64_t seed = 0;               ///< pair i's processes get seed + i
    int request_format = 0;               ///< named when a child refuses its request (exit 2)
};

/// One measuring process of a pair: of which benchmark and pair (0-based), its share of the
/// rounds, its seed and the file it writes its result to (JSON, one benchmark).
struct PairedProcess {
    std::size_t benchmark = 0, pair = 0;
    std::size_t repetitions = 0;
    std::uint64_t seed = 0;
    std::filesystem::path result_path;
};

/// Starts `side`'s build (side.launch) as the measuring process `process`, waits for it and
/// returns how it ended.
using PairedLaunch =
    std::function<ExitStatus(const AgainstSide& side, const PairedProcess& process)>;

/// What the pairs loop tells its caller, and asks it; every member may be empty.
struct PairsHooks {
    /// Before pair `pair` (0-based) of benchmark `benchmark` (0-based) is measured.
    std::function<void(std::size_t benchmark, std::size_t pair)> before_pair;
    /// The signal that interrupted perfgauge, 0 when none (interrupt_signal()): asked after
    /// every process. A seam for tests.
    std::function<int()> interrupt_signal;
};

/// How the pairs went: where measuring stopped early (an interrupt, or a child that failed:
/// `failure`, its message), and the fewest and most pairs a benchmark took.
struct PairsDone {
    std::string stopped_at, failure;
    std::size_t fewest = 0, most = 0;
};

/// Measures every benchmark of `plan` in pairs of processes of `own` and `other`: plan.pairs,
/// then two more at a time while pairs_done says so, up to plan.max_pairs; which build goes
/// first alternates with the pair and the benchmark (the other first in pair 0 of benchmark
/// 0); each process takes its share of the rounds (repetitions_per_process over plan.pairs,
/// added pairs taking the shares again). Each process's result is read from the file it was
/// given and must hold exactly its benchmark. Stops at the first interrupt or failed process
/// (its benchmark and the ones after it are left out: a pair needs both sides); the benchmarks
/// measured in full are appended, their pairs merged (merge_processes), to own.benchmarks and
/// other.benchmarks.
PairsDone measure_pairs(const PairsPlan& plan, AgainstSide& own, AgainstSide& other,
                        const PairedLaunch& launch, const PairsHooks& hooks = {});

}  // namespace perfgauge::harness
