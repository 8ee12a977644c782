// The runner: warm-up, automatic batch sizing, repetitions in seeded random interleaving,
// every sample kept (preallocated, no I/O while measuring), per-item normalisation, and
// overhead correction (the batch's own measurement and every pause/resume inside it).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/clock.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/machine_probe.hpp"
#include "perfgauge/harness/overhead.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/sample_health.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/harness/verdict_stopping.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

struct RunnerOptions {
    /// The natively counted events: an event plan's (CountedEvents(plan)), or an event list.
    CountedEvents events = kDefaultLibraryEvents;
    std::size_t repetitions = 10;  ///< clean samples per benchmark, at least
    /// After `repetitions`, a benchmark gets more interleaved rounds until the distribution-free
    /// 95% interval of its median is within this share of the median (0, the default here: a
    /// fixed count; perfgauge run aims for 0.01)...
    double precision = 0;
    /// ...or its samples have taken this much wall time in all (the per-benchmark budget).
    double max_time_s = 0.4;
    /// Extra interleaved rounds allowed for re-taking disturbed samples (default: as many as
    /// `repetitions`); a benchmark still short of clean samples after them keeps what it has.
    std::optional<std::size_t> retake_rounds;
    double min_sample_time_s = 0.002;   ///< a batch lasts at least this, and >= 1000x the overhead
    double warmup_time_s = 0.02;        ///< per benchmark, also used to size the batch
    std::optional<std::uint64_t> seed;  ///< interleaving seed; drawn (and recorded) when unset
    bool interleave = true;             ///< shuffle benchmark order in every repetition
    std::optional<int> pin_cpu;         ///< sched_setaffinity to this CPU
    bool fifo = false;                  ///< SCHED_FIFO (needs CAP_SYS_NICE)
    bool mlock = false;                 ///< mlockall(MCL_CURRENT | MCL_FUTURE)
    /// Called between batches (never inside one) with what is happening, how far it is and
    /// how far it goes: ("sizing", 3, 40), ("repetition", 2, 10) as planned round 2 of 10
    /// starts, ("extra", 5, 40) as a round beyond the plan starts for the 5 benchmarks of 40
    /// still short of clean samples or precision (ProgressMeter turns them into lines).
    /// Optional.
    std::function<void(std::string_view phase, std::size_t done, std::size_t total)> progress;
    /// Asked between batches (never inside one): a non-empty answer ("SIGINT") stops the run
    /// there. The result then keeps every sample taken, leaves out the benchmarks that have no
    /// clean sample yet (a warning names them) and records the answer in `interrupted_by`.
    /// Optional.
    std::function<std::string()> interruption;
    /// How a sample's batches are judged: unset, disturbance_of() with the CPU clock's slack
    /// calibrated by the Runner. A seam: a test that checks what the runner does with samples
    /// (how many it keeps, retakes, records) sets a rule that does not depend on how busy the
    /// machine running it is. Optional.
    std::function<Disturbance(const SampleHealth&)> judge;
    /// Where set, the precision rounds of a benchmark in a verdict group (run()'s `groups`) end
    /// once the group's verdicts are decided by this rule (verdict_stopping.hpp): a contender's
    /// time ratios to its baseline clear of, or within, +-margin at the rule's confidence. The
    /// planned and retake rounds are taken all the same. Unset: precision and budget alone.
    std::optional<StoppingRule> verdict_stop;
    /// After the samples, spin on the clock for 50 ms to see what this thread's time loses to
    /// gaps it cannot see (system.cpu_gaps; a warning where it is 1% or more).
    bool probe_cpu_gaps = true;
};

/// How many iterations the batch that counts a pausing benchmark timed apart runs: its
/// snapshots (system calls) can make it many times longer than the timed batch (2.5 s against
/// 20 ms of timed work, issue 34), and all it gives is counts per item, so it is bounded to
/// the timed batch's wall time. From `last` iterations, which took `counted_wall_ns`, scaled
/// to `timed_wall_ns`; within [1, timed_iterations] (pure).
std::uint64_t counted_iterations_for(std::uint64_t timed_iterations, std::uint64_t last,
                                     double timed_wall_ns, double counted_wall_ns);

/// What one benchmark's samples added up to over a run's rounds (internal: the runner's own).
struct SamplingTally;

/// The native BatchState: pause() stops the clock and snapshots the counters, resume() starts
/// them again, and the paused time and counts are left out of the batch.
class NativeBatchState final : public BatchState {
  public:
    /// `thread_usage`: where the thread's CPU time and switches are read during pauses that
    /// account for them (see set_pause_accounting; a seam for tests).
    NativeBatchState(const Clock& clock, pmu::CounterSet& counters,
                     ThreadCpu (*thread_usage)() = &read_thread_cpu);
    void pause() override;
    void resume() override;

    /// Whether pause()/resume() snapshot the counters (the default) or only read the clock: a
    /// batch of the second kind times a pausing benchmark without what the snapshots cost the
    /// work after them (its counts then include the paused work and are not used). Never with
    /// no counter open: reading an empty set cost a pair ~1.2 ns next to some work, for nothing.
    void set_snapshots(bool on) { snapshots_ = on && counters_->group_count() > 0; }
    /// Whether pauses that snapshot the counters also read the thread's CPU time and switches
    /// right after the clock stops and right before it starts again, outside both snapshots
    /// (paused_usage()), so that what happens while paused, the snapshots included, does not
    /// make the timed part look disturbed. Only where a
    /// snapshot is a system call already (the Runner's batches whose time is not used, or
    /// whose pairs cost microseconds anyway); never on a clock-only pair.
    void set_pause_accounting(bool on) { accounting_ = on; }
    void reset(std::uint64_t iterations);
    std::uint64_t paused_ticks() const { return paused_ticks_; }
    std::uint64_t pauses() const { return pauses_; }
    const std::vector<double>& paused_counts() const { return paused_counts_; }
    /// The pauses' wall and CPU time and switches since reset(), where they were read (pauses
    /// with snapshots and accounting on).
    const PausedUsage& paused_usage() const { return paused_usage_; }

  private:
    // A copy: all a pair that reads only the clock touches is in this object (one with
    // snapshots also reads the CounterSet, a system call's microseconds).
    Clock clock_;
    pmu::CounterSet* counters_;
    std::uint64_t paused_at_ = 0;
    std::uint64_t paused_ticks_ = 0;
    bool snapshots_ = true;
    bool accounting_ = false;
    bool accounted_pause_ = false;  // the open pause read the thread's usage
    ThreadCpu (*thread_usage_)();
    ThreadCpu usage_at_pause_;
    PausedUsage paused_usage_;
    pmu::CounterSet::Snapshot pause_snapshot_, resume_snapshot_;
    std::vector<pmu::ScaledCount> pause_delta_;
    std::vector<double> paused_counts_;
};

class Runner {
  public:
    /// Opens the counters on the calling thread and calibrates the overheads.
    explicit Runner(const RunnerOptions& options);
    // Its pause state and probe point at its clock and counters: never copied or moved.
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;
    /// `groups`: the benchmarks whose verdicts are asked together (see verdict_stop).
    RunResult run(const std::vector<Benchmark>& benchmarks,
                  const std::vector<VerdictGroup>& groups = {});

  private:
    struct Batch {
        std::uint64_t iterations = 0;
        double ns = 0;  ///< timed, paused intervals removed
        std::size_t pauses = 0;
        bool snapshots = true;  ///< whether its pauses snapshot the counters
        SampleHealth health;    ///< wall (pauses included) and CPU time, involuntary switches
        /// The machine probe's chains before and after it: single readings, as the
        /// calibration's speed is a median of single readings.
        std::array<double, 2> probe_chains_ns{};
    };
    /// One sample: its time from `timed`; its counts from the last batch run, which is
    /// `counted` when given (a batch beside it whose pauses snapshot the counters, `timed`'s
    /// reading only the clock) and `timed` otherwise; disturbed if either batch was.
    /// Returns why it was set aside, Disturbance::none when it was kept.
    Disturbance record(BenchmarkResult& r, const Batch& timed, const Batch* counted,
                       std::size_t round);
    /// The time subtracted per pause/resume pair of `batch`: as its pauses ran, with snapshots
    /// or reading only the clock.
    double pair_ns(const Batch& batch) const {
        return batch.snapshots ? pause_overhead_.ns : clock_pause_ns_;
    }
    /// `snapshots`: whether its pauses snapshot the counters (see NativeBatchState).
    Batch run_batch(const Benchmark& b, std::uint64_t iterations, bool snapshots = true);
    struct Sizing {
        std::uint64_t iterations = 1;
        std::uint64_t pauses = 0;  ///< the most in one sizing batch
    };
    Sizing size_batch(const Benchmark& b);
    /// options_.judge's answer, or disturbance_of() with the calibrated slack.
    Disturbance judge(const SampleHealth& h) const {
        return options_.judge ? options_.judge(h) : disturbance_of(h, cpu_clock_slack_ns_);
    }
    /// The most samples (clean and disturbed) one benchmark can take: the planned and retake
    /// rounds, plus what the time budget allows at the shortest batch. Reserved up front.
    std::size_t sample_room() const;
    void apply_noise_controls(std::vector<std::string>& warnings);
    /// Whether options_.interruption has answered (once it has, the answer is kept).
    bool interrupted();

    // run()'s steps, in the order it takes them; their arithmetic and decisions are plain
    // functions (sampling_rounds.hpp).
    /// The result's heading: the seed, the clock, the calibrated overheads, the columns.
    RunResult begin_result() const;
    /// Sizes every benchmark's batch (the warm-up too) and reserves the room of its samples.
    std::vector<SamplingTally> size_benchmarks(const std::vector<Benchmark>& benchmarks,
                                               RunResult& result);
    /// The interleaved rounds: one sample of every benchmark that wants_sample(), in a fresh
    /// shuffled order each round, until none does or the run is interrupted. Returns the
    /// machine probe's chains around every sample.
    std::vector<double> sample_rounds(const std::vector<Benchmark>& benchmarks,
                                      const std::vector<VerdictGroup>& groups, RunResult& result,
                                      std::vector<SamplingTally>& tallies);
    /// options_.progress as a round starts: planned round `round`, or beyond the plan, how
    /// many of the `benchmarks` are `wanting` more samples.
    void report_round(std::size_t round, std::size_t wanting, std::size_t benchmarks) const;
    /// One sample of `b` into `r` and `tally`; false when an interruption left it half taken
    /// (not recorded).
    bool take_sample(const Benchmark& b, BenchmarkResult& r, SamplingTally& tally,
                     std::size_t round, std::vector<double>& sample_chains_ns);
    /// The batch that counts a pausing benchmark timed apart from `timed`: its iterations
    /// (`counted_iterations`, 0 before the first) bounded to the timed batch's wall time, and
    /// resized from this one's for the next (counted_iterations_for).
    Batch run_counted_batch(const Benchmark& b, std::uint64_t timed_iterations, const Batch& timed,
                            std::uint64_t& counted_iterations);
    /// What the samples call for: an interruption's account, the benchmarks short of clean
    /// samples, the pairs' drift and shares of the time, the hypervisor's steal.
    void warn_about_samples(RunResult& result, const std::vector<Benchmark>& benchmarks,
                            const std::vector<SamplingTally>& tallies,
                            const std::vector<double>& sample_chains_ns);
    /// The machine the run ran on: its copy probe, the date, the system's facts, the CPU's
    /// gaps, the reliability warnings.
    void describe_machine(RunResult& result);

    RunnerOptions options_;
    Clock clock_;
    pmu::CounterSet counters_;
    /// On the heap, wherever the Runner is: a Runner on the caller's stack put the pair's data
    /// (the paused timestamp, the clock) at a distance from the stack its calls push to that is
    /// fixed per build, and in one build every pair of calibrate's seed loop cost ~4 ns more
    /// than calibrated (k <= 100: +3.9..+5.4 ns in 3 runs with this object inside the Runner;
    /// -0.7..+1.4 ns in 3 runs with it here; README, "Code and data layout").
    std::unique_ptr<NativeBatchState> state_;
    pmu::CounterSet::Snapshot before_, after_;
    std::vector<pmu::ScaledCount> delta_;
    std::vector<double> batch_counts_;  // last batch, paused intervals removed
    std::string interruption_;          // options_.interruption's first non-empty answer
    Overhead batch_overhead_;           ///< one empty batch's own measurement
    Overhead pause_overhead_;    ///< one pause/resume pair inside a batch, snapshots included
    double clock_pause_ns_ = 0;  ///< a pair that reads only the clock (see pauses_timed_apart_)
    /// How far the pair subtracted from times moves with the work around it (unseen_kind_ns).
    double pause_spread_ns_ = 0;
    /// The machine probe's speed while the pairs were calibrated (the median of the latest 32
    /// chains then, i.e. of the calibration's last 16 batches): a run whose samples' probes are
    /// slower or faster ran on a machine whose pairs may cost more or less than what is subtracted.
    double calibration_chain_ns_ = 0;
    /// Whether a counter snapshot is a system call (some counter is open and read by read()).
    /// A system call can cost the work after it more than the call itself (here: every one
    /// flushes the TLB, page-table isolation without PCID), by an amount that depends on the
    /// pages that work touches, so no constant subtracted per pause is right for every
    /// benchmark: a pausing benchmark is then timed in batches whose pauses read only the
    /// clock, taken beside the batches whose pauses snapshot its counts.
    bool pauses_timed_apart_ = false;
    double cpu_clock_slack_ns_ = 0;  ///< calibrated; see sample_health.hpp
    MachineProbe probe_;             ///< taken around every batch
    StealClock steal_;               ///< read around every batch
};

}  // namespace perfgauge::harness
