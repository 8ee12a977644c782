// The simulated backend for benchmarks: the same benchmarks re-run under valgrind's callgrind,
// each batch between client requests, and the counts merged into the native result.
//
// Two processes take part. The parent (perfgauge run) starts
//   valgrind --tool=callgrind --instr-atstart=no ... perfgauge run --internal-request=REQUEST
// (the request names the manifest M; a Google Benchmark binary gets --internal-sim-child=M)
// whose child builds the same benchmarks (same data seed), runs run_simulated_batches(), and writes
// the manifest M naming each batch's dump; the parent then reads callgrind's dumps and turns
// them into counts per item. Time is never taken from the simulation.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/stat_result.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/callgrind_output.hpp"

namespace perfgauge::harness {

/// One simulated batch as the child ran it.
struct SimulatedBatch {
    std::string name;
    std::string dump;  ///< the dump's trigger reason ("perfgauge:3")
    std::uint64_t warmup_iterations = 0;
    std::uint64_t iterations = 0;  ///< counted
    double items_per_iteration = 1;
    std::uint64_t pauses = 0;  ///< pause()/resume() pairs inside the counted iterations
    double seconds = 0;  ///< wall time of its simulation process: the time breakdown, never a count
};

/// What the child writes: every batch, plus the two calibration batches (an empty body, and
/// kCalibrationPauses pause/resume pairs) whose counts are subtracted like the native
/// runner's overheads.
struct SimulationManifest {
    SimulatedBatch empty, pauses;
    std::vector<SimulatedBatch> batches;
};

inline constexpr std::uint64_t kCalibrationPauses = 16;
inline constexpr std::uint64_t kDefaultSimulatedItems = 100000;

std::string manifest_to_json(const SimulationManifest& manifest);
/// Throws pmu::SimulationError on malformed text.
SimulationManifest manifest_from_json(const std::string& text);

/// Child side (inside valgrind). Each benchmark: instrumentation on, warm-up iterations (to
/// fill the simulated caches and train the predictor, skipped when one iteration's bytes
/// exceed `ll_bytes`: they could not stay cached anyway), zero, at least `min_items` items
/// counted, dump, instrumentation off. Fixed iteration counts, no clock: deterministic. Each
/// benchmark runs in a process forked for it once the calibration batches have run, `jobs`
/// at once: every benchmark starts from the same simulator state, so its counts are the same
/// whatever ran before or beside it (jobs = 1 gives the same counts as jobs = 8).
SimulationManifest run_simulated_batches(const std::vector<Benchmark>& benchmarks,
                                         std::uint64_t min_items, std::uint64_t ll_bytes,
                                         unsigned jobs = 1);

/// Per benchmark (manifest order): counts per item of each simulated event, corrected (the
/// calibrated batch and pause costs subtracted, never below zero) and raw.
struct SimulatedCounts {
    std::string name;
    double items = 0;                            ///< counted items
    std::vector<double> per_item, raw_per_item;  ///< [event]
    double seconds = 0;                          ///< its simulation process's wall time
};

/// Pure: matches dumps to batches by trigger and maps callgrind's events to `events`
/// (simulated event names, modifiers allowed). Throws pmu::SimulationError when a batch has no
/// dump or an event is not simulated.
std::vector<SimulatedCounts> simulated_counts(const SimulationManifest& manifest,
                                              const std::vector<pmu::CallgrindDump>& dumps,
                                              const std::vector<std::string>& events);

/// The simulated caches: L1i, L1d and the last level from sysfs, fitted to valgrind.
struct SimulatedCaches {
    std::optional<pmu::SimCache> i1, d1, ll;
    std::vector<std::string> notes;  ///< adjustments, caches that could not be used
};
/// Sizes given by the user (perfgauge run --l1d/--l3) replace the detected ones, keeping the
/// detected associativity, so "cold" means the same to the simulation as to the sweep.
SimulatedCaches simulated_caches(const std::vector<CacheLevel>& caches,
                                 std::optional<std::uint64_t> l1d_bytes = std::nullopt,
                                 std::optional<std::uint64_t> ll_bytes = std::nullopt);

struct SimulationRequest {
    pmu::CallgrindSetup setup;  ///< out_file is set by simulate()
    /// The child command; without program_for it gets --internal-sim-child=M (and --sim-jobs)
    /// appended: a program that takes options (a Google Benchmark binary).
    std::vector<std::string> program;
    /// The child command when the child is told where its manifest goes in its own request
    /// (perfgauge run's simulation child): given the manifest's path M, the whole command.
    /// program's first word still names it in messages.
    std::function<std::vector<std::string>(const std::filesystem::path& manifest)> program_for;
    std::vector<std::string> events;  ///< simulated event names
    /// Simulation processes at once (after the native run), passed as --sim-jobs without
    /// program_for; 0: the child does not take that flag (a Google Benchmark binary simulates
    /// in one process).
    unsigned jobs = 0;
};

/// Whether any of `events` (simulated names) needs callgrind's cache simulation; without it
/// (instructions, branches, branch-misses) callgrind runs about twice as fast.
bool needs_cache_simulation(const std::vector<std::string>& events);

/// Simulation processes to run at once by default: the CPUs this process may run on.
unsigned default_simulation_jobs();

struct SimulationResult {
    std::vector<SimulatedCounts> benchmarks;
    std::string creator;  ///< "callgrind-3.19.0"
    double wall_seconds = 0;
    unsigned jobs = 1;      ///< simulation processes run at once
    bool cache_sim = true;  ///< callgrind simulated the caches (a cache event was asked for)
    /// Set when the simulation failed and gave no counts (valgrind missing, failing or killed,
    /// a full TMPDIR, no file descriptor left): why, for every simulated event. The native
    /// result stands alone; merge_simulated marks the simulated events not counted.
    std::optional<EventRefusal> failure;
};

/// What a run keeps when simulate() threw `error` after `wall_seconds`: no counts, and the
/// refusal every simulated event gets ("not counted", the error, what to do instead).
SimulationResult failed_simulation(const std::string& error, double wall_seconds);

/// Runs the child under callgrind in a private temporary directory (removed afterwards) and
/// reads its dumps. Throws pmu::SimulationError when it fails, with valgrind's exit status.
SimulationResult simulate(const SimulationRequest& request);

/// The pid in the name of a file valgrind makes in $TMPDIR as it starts and removes a moment
/// later (valgrind_proc_PID_cmdline_XXXXXXXX, valgrind_proc_PID_auxv_XXXXXXXX); 0 for any other
/// name. A valgrind killed in that moment (a Ctrl-C to the whole group) leaves it behind.
pid_t valgrind_temp_owner(const std::string& name);

/// Removes from `root` the files valgrind_temp_owner() names whose process is gone (this user's
/// only). simulate() needs none of it: its valgrind's $TMPDIR is its scratch directory.
void remove_valgrind_leftovers(const std::filesystem::path& root);

/// perfgauge stat --backend sim: the whole command (its children too) under callgrind.
struct CommandSimulation {
    std::vector<double> totals;  ///< per simulated event, summed over every process
    ExitStatus exit;             ///< of the command under valgrind
    std::size_t processes = 0;   ///< output files read (one per process)
    std::string creator;
    double wall_seconds = 0;
    /// The end of what the command wrote to stderr under callgrind (its stdout went to
    /// /dev/null): the command's output came once per counted run already, and is not repeated.
    std::string stderr_tail;
    /// Per Session region inside the command (PERFGAUGE_REGIONS=callgrind makes Sessions dump
    /// at their region boundaries), totals per simulated event.
    std::vector<RegionCounts> regions;
};

/// Pure: the last `max_lines` lines of `text` (at most `max_bytes` of them, "..." before what
/// is cut), without the final newline.
std::string output_tail(const std::string& text, std::size_t max_lines, std::size_t max_bytes);

/// Pure: the simulated counts of each Session region from a command's dumps (any order; they
/// are put in order by process and part), per simulated event name as written.
std::vector<RegionCounts> simulated_regions(std::vector<pmu::CallgrindDump> dumps,
                                            const std::vector<std::string>& events);

/// Runs `command` under callgrind (instrumented from the start, children followed) in a private
/// temporary directory and sums every dump. Its stdout goes to /dev/null and its stderr to a
/// file of that directory (CommandSimulation::stderr_tail), never into the user's output. With
/// `markers` (`stat --markers`) instrumentation starts off and only the markers of
/// perfgauge/marker.h turn it on (PERFGAUGE_MARKER_FD=callgrind tells them to issue callgrind's
/// client requests). Sessions (perfgauge::harness::Session) in the command dump at their region
/// boundaries (PERFGAUGE_REGIONS=callgrind), giving `regions`. Throws pmu::SimulationError when
/// valgrind cannot run it or wrote nothing.
CommandSimulation simulate_command(pmu::CallgrindSetup setup,
                                   const std::vector<std::string>& command,
                                   const std::vector<std::string>& events, bool markers = false);

/// Puts the simulated totals into a native `perfgauge stat` result (one sample each: the
/// simulation is deterministic), in the plan's event order; refused events become "not
/// supported" with the plan's reason.
void merge_simulated(StatResult& native, const EventPlan& plan, const CommandSimulation& sim);

/// Puts the simulated counts into `native` (the run of plan.native_list), giving every event of
/// the plan its place in list order and its source; refused events of the plan are listed as
/// unsupported. Every sample of a benchmark gets the same (deterministic) simulated value.
/// A failed simulation (sim.failure) leaves the native columns as measured and marks every
/// simulated event not counted, with the failure as the reason.
void merge_simulated(RunResult& native, const EventPlan& plan, const SimulationResult& sim);

}  // namespace perfgauge::harness
