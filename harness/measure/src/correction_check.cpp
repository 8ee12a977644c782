#include "perfgauge/harness/correction_check.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

double paired_difference_ns(const std::vector<std::size_t>& reference_rounds,
                            const std::vector<double>& reference,
                            const std::vector<std::size_t>& paused_rounds,
                            const std::vector<double>& paused, std::size_t* pairs) {
    std::map<std::size_t, double> by_round;
    for (std::size_t i = 0; i < reference_rounds.size() && i < reference.size(); ++i)
        by_round.emplace(reference_rounds[i], reference[i]);
    std::vector<double> differences;
    for (std::size_t i = 0; i < paused_rounds.size() && i < paused.size(); ++i) {
        const auto it = by_round.find(paused_rounds[i]);
        if (it != by_round.end())
            differences.push_back(paused[i] - it->second);
    }
    if (pairs != nullptr)
        *pairs = differences.size();
    return differences.empty() ? std::numeric_limits<double>::quiet_NaN() : median(differences);
}

namespace {

// k dependent read-modify-writes of one atomic: each waits for the one before (Ou's loop body).
void atomic_adds(std::atomic<std::uint64_t>& target, std::uint64_t k) {
    for (std::uint64_t j = 0; j < k; ++j)
        target.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

CorrectionCheck check_correction(const std::string& events, const CorrectionCheckOptions& options) {
    RunnerOptions runner_options;
    runner_options.events = events;
    runner_options.repetitions = options.repetitions;
    runner_options.precision = options.precision;
    runner_options.max_time_s = options.max_time_s;
    runner_options.min_sample_time_s = options.min_sample_time_s;
    runner_options.warmup_time_s = options.warmup_time_s;
    runner_options.probe_cpu_gaps = false;  // six runs: calibrate measures nothing about them
    Runner runner(runner_options);

    CorrectionCheck check;
    check.events = events;
    std::atomic<std::uint64_t> target{0};
    for (std::size_t index = 0; index < options.ks.size(); ++index) {
        const std::uint64_t k = options.ks[index];
        if (options.on_row)
            options.on_row(index);
        // One run per k: its two sides alternate batch by batch, so that a pair of one round is
        // a millisecond apart, not a whole sweep's round (the machine changes in between).
        const std::string name = "k=" + std::to_string(k);
        const double sample_time_s = k >= options.long_from_k ? options.long_sample_time_s : 0;
        const RunResult result =
            runner.run({{"reference/" + name,
                         1,
                         0,
                         [&target, k](BatchState& s) {
                             for (std::uint64_t i = 0; i < s.iterations(); ++i)
                                 atomic_adds(target, k);
                         },
                         {},
                         sample_time_s},
                        {"paused/" + name,
                         1,
                         0,
                         [&target, k](BatchState& s) {
                             for (std::uint64_t i = 0; i < s.iterations(); ++i) {
                                 s.pause();
                                 s.resume();
                                 atomic_adds(target, k);
                             }
                         },
                         {},
                         sample_time_s}});
        if (check.rows.empty()) {  // one Runner for every k: its events and costs, once
            for (const auto& e : result.events) {
                if (e.counted)
                    check.counted.push_back(e.name);
            }
            check.not_counted = refusal_lines(result);
            check.batch_overhead_ns = result.batch_overhead_ns;
            check.pause_overhead_ns = result.pause_overhead_ns;
            check.clock_pause_overhead_ns = result.clock_pause_overhead_ns;
            check.pause_overhead_spread_ns = result.pause_overhead_spread_ns;
        }
        const auto& reference = result.benchmarks[0];
        const auto& paused = result.benchmarks[1];
        CorrectionRow row{k, median(reference.ns_per_item), median(paused.raw_ns_per_item),
                          median(paused.ns_per_item)};
        row.raw_error_ns = paired_difference_ns(reference.rounds, reference.ns_per_item,
                                                paused.rounds, paused.raw_ns_per_item);
        row.error_ns = paired_difference_ns(reference.rounds, reference.ns_per_item, paused.rounds,
                                            paused.ns_per_item, &row.pairs);
        row.snapshot_pause_ns = median_snapshot_pause_ns(paused);
        row.machine_drift = result.pause_calibration_drift;
        row.spread_ns = result.pause_overhead_spread_ns;
        check.rows.push_back(row);
    }
    return check;
}

}  // namespace perfgauge::harness
