#include "perfgauge/harness/runner.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <span>

#include <fmt/format.h>

#include "pause_contexts.hpp"
#include "perfgauge/harness/batch_sizing.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/native_columns.hpp"
#include "perfgauge/harness/reliability.hpp"
#include "perfgauge/harness/sampling_rounds.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

constexpr std::size_t kCalibrationBatches = 1000;
// The pause cost is what a pause/resume pair adds to a loop of short work: per kind of work
// (pause_contexts.hpp), batches of 40 iterations with and without a pair in each, 320 rounds of
// one of each per kind (the pair with system calls: 500 rounds of the first kind, 60 ms here). A
// pair never sits next to another pair in a benchmark: back to back, one pair's clock read overlaps
// the next one's differently than with work in between, and the slope between few and many
// back-to-back pairs was 1-3 ns above what a pair costs next to work. The two batches of a kind run
// the same loop, so entering and leaving it cancels out.
constexpr int kCalibrationPauses = 40;
constexpr std::size_t kPauseCalibrationRounds = 320;  // ten groups for quantum_robust_mean
constexpr std::size_t kSnapshotPairRounds = 500;
constexpr std::size_t kSizingRetakes = 20;

}  // namespace

NativeBatchState::NativeBatchState(const Clock& clock, pmu::CounterSet& counters,
                                   ThreadCpu (*thread_usage)())
    : clock_(clock),
      counters_(&counters),
      thread_usage_(thread_usage),
      pause_snapshot_(counters.make_snapshot()),
      resume_snapshot_(counters.make_snapshot()),
      pause_delta_(counters.events().size()),
      paused_counts_(counters.events().size()) {
    set_snapshots(true);
}

void NativeBatchState::reset(std::uint64_t iterations) {
    iterations_ = iterations;
    paused_ticks_ = 0;
    pauses_ = 0;
    paused_usage_ = {};
    std::fill(paused_counts_.begin(), paused_counts_.end(), 0.0);
}

void NativeBatchState::pause() {
    paused_at_ = clock_.stop();
    if (snapshots_) {
        // The usage is read first: the pause's share of the thread's wall time, CPU time and
        // switches then runs from here to the resume's usage reading, each begun right after a
        // clock read, so that both snapshots (system calls, where a pending switch is taken on
        // their way out) fall on the paused side where the clock does not see them either.
        accounted_pause_ = accounting_;
        if (accounted_pause_)
            usage_at_pause_ = thread_usage_();
        counters_->read(pause_snapshot_);
    }
}

void NativeBatchState::resume() {
    if (snapshots_) {
        counters_->read(resume_snapshot_);
        if (accounted_pause_) {
            // The wall time from the clock reading just before each usage reading: the same
            // interval as the CPU time, to a clock read (the wall time read after the pause's
            // usage reading left that call's CPU time, ~1.4 us, on the paused side of CPU time
            // only, and every pausing sample looked off the CPU while timed).
            const std::uint64_t wall_at_resume = clock_.stop();
            const ThreadCpu usage = thread_usage_();
            ++paused_usage_.pauses;
            paused_usage_.wall_ns += clock_.to_ns(static_cast<double>(wall_at_resume - paused_at_));
            paused_usage_.cpu_ns += usage.cpu_ns - usage_at_pause_.cpu_ns;
            paused_usage_.involuntary_switches +=
                usage.involuntary_switches - usage_at_pause_.involuntary_switches;
            accounted_pause_ = false;
        }
        counters_->delta(pause_snapshot_, resume_snapshot_, pause_delta_);
        for (std::size_t i = 0; i < paused_counts_.size(); ++i)
            paused_counts_[i] += pause_delta_[i].value;
    }
    // A pair that reads only the clock does exactly this, as calibrated.
    ++pauses_;
    paused_ticks_ += clock_.start() - paused_at_;
}

Runner::Runner(const RunnerOptions& options)
    : options_(options),
      clock_(Clock::best()),
      counters_(pmu::open_self_monitoring(options.events.groups())),
      state_(std::make_unique<NativeBatchState>(clock_, counters_)),
      before_(counters_.make_snapshot()),
      after_(counters_.make_snapshot()),
      delta_(counters_.events().size()),
      batch_counts_(counters_.events().size()),
      probe_(clock_) {
    counters_.enable();
    // Calibrate what a batch costs around nothing, and what one pause/resume pair leaves in
    // the measured interval, through exactly the path real batches take.
    const std::size_t events = counters_.events().size();
    std::vector<double> wall_minus_cpu;
    auto empty_batches_of = [&](const Benchmark& b, std::size_t batches) {
        return calibrate_overhead(batches, events, [&](double& ns, std::vector<double>& counts) {
            const Batch batch = run_batch(b, 0);
            ns = batch.ns;
            counts = batch_counts_;
            if (batch.health.involuntary_switches == 0)
                wall_minus_cpu.push_back(batch.health.wall_ns - batch.health.cpu_ns);
        });
    };
    batch_overhead_ =
        empty_batches_of(Benchmark{"(empty)", 1, 0, [](BatchState&) {}, {}}, kCalibrationBatches);
    cpu_clock_slack_ns_ = cpu_clock_slack_ns(wall_minus_cpu);
    pauses_timed_apart_ = counters_.snapshot_is_system_call();
    const std::vector<PauseContext> contexts = pause_contexts(kCalibrationPauses);
    // Per kind of work, the two batches in turn, one difference per round: a change of the
    // host's speed between two phases would otherwise be read as part of the pairs' cost.
    std::vector<double> counts_alone(events);
    const auto pair_cost = [&](bool snapshots, std::span<const PauseContext> kinds,
                               std::size_t rounds) {
        std::vector<std::vector<double>> ns(kinds.size(), std::vector<double>(rounds));
        std::vector<std::vector<std::vector<double>>> counts(
            kinds.size(), std::vector<std::vector<double>>(events, std::vector<double>(rounds)));
        for (std::size_t round = 0; round < rounds; ++round) {
            for (std::size_t k = 0; k < kinds.size(); ++k) {
                const double ns_alone = run_batch(kinds[k].alone, 0).ns;
                counts_alone = batch_counts_;
                ns[k][round] = (run_batch(kinds[k].with_pairs, 0, snapshots).ns - ns_alone) /
                               kCalibrationPauses;
                for (std::size_t i = 0; i < events; ++i)
                    counts[k][i][round] = (batch_counts_[i] - counts_alone[i]) / kCalibrationPauses;
            }
        }
        std::vector<Overhead> by_kind(kinds.size());
        for (std::size_t k = 0; k < kinds.size(); ++k) {
            by_kind[k].ns = quantum_robust_mean(ns[k]);
            for (std::size_t i = 0; i < events; ++i)
                by_kind[k].counts.push_back(quantum_robust_mean(counts[k][i]));
        }
        return by_kind;
    };
    const std::span<const PauseContext> one_kind(contexts.data(), 1);
    const auto pair_between_kinds = [&](const std::vector<Overhead>& by_kind) {
        const Overhead middle = median_over_kinds(by_kind);
        pause_spread_ns_ = unseen_kind_ns(by_kind, middle.ns);
        return middle;
    };
    if (pauses_timed_apart_) {
        // A snapshot is a system call (microseconds, and what it flushes): the kind of work
        // around the pair changes its cost by far less than the calls' own noise.
        pause_overhead_ = median_over_kinds(pair_cost(true, one_kind, kSnapshotPairRounds));
        clock_pause_ns_ =
            pair_between_kinds(pair_cost(false, contexts, kPauseCalibrationRounds)).ns;
    } else {
        pause_overhead_ = pair_between_kinds(pair_cost(true, contexts, kPauseCalibrationRounds));
        clock_pause_ns_ = pause_overhead_.ns;
    }
    calibration_chain_ns_ = probe_.recent_chain_ns();
}

Runner::Batch Runner::run_batch(const Benchmark& b, std::uint64_t iterations, bool snapshots) {
    state_->set_snapshots(snapshots);
    // Pauses whose snapshots are system calls read what the thread did meanwhile (two more
    // calls): a switch then, untimed, does not set the sample aside (issue 34: 30 of 30 samples
    // of a pausing benchmark were, each switched out 5-9 times during its 2.5 s of pauses).
    state_->set_pause_accounting(snapshots && pauses_timed_apart_);
    state_->reset(iterations);
    // CPU time and switches around everything the clock sees, so that wall > CPU means the
    // thread lost the CPU while being timed.
    // Steal outside the probes' bracket: reading /proc/stat must not disturb what they time.
    const int cpu = steal_.available() ? ::sched_getcpu() : -1;
    const auto steal_before = steal_.steal_ns(cpu);
    const MachineProbe::Reading probe_before = probe_.take();
    const ThreadCpu cpu_before = read_thread_cpu();
    counters_.read(before_);
    const std::uint64_t t0 = clock_.start();
    b.run(*state_);
    const std::uint64_t t1 = clock_.stop();
    counters_.read(after_);
    const ThreadCpu cpu_after = read_thread_cpu();
    const MachineProbe::Reading probe_after = probe_.take();
    const auto steal_after = steal_.steal_ns(cpu);
    counters_.delta(before_, after_, delta_);
    for (std::size_t i = 0; i < delta_.size(); ++i)
        batch_counts_[i] = delta_[i].value - state_->paused_counts()[i];
    Batch batch;
    batch.iterations = iterations;
    batch.ns = clock_.to_ns(static_cast<double>(t1 - t0 - state_->paused_ticks()));
    batch.pauses = state_->pauses();
    batch.snapshots = snapshots;
    // A transient slowdown, measured against how the machine has been running lately; a lasting
    // change of its speed is not one sample's disturbance: compare sees it in the runs' probes.
    batch.health = {clock_.to_ns(static_cast<double>(t1 - t0)),
                    cpu_after.cpu_ns - cpu_before.cpu_ns,
                    cpu_after.involuntary_switches - cpu_before.involuntary_switches,
                    std::max(probe_.slowdown(probe_before), probe_.slowdown(probe_after))};
    batch.health.timed_ns = batch.ns;
    batch.health.paused = state_->paused_usage();
    batch.probe_chains_ns = {probe_before.chain_ns, probe_after.chain_ns};
    // The counter moves in whole ticks (10 ms) at the host's scheduler ticks: that it moved
    // says the host took the CPU around this batch, not for how long within it.
    if (steal_before && steal_after && *steal_after > *steal_before)
        batch.health.steal_ns = std::min(*steal_after - *steal_before, batch.health.wall_ns);
    return batch;
}

Disturbance Runner::record(BenchmarkResult& r, const Batch& timed, const Batch* counted,
                           std::size_t round) {
    const double items = static_cast<double>(r.iterations) * r.items_per_iteration;
    const double ns_per_item =
        corrected(timed.ns, batch_overhead_.ns, pair_ns(timed), static_cast<double>(timed.pauses)) /
        items;
    for (const Batch* batch : {&timed, counted}) {
        if (batch == nullptr)
            continue;
        if (const Disturbance why = judge(batch->health); why != Disturbance::none) {
            r.disturbed.push_back({round, ns_per_item, batch->health.wall_ns, batch->health.cpu_ns,
                                   batch->health.involuntary_switches, batch->health.probe_slowdown,
                                   batch->health.steal_ns});
            return why;
        }
    }
    r.rounds.push_back(round);
    r.ns_per_item.push_back(ns_per_item);
    r.raw_ns_per_item.push_back(timed.ns / items);
    r.cpu_ns_per_item.push_back(timed.health.cpu_ns / items);
    if (counted != nullptr) {  // one value per clean sample: NaN for a sample that never paused
        // The counted batch may run fewer iterations (its wall time is bounded): its time
        // scaled to the timed batch's iterations.
        const double scaled_ns = counted->iterations > 0
                                     ? counted->ns * static_cast<double>(timed.iterations) /
                                           static_cast<double>(counted->iterations)
                                     : counted->ns;
        r.snapshot_pause_ns.push_back(timed.pauses > 0 ? (scaled_ns - timed.ns) /
                                                             static_cast<double>(timed.pauses)
                                                       : std::nan(""));
    }
    // The counts are the last batch's (batch_counts_, delta_): run() runs the counted batch,
    // whose pauses snapshot them, after the timed one; per item of the batch that counted them.
    const Batch& counting = counted != nullptr ? *counted : timed;
    const double pauses = static_cast<double>(counting.pauses);
    const double counted_items =
        counting.iterations > 0 ? static_cast<double>(counting.iterations) * r.items_per_iteration
                                : items;
    for (std::size_t i = 0; i < batch_counts_.size(); ++i) {
        r.raw_counters_per_item[i].push_back(batch_counts_[i] / counted_items);
        r.counters_per_item[i].push_back(corrected(batch_counts_[i], batch_overhead_.counts[i],
                                                   pause_overhead_.counts[i], pauses) /
                                         counted_items);
        r.running_fraction[i] = std::min(r.running_fraction[i], delta_[i].running_fraction);
    }
    return Disturbance::none;
}

std::size_t Runner::sample_room() const {
    const std::size_t planned =
        options_.repetitions + options_.retake_rounds.value_or(options_.repetitions);
    if (!(options_.precision > 0))
        return planned;
    const double by_budget = std::ceil(options_.max_time_s / options_.min_sample_time_s);
    return planned + static_cast<std::size_t>(std::min(by_budget, 100000.0));
}

namespace {

// An interrupted run: every sample taken stays; a benchmark without one clean sample has no
// statistic to offer and is left out, by name.
void keep_what_was_measured(RunResult& result, const std::string& interruption) {
    result.interrupted_by = interruption;
    std::vector<std::string> missing;
    std::erase_if(result.benchmarks, [&](const BenchmarkResult& r) {
        if (!r.ns_per_item.empty())
            return false;
        missing.push_back(r.name);
        return true;
    });
    // The footer's "medians of N samples" must not claim the planned count: the fewest clean
    // samples any benchmark kept.
    const std::size_t planned = result.repetitions;
    std::size_t fewest = planned;
    for (const auto& r : result.benchmarks)
        fewest = std::min(fewest, r.ns_per_item.size());
    result.repetitions = fewest;
    std::string text = fmt::format(
        "interrupted by {}: the samples taken until then are kept "
        "(at least {} of the {} planned per benchmark)",
        interruption, fewest, planned);
    if (!missing.empty()) {
        text += fmt::format("; {} not measured at all, left out: {}", missing.size(),
                            fmt::join(missing, ", "));
    }
    result.warnings.push_back(text);
}

}  // namespace

std::uint64_t counted_iterations_for(std::uint64_t timed_iterations, std::uint64_t last,
                                     double timed_wall_ns, double counted_wall_ns) {
    if (!(counted_wall_ns > 0) || !(timed_wall_ns > 0))
        return std::clamp<std::uint64_t>(last, 1, std::max<std::uint64_t>(timed_iterations, 1));
    const double scaled = std::floor(static_cast<double>(last) * timed_wall_ns / counted_wall_ns);
    if (!(scaled < static_cast<double>(timed_iterations)))
        return std::max<std::uint64_t>(timed_iterations, 1);
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(scaled));
}

Runner::Sizing Runner::size_batch(const Benchmark& b) {
    // A batch must dwarf what measuring it costs (>= 1000x) and last min_sample_time.
    const double target_ns =
        std::max(std::max(options_.min_sample_time_s, b.min_sample_time_s) * 1e9,
                 1000.0 * std::max(batch_overhead_.ns, clock_.ns_per_tick()));
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration<double>(std::max(0.0, options_.warmup_time_s));
    std::uint64_t iterations = 1;
    std::uint64_t pauses = 0;
    std::size_t disturbed_in_a_row = 0;
    std::uint64_t long_enough_at = 0;  // iterations of the last batch, if it was long enough
    for (;;) {
        if (interrupted())
            return {iterations, pauses};  // run() stops before sampling it
        const auto wall_start = std::chrono::steady_clock::now();
        // Once it has paused, sized as it will be timed: with pauses that read only the clock
        // where those are timed apart (the snapshots' cost would make its batches too short).
        const Batch batch = run_batch(b, iterations, !(pauses_timed_apart_ && pauses > 0));
        pauses = std::max<std::uint64_t>(pauses, batch.pauses);
        const double ns = batch.ns;
        const std::chrono::duration<double, std::nano> wall =
            std::chrono::steady_clock::now() - wall_start;
        // A body that pauses every iteration spends most of its wall time paused; once that
        // reaches kPausedWallFactor x the target, more iterations only cost time.
        const bool long_enough = long_enough_batch(ns, wall.count(), target_ns);
        // A batch that lost the CPU only looks longer than its work: one switched out looked
        // long enough at 190 ns and sized every sample of a run that way. One that still looks
        // long enough is taken again (on a machine that disturbs every batch, at most
        // kSizingRetakes times in a row) unless its work alone was long enough (a 600 ms
        // iteration switched out for microseconds: each retake cost 600 ms here); one too short
        // is grown from as it is.
        if (long_enough && judge(batch.health) != Disturbance::none &&
            work_ns_at_least(batch.health, ns) < target_ns &&
            ++disturbed_in_a_row <= kSizingRetakes)
            continue;
        disturbed_in_a_row = 0;
        // A gap the thread cannot see (a VM's host taking the CPU, unseen by its CPU time) can
        // make one batch look long enough: the size stands once two in a row at it were.
        const bool confirmed = long_enough && long_enough_at == iterations;
        long_enough_at = long_enough ? iterations : 0;
        if (confirmed && std::chrono::steady_clock::now() >= deadline)
            return {iterations, pauses};
        if (!long_enough)  // towards whichever limit comes first
            iterations = grown_iterations(iterations, ns, wall.count(), target_ns);
        if (iterations > (std::uint64_t{1} << 40))
            return {iterations, pauses};  // an empty body: stop growing
    }
}

bool Runner::interrupted() {
    if (interruption_.empty() && options_.interruption)
        interruption_ = options_.interruption();
    return !interruption_.empty();
}

void Runner::apply_noise_controls(std::vector<std::string>& warnings) {
    if (options_.pin_cpu) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(*options_.pin_cpu, &set);
        if (::sched_setaffinity(0, sizeof set, &set) != 0) {
            warnings.push_back(
                fmt::format("--pin {}: not applied: {}", *options_.pin_cpu, std::strerror(errno)));
        }
    }
    if (options_.fifo) {
        sched_param param{};
        param.sched_priority = 1;  // above every normal task; RT throttling still protects the box
        if (::sched_setscheduler(0, SCHED_FIFO, &param) != 0) {
            warnings.push_back(
                fmt::format("--fifo: not applied ({}): needs root or CAP_SYS_NICE "
                            "(or an RLIMIT_RTPRIO above 0)",
                            std::strerror(errno)));
        }
    }
    if (options_.mlock && ::mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
        warnings.push_back(fmt::format(
            "--mlock: not applied ({}): raise RLIMIT_MEMLOCK (ulimit -l) or run as root",
            std::strerror(errno)));
    }
}

RunResult Runner::begin_result() const {
    RunResult result;
    result.repetitions = options_.repetitions;
    result.seed = options_.seed ? *options_.seed : std::random_device{}();
    result.clock = clock_.name();
    result.batch_overhead_ns = batch_overhead_.ns;
    result.pause_overhead_ns = pause_overhead_.ns;
    result.pause_overhead_spread_ns = pause_spread_ns_;
    if (pauses_timed_apart_)
        result.clock_pause_overhead_ns = clock_pause_ns_;
    result.events = native_columns(counters_);
    return result;
}

std::vector<SamplingTally> Runner::size_benchmarks(const std::vector<Benchmark>& benchmarks,
                                                   RunResult& result) {
    const std::size_t events = counters_.events().size();
    result.benchmarks.resize(benchmarks.size());
    std::vector<SamplingTally> tallies(benchmarks.size());
    for (std::size_t b = 0; b < benchmarks.size(); ++b) {
        auto& r = result.benchmarks[b];
        if (options_.progress && !interrupted())
            options_.progress("sizing", b, benchmarks.size());
        r.name = benchmarks[b].name;
        r.params = benchmarks[b].params;
        r.items_per_iteration = benchmarks[b].items_per_iteration;
        r.bytes_per_iteration = benchmarks[b].bytes_per_iteration;
        const Sizing sizing = size_batch(benchmarks[b]);
        r.iterations = sizing.iterations;
        tallies[b].timed_apart = pauses_timed_apart_ && sizing.pauses > 0;
        // Clean samples, retakes, precision rounds.
        reserve_samples(r, sample_room(), events, tallies[b].timed_apart);
    }
    return tallies;
}

void Runner::report_round(std::size_t round, std::size_t wanting, std::size_t benchmarks) const {
    if (!options_.progress)
        return;
    // Beyond the plan the rounds have no total: how many benchmarks are still short.
    if (round < options_.repetitions)
        options_.progress("repetition", round, options_.repetitions);
    else
        options_.progress("extra", wanting, benchmarks);
}

std::vector<double> Runner::sample_rounds(const std::vector<Benchmark>& benchmarks,
                                          const std::vector<VerdictGroup>& groups,
                                          RunResult& result, std::vector<SamplingTally>& tallies) {
    std::vector<double> sample_chains_ns;  // the machine probe around every sample
    std::mt19937_64 rng(result.seed);
    const SamplingPlan plan{
        options_.repetitions,
        options_.repetitions + options_.retake_rounds.value_or(options_.repetitions), sample_room(),
        options_.precision, options_.max_time_s * 1e9};
    for (std::size_t round = 0; !interrupted(); ++round) {
        // Between rounds, never inside one: which groups' verdicts are decided.
        const std::vector<bool> settled =
            options_.verdict_stop
                ? settled_by_verdicts(groups, result.benchmarks, *options_.verdict_stop)
                : std::vector<bool>(benchmarks.size(), false);
        std::vector<std::size_t> order;
        for (std::size_t b = 0; b < benchmarks.size(); ++b) {
            const auto& r = result.benchmarks[b];
            if (wants_sample(plan, round, r.ns_per_item, r.disturbed.size(), tallies[b].spent_ns,
                             settled[b]))
                order.push_back(b);
        }
        if (order.empty())
            break;
        report_round(round, order.size(), benchmarks.size());
        if (options_.interleave)
            std::shuffle(order.begin(), order.end(), rng);
        for (const std::size_t b : order) {
            if (interrupted() || !take_sample(benchmarks[b], result.benchmarks[b], tallies[b],
                                              round, sample_chains_ns))
                break;
        }
    }
    return sample_chains_ns;
}

bool Runner::take_sample(const Benchmark& benchmark, BenchmarkResult& r, SamplingTally& tally,
                         std::size_t round, std::vector<double>& sample_chains_ns) {
    // Timed apart: the clock-only batch first, so that the counts (batch_counts_, delta_) are
    // the last batch's, the one whose pauses snapshot them.
    const Batch timed = run_batch(benchmark, r.iterations, !tally.timed_apart);
    if (tally.timed_apart && interrupted())
        return false;  // half a sample: not recorded
    Batch counted;
    if (tally.timed_apart)
        counted = run_counted_batch(benchmark, r.iterations, timed, tally.counted_iterations);
    // The budget is wall time: a sample timed apart costs both of its batches.
    tally.spent_ns += timed.health.wall_ns + counted.health.wall_ns;
    for (const double chain : timed.probe_chains_ns) {
        if (chain > 0)
            sample_chains_ns.push_back(chain);
    }
    note_pause_shares(tally, timed.ns, static_cast<double>(timed.pauses), pair_ns(timed),
                      pause_spread_ns_);
    const Disturbance why = record(r, timed, tally.timed_apart ? &counted : nullptr, round);
    ++tally.disturbances[static_cast<std::size_t>(why)];
    return true;
}

Runner::Batch Runner::run_counted_batch(const Benchmark& b, std::uint64_t timed_iterations,
                                        const Batch& timed, std::uint64_t& counted_iterations) {
    // The first from what its snapshot pairs are calibrated to add (twice that, for the pauses'
    // reads of the thread's usage); then from the last one's wall.
    if (counted_iterations == 0) {
        counted_iterations = counted_iterations_for(
            timed_iterations, timed_iterations, timed.health.wall_ns,
            timed.health.wall_ns + 2 * static_cast<double>(timed.pauses) * pause_overhead_.ns);
    }
    const Batch counted = run_batch(b, counted_iterations);
    counted_iterations = counted_iterations_for(timed_iterations, counted_iterations,
                                                timed.health.wall_ns, counted.health.wall_ns);
    return counted;
}

void Runner::warn_about_samples(RunResult& result, const std::vector<Benchmark>& benchmarks,
                                const std::vector<SamplingTally>& tallies,
                                const std::vector<double>& sample_chains_ns) {
    if (interrupted())
        keep_what_was_measured(result, interruption_);
    for (std::size_t b = 0; b < result.benchmarks.size() && result.interrupted_by.empty(); ++b) {
        const auto& r = result.benchmarks[b];
        if (r.ns_per_item.size() < options_.repetitions)
            result.warnings.push_back(shortfall_warning(
                r.name, r.ns_per_item.size(), options_.repetitions, tallies[b].disturbances));
    }
    if (calibration_chain_ns_ > 0 && !sample_chains_ns.empty())
        result.pause_calibration_drift = median(sample_chains_ns) / calibration_chain_ns_ - 1;
    // Beyond the precision target (1% where none is set), the pairs' cost moving with the
    // work around them matters as much as the noise the sampling was sized for.
    const double spread_bound = options_.precision > 0 ? options_.precision : 0.01;
    for (std::size_t b = 0; b < benchmarks.size(); ++b) {
        for (auto& warning :
             pause_correction_warnings(benchmarks[b].name, tallies[b], pause_spread_ns_,
                                       spread_bound, result.pause_calibration_drift))
            result.warnings.push_back(std::move(warning));
    }
    if (auto stolen = steal_warning(result.benchmarks))
        result.warnings.push_back(std::move(*stolen));
}

void Runner::describe_machine(RunResult& result) {
    result.machine_copy_probe_ns = probe_.median_copy_ns();
    result.date = local_iso_date();
    result.system = collect_system_info();
    if (options_.probe_cpu_gaps && !interrupted())
        result.system.cpu_gaps = measure_cpu_gaps();
    for (auto& w : reliability_warnings(result.system))
        result.warnings.push_back(std::move(w));
}

RunResult Runner::run(const std::vector<Benchmark>& benchmarks,
                      const std::vector<VerdictGroup>& groups) {
    RunResult result = begin_result();
    apply_noise_controls(result.warnings);
    // Size every batch (this is also the warm-up), then allocate every sample up front.
    std::vector<SamplingTally> tallies = size_benchmarks(benchmarks, result);
    // Interleaved rounds: every benchmark once per round, in a fresh shuffled order. After the
    // planned rounds, benchmarks short of clean samples (some were disturbed) get more rounds,
    // within the retake budget.
    // The warm-up has probed the machine hundreds of times: its fastest probe is the reference
    // every sample's probes are held against.
    result.machine_probe_ns = probe_.fastest_chain_ns();
    result.precision_target = options_.precision;
    const std::vector<double> sample_chains_ns = sample_rounds(benchmarks, groups, result, tallies);
    warn_about_samples(result, benchmarks, tallies, sample_chains_ns);
    describe_machine(result);
    return result;
}

}  // namespace perfgauge::harness
