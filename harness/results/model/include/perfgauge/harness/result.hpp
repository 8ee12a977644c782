// The result of running benchmarks: every sample of every benchmark, per item, with the events
// as typed columns and the facts about the machine recorded when it was measured. Plain data:
// writers (run_report.hpp) render it, result_file.hpp reads it back, compare.hpp compares it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgauge/harness/event_column.hpp"
#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::harness {

/// A sample left out of the statistics because the thread did not have the CPU for the whole
/// batch: it was switched out involuntarily (beyond what a long batch shrugs off), its wall time
/// exceeded its CPU time beyond the tolerance, the machine ran slow or the hypervisor stole
/// time (sample_health.hpp). Kept so that a reader can see what was excluded.
struct DisturbedSample {
    std::size_t round = 0;
    double ns_per_item = 0;          ///< corrected, as it would have counted
    double wall_ns = 0, cpu_ns = 0;  ///< the whole batch, pauses included
    std::uint64_t involuntary_switches = 0;
    double probe_slowdown = 1;  ///< the slower bracketing probe / the run's reference
    /// How far its CPU's steal time (/proc/stat) advanced around the batch, at most its wall
    /// time: whole 10 ms ticks, so it says the host took the CPU, not for how long.
    double steal_ns = 0;
};

struct BenchmarkResult {
    std::string name;
    std::vector<std::pair<std::string, std::string>> params;
    double items_per_iteration = 1;
    double bytes_per_iteration = 0;
    std::uint64_t iterations = 0;     ///< per sample (the batch size)
    std::vector<double> ns_per_item;  ///< corrected, one per sample
    std::vector<double> raw_ns_per_item;
    std::vector<std::vector<double>> counters_per_item;      ///< [event][sample], corrected
    std::vector<std::vector<double>> raw_counters_per_item;  ///< [event][sample]
    std::vector<double> running_fraction;                    ///< [event]: lowest over the samples
    /// Per sample: the interleaved round it was taken in (samples of one round of one result
    /// are paired when variants are compared). Empty: rounds 0, 1, 2, ...
    std::vector<std::size_t> rounds;
    /// Per sample: which of the run's measuring processes took it (perfgauge run --processes).
    /// Effects that last a whole process - code and data placement, the host's state while it
    /// ran - show only as differences between processes. Empty: one process.
    std::vector<std::size_t> processes;
    /// Per sample: the thread's CPU time per item over the whole batch. Empty: not recorded.
    std::vector<double> cpu_ns_per_item;
    /// Per sample of a pausing benchmark timed apart from its counts (a counter snapshot was a
    /// system call): what the snapshots added to its time, per pause/resume pair, in ns - the
    /// batch whose pauses snapshot the counters against the one beside it whose pauses read
    /// only the clock (that one gave ns_per_item); NaN for a sample without a pause. Empty:
    /// timed with its counts.
    std::vector<double> snapshot_pause_ns;
    std::vector<DisturbedSample> disturbed;  ///< excluded from every statistic
};

/// What wrote the file a RunResult was read from. Every kind is read into this one model at the
/// edge (result_file.hpp), so comparisons and exports have a single path; the kind says what a
/// sample and its values are per, and which results can be matched with which.
enum class ResultKind {
    run,               ///< perfgauge run: benchmarks, one sample per batch, values per item
    stat,              ///< perfgauge stat: one command, one sample per run of it, values per run
    google_benchmark,  ///< Google Benchmark JSON: one sample per repetition, values per iteration
};

/// "a perfgauge run result", "a perfgauge stat result", "a Google Benchmark result".
std::string_view kind_description(ResultKind kind);
/// What each value of a result of that kind is per: "item", "run", "iteration".
std::string_view sample_unit(ResultKind kind);

struct RunResult {
    ResultKind kind = ResultKind::run;
    std::string date;  ///< ISO 8601, local time
    SystemInfo system;
    std::string clock;
    /// The perfgauge that measured it (version, compiler, its flags), as read from its file;
    /// empty: this build, written as such.
    std::string version, compiler, compiler_flags;
    double batch_overhead_ns = 0;  ///< subtracted once per sample
    double pause_overhead_ns = 0;  ///< subtracted once per pause()/resume() pair
    /// Subtracted once per pair instead in a benchmark timed apart from its counter snapshots
    /// (a pair that reads only the clock; see BenchmarkResult::snapshot_pause_ns); 0: the run
    /// timed nothing apart (its snapshots were no system call, or there were no counters).
    double clock_pause_overhead_ns = 0;
    /// How far the subtracted pair's cost moves with the work around it: calibrated between six
    /// kinds of work, the median of which is subtracted, this is how far a pair beside work
    /// that is none of them may be from it (the 95% prediction interval of one more kind from
    /// the six, at least the furthest kind's distance; files before 2026-12 hold the furthest
    /// kind's distance). A corrected time may be off by this much per pair; 0: not measured
    /// (files before it). (Where pauses are timed apart, of the clock-only pair subtracted from
    /// times.)
    double pause_overhead_spread_ns = 0;
    /// perfgauge's own fixed probe (a short chain of dependent multiply-adds, the same in every
    /// run): its fastest time in this run, in ns. Every sample is bracketed by the probe (a
    /// transiently slow probe makes the sample disturbed); two runs whose fastest probes differ
    /// ran on a machine in different states. 0: not recorded.
    double machine_probe_ns = 0;
    /// The median of perfgauge's throughput probe (copies of a buffer that stays in L1) over the
    /// run, in ns: it moves when a sibling hardware thread competes for the core, which the
    /// chain above does not feel. 0: not recorded.
    double machine_copy_probe_ns = 0;
    /// How much slower the machine probe ran over the samples than while the pause/resume
    /// pairs were calibrated (0.3: 30% slower, -0.1: 10% faster): the pairs subtracted were
    /// priced on the machine as it was then. Of several processes, the largest. Nullopt: not
    /// measured (no sample was timed, e.g. interrupted first, or no probe reading), which is not
    /// "no drift".
    std::optional<double> pause_calibration_drift;
    std::uint64_t seed = 0;
    std::size_t repetitions = 0;
    std::size_t processes = 1;  ///< measuring processes the samples came from
    /// perfgauge run --against: a token this result shares with the other build's, measured in
    /// turn with it benchmark by benchmark (process i of each benchmark beside the other's
    /// process i), so perfgauge compare pairs them. Empty: measured on its own.
    std::string in_turn_with;
    /// The precision sampling aimed for: the half-width of the 95% interval of each median, as a
    /// share of it (0: a fixed number of samples). Entries that missed it are "imprecise".
    double precision_target = 0.01;
    /// Counted per item, in counters_per_item order; refused ones say why (values are 0).
    std::vector<EventColumn> events;
    std::vector<std::string> warnings;  ///< conditions that make numbers less reliable
    /// Facts about the benchmarks' set-up recorded with the result (cache sizes used, ...).
    std::vector<std::pair<std::string, std::string>> context;
    /// How simulated counts were obtained (notice, simulator, caches, ...); empty when none.
    std::vector<std::pair<std::string, std::string>> simulation;
    std::vector<BenchmarkResult> benchmarks;
    /// What stopped the run before it had every sample it planned ("SIGINT"): its benchmarks
    /// rest on fewer samples, and some may be missing (see warnings). Empty: it ran to the end.
    std::string interrupted_by;
};

/// One result from the results of several measuring processes of the same benchmarks (perfgauge
/// run --processes): samples appended in process order, each tagged with its process, rounds
/// renumbered so that no two processes share one (pairs stay within a process), the fastest
/// chain probe and the mean of the copy probes' medians, the calibrated overheads of the first
/// process, every warning once (one that only some parts gave ends "(in LABEL, ...)": their
/// `labels` entries, else "measuring process N of M"). Throws std::invalid_argument when the
/// parts did not measure the same benchmarks with the same events, naming the part by its
/// `labels` entry (e.g. its file) when there is one.
RunResult merge_processes(std::vector<RunResult> parts, std::span<const std::string> labels = {});

/// One result from results of different benchmarks measured apart (perfgauge run --against: one
/// child process per benchmark and pair): benchmarks appended in order, each one's rounds moved
/// past every earlier one's, since samples of different processes were never taken in one round
/// and must not be paired as if they were; the run's facts as merge_processes takes them. The
/// parts may come from different numbers of processes: the joined result has the most.
/// Throws std::invalid_argument when the parts' events differ or a benchmark name repeats.
RunResult join_benchmarks(std::vector<RunResult> parts);

/// The median of b.snapshot_pause_ns over the samples that paused (NaN: none, or not timed
/// apart).
double median_snapshot_pause_ns(const BenchmarkResult& b);

/// The round sample `sample` of `b` was taken in (its index when rounds are not recorded).
inline std::size_t round_of(const BenchmarkResult& b, std::size_t sample) {
    return sample < b.rounds.size() ? b.rounds[sample] : sample;
}

/// Each measuring process's sample indices of `b` in the order they were taken (by round), by
/// process in ascending order.
std::vector<std::vector<std::size_t>> samples_by_process(const BenchmarkResult& b);

/// Each measuring process's times per item (`ns_per_item`) in the order they were taken: the
/// series drift_over_time looks for a trend within.
std::vector<std::vector<double>> time_series_by_process(const BenchmarkResult& b);

/// The blocks of consecutive samples that batch means cut a benchmark's samples into (compare
/// across results): each measuring process's samples in the order they were taken (by round),
/// cut into up to `max_per_process` blocks of at least `min_size` samples (a process with fewer
/// samples is one block of its own). Per sample, its block's index; a block never spans two
/// processes, so what lasts a process shows between blocks.
std::vector<std::size_t> time_blocks(const BenchmarkResult& b, std::size_t max_per_process = 6,
                                     std::size_t min_size = 3);

/// "cycles: not supported: ..." for every event that was not counted, in event order.
std::vector<std::string> refusal_lines(const RunResult& result);

}  // namespace perfgauge::harness
