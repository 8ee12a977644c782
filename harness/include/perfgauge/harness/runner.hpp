// The runner: warm-up, automatic batch sizing, repetitions in seeded random interleaving,
// every sample kept (preallocated, no I/O while measuring), per-item normalisation, and
// overhead correction (the batch's own measurement and every pause/resume inside it).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgauge/harness/clock.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

/// Handed to a benchmark body: how many iterations to run, and pause()/resume() to keep
/// per-batch set-up (e.g. flushing caches) out of the measurement.
class BatchState {
  public:
    std::uint64_t iterations() const { return iterations_; }
    void pause();
    void resume();

  private:
    friend class Runner;
    friend class SimulatedBatches;
    BatchState(const Clock& clock, pmu::CounterSet& counters);
    /// Under callgrind: pause()/resume() stop and restart the simulation's counting.
    BatchState();
    void reset(std::uint64_t iterations);

    const Clock* clock_ = nullptr;  // null: simulated
    pmu::CounterSet* counters_ = nullptr;
    std::uint64_t iterations_ = 0;
    std::uint64_t paused_at_ = 0;
    std::uint64_t paused_ticks_ = 0;
    std::size_t pauses_ = 0;
    pmu::CounterSet::Snapshot pause_snapshot_, resume_snapshot_;
    std::vector<pmu::ScaledCount> pause_delta_;
    std::vector<double> paused_counts_;
};

/// Keeps `value` (and the work that produced it) from being optimised away.
inline void benchmark_sink(std::uint64_t value) {
    asm volatile("" : : "r"(value) : "memory");
}

struct Benchmark {
    std::string name;
    double items_per_iteration = 1;  ///< per-item normalisation (varints, elements, ...)
    double bytes_per_iteration = 0;  ///< for bytes/s; 0: not a byte-oriented benchmark
    /// Runs state.iterations() iterations of the work.
    std::function<void(BatchState&)> run;
    /// What the benchmark is, as key/value pairs (e.g. variant=bmi2, cache=cold), recorded
    /// with its result so that results can be matched on everything but one key.
    std::vector<std::pair<std::string, std::string>> params;
};

struct RunnerOptions {
    std::string events = "task-clock,page-faults";
    std::size_t repetitions = 10;       ///< samples per benchmark
    double min_sample_time_s = 0.002;   ///< a batch lasts at least this, and >= 1000x the overhead
    double warmup_time_s = 0.02;        ///< per benchmark, also used to size the batch
    std::optional<std::uint64_t> seed;  ///< interleaving seed; drawn (and recorded) when unset
    bool interleave = true;             ///< shuffle benchmark order in every repetition
    std::optional<int> pin_cpu;         ///< sched_setaffinity to this CPU
    bool fifo = false;                  ///< SCHED_FIFO (needs CAP_SYS_NICE)
    bool mlock = false;                 ///< mlockall(MCL_CURRENT | MCL_FUTURE)
    /// Called between batches (never inside one) with what is happening, how far it is and
    /// how far it goes, e.g. ("sizing", 3, 40) or ("repetition", 2, 10). Optional.
    std::function<void(std::string_view phase, std::size_t done, std::size_t total)> progress;
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
};

struct RunResult {
    std::string date;  ///< ISO 8601, local time
    SystemInfo system;
    std::string clock;
    double batch_overhead_ns = 0;  ///< subtracted once per sample
    double pause_overhead_ns = 0;  ///< subtracted once per pause()/resume() pair
    std::uint64_t seed = 0;
    std::size_t repetitions = 0;
    std::vector<std::string> events;         ///< counted per item, in counters_per_item order
    std::vector<std::string> event_kinds;    ///< "hardware", "software", ... per event
    std::vector<std::string> event_sources;  ///< "hw", "sw" or "sim" per event (event_plan.hpp)
    std::vector<bool> event_counted;         ///< false: the kernel refused it (values are 0)
    std::vector<std::string> unsupported;    ///< "cycles: not supported: ..."
    std::vector<std::string> warnings;       ///< conditions that make numbers less reliable
    /// Facts about the benchmarks' set-up recorded with the result (cache sizes used, ...).
    std::vector<std::pair<std::string, std::string>> context;
    /// How simulated counts were obtained (notice, simulator, caches, ...); empty when none.
    std::vector<std::pair<std::string, std::string>> simulation;
    std::vector<BenchmarkResult> benchmarks;
};

/// "hw", "sw" or "sim" for event `event` of `r` (from its kind when event_sources is short,
/// as in results built by hand).
std::string event_source(const RunResult& r, std::size_t event);

class Runner {
  public:
    /// Opens the counters on the calling thread and calibrates the overheads.
    explicit Runner(const RunnerOptions& options);
    RunResult run(const std::vector<Benchmark>& benchmarks);

  private:
    struct Batch {
        double ns = 0;
        std::size_t pauses = 0;
    };
    Batch run_batch(const Benchmark& b, std::uint64_t iterations);
    std::uint64_t size_batch(const Benchmark& b);
    void apply_noise_controls(std::vector<std::string>& warnings);

    RunnerOptions options_;
    Clock clock_;
    pmu::CounterSet counters_;
    BatchState state_;
    pmu::CounterSet::Snapshot before_, after_;
    std::vector<pmu::ScaledCount> delta_;
    std::vector<double> batch_counts_;  // last batch, paused intervals removed
    double batch_overhead_ns_ = 0, pause_overhead_ns_ = 0;
    std::vector<double> batch_counter_overhead_, pause_counter_overhead_;
};

}  // namespace perfgauge::harness
