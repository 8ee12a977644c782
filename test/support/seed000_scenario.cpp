// Issue 34's seed-000 library scenario, for the measurements log (not a test: its figures are
// real timing): k atomic adds per iteration, k = 1 .. 100000, with and without a
// pause()/resume() pair per iteration, 15 repetitions of 20 ms samples, one Runner with
// `events` (argv[1], default "task-clock"; "" for none). Prints, per k, the samples kept and
// set aside, the corrected error (pausing minus plain, per iteration, the median of the
// differences within a round as calibrate's check takes it) against what that check holds it
// to (max(1 ns, 2%) or the pair's spread the run reports, whichever is wider) and against the
// 95% intervals of both medians, the run's wall time and the load average around it.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "perfgauge/harness/correction_check.hpp"
#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/statistics.hpp"

using namespace perfgauge::harness;

namespace {
std::atomic<std::uint64_t> counter{0};

Benchmark adds(std::uint64_t k, bool pausing) {
    return {(pausing ? "paused/" : "plain/") + std::to_string(k),
            1,
            0,
            [k, pausing](BatchState& s) {
                for (std::uint64_t i = 0; i < s.iterations(); ++i) {
                    if (pausing) {
                        s.pause();
                        s.resume();
                    }
                    for (std::uint64_t j = 0; j < k; ++j)
                        counter.fetch_add(1, std::memory_order_relaxed);
                }
            },
            {}};
}

double half_width(const BenchmarkResult& b) {
    if (b.ns_per_item.size() < 2)
        return 0;
    const Interval ci = median_interval(b.ns_per_item);
    return (ci.high - ci.low) / 2;
}

double load_average() {
    double load[1] = {0};
    return ::getloadavg(load, 1) == 1 ? load[0] : -1;
}
}  // namespace

int main(int argc, char** argv) {
    RunnerOptions options;
    const char* events = argc > 1 ? argv[1] : "task-clock";
    options.events = events;
    options.repetitions = 15;
    options.min_sample_time_s = 0.02;
    options.seed = 0;
    const std::vector<std::uint64_t> ks = {1, 10, 100, 1000, 10000, 100000};
    std::vector<Benchmark> benchmarks;
    for (const auto k : ks) {
        benchmarks.push_back(adds(k, false));
        benchmarks.push_back(adds(k, true));
    }
    const double load_before = load_average();
    const auto start = std::chrono::steady_clock::now();
    Runner runner(options);
    const RunResult r = runner.run(benchmarks);
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "events '%s': pair %.2f ns (clock-only %.2f ns), its spread +-%.2f ns, wall %.1f s, "
        "1-minute load %.2f before, %.2f after\n",
        events, r.pause_overhead_ns, r.clock_pause_overhead_ns, r.pause_overhead_spread_ns, wall_s,
        load_before, load_average());
    std::printf("%7s %11s %11s %10s %10s %9s %9s %9s %12s %4s\n", "k", "plain kept", "pause kept",
                "plain ns", "pause ns", "error ns", "raw err", "+-CI ns", "held to", "");
    for (std::size_t i = 0; i < ks.size(); ++i) {
        const auto& plain = r.benchmarks[2 * i];
        const auto& paused = r.benchmarks[2 * i + 1];
        const bool both = !plain.ns_per_item.empty() && !paused.ns_per_item.empty();
        CorrectionRow row{ks[i], both ? median(plain.ns_per_item) : 0,
                          both ? median(paused.raw_ns_per_item) : 0,
                          both ? median(paused.ns_per_item) : 0};
        row.raw_error_ns = paired_difference_ns(plain.rounds, plain.ns_per_item, paused.rounds,
                                                paused.raw_ns_per_item);
        row.error_ns = paired_difference_ns(plain.rounds, plain.ns_per_item, paused.rounds,
                                            paused.ns_per_item, &row.pairs);
        row.spread_ns = r.pause_overhead_spread_ns;
        std::printf("%7llu %6zu/%-4zu %6zu/%-4zu %10.2f %10.2f %+9.2f %+9.2f %9.2f %9.2f %s %s\n",
                    static_cast<unsigned long long>(ks[i]), plain.ns_per_item.size(),
                    plain.ns_per_item.size() + plain.disturbed.size(), paused.ns_per_item.size(),
                    paused.ns_per_item.size() + paused.disturbed.size(), row.reference_ns,
                    row.corrected_ns, row.error_ns, row.raw_error_ns,
                    half_width(plain) + half_width(paused), correction_tolerance_ns(row),
                    held_to_spread(row) ? "(spr)" : "     ",
                    row.pairs == 0           ? "no pair"
                    : correction_passes(row) ? "ok"
                                             : "FAIL");
    }
    for (const auto& w : r.warnings)
        std::printf("warning: %s\n", w.c_str());
    return 0;
}
