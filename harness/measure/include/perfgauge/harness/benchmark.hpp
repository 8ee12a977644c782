// What a benchmark is to the harness: a body that runs a batch of iterations, and the
// BatchState it is handed. Free of counter details (no <linux/perf_event.h>), so workloads can
// describe benchmarks without knowing how they are measured: natively by the Runner, or under
// callgrind by the simulated backend.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace perfgauge::harness {

/// Handed to a benchmark body: how many iterations to run, and pause()/resume() to keep
/// per-batch set-up (e.g. flushing caches) out of the measurement. Each backend implements it:
/// the native one stops the clock and snapshots the counters, the simulated one turns
/// callgrind's collection off and on.
class BatchState {
  public:
    std::uint64_t iterations() const { return iterations_; }
    virtual void pause() = 0;
    virtual void resume() = 0;

  protected:
    BatchState() = default;
    BatchState(const BatchState&) = delete;
    BatchState& operator=(const BatchState&) = delete;
    ~BatchState() = default;

    std::uint64_t iterations_ = 0;
    std::uint64_t pauses_ = 0;  ///< pause()/resume() pairs in this batch
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
    /// A batch of it lasts at least this many seconds, beyond the run's own minimum (0: that
    /// alone). For work whose batches must span many of the machine's periodic interruptions.
    double min_sample_time_s = 0;
};

/// Benchmarks (indices into a run's list) whose verdicts are asked together: each contender is
/// compared with the baseline round by round; riders are there for what the verdicts are read
/// beside (memcpy's speed beside the decoders'). The runner may stop sampling a group once its
/// verdicts are decided (verdict_stopping.hpp).
struct VerdictGroup {
    std::size_t baseline = 0;
    std::vector<std::size_t> contenders;
    std::vector<std::size_t> riders;
};

}  // namespace perfgauge::harness
