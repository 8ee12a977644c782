#include "perfgauge/harness/calibration.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "perfgauge/harness/overhead.hpp"
#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::harness {

namespace {

// Enough consecutive reads to see every step size that matters, in a few milliseconds.
constexpr std::size_t kStepReads = 100000;

ClockCalibration calibrate_clock(const Clock& clock, std::size_t samples) {
    ClockCalibration c;
    c.name = clock.name();
    c.overhead_ns = quantum_robust_mean(empty_interval_ns(clock, samples));
    c.steps = summarize_steps(consecutive_read_deltas(clock, kStepReads), clock.ns_per_tick());
    c.nominal_ghz = clock.kind() == Clock::Kind::tsc ? 1.0 / clock.ns_per_tick() : 0.0;
    return c;
}

// Ns of one snapshot of `events` (quantum_robust_mean) with the clock's own calibrated cost
// removed, or nullopt when they cannot all be opened or the requested path is not the one in use.
std::optional<double> snapshot_cost(const Clock& clock, double clock_overhead_ns,
                                    const char* events, bool rdpmc, std::size_t samples) {
    pmu::CounterOptions options;
    options.map_pages = rdpmc;
    auto set = pmu::CounterSet::open(pmu::EventResolver().resolve(events), options);
    if (set.opened_count() != set.events().size())
        return std::nullopt;
    set.enable();
    auto snap = set.make_snapshot();
    set.read(snap);
    if ((snap.path == pmu::ReadPath::rdpmc) != rdpmc)
        return std::nullopt;
    std::vector<double> ns(samples);
    for (auto& x : ns) {
        const auto t0 = clock.start();
        set.read(snap);
        const auto t1 = clock.stop();
        x = clock.to_ns(static_cast<double>(t1 - t0));
    }
    return quantum_robust_mean(ns) - clock_overhead_ns;
}

}  // namespace

ClockSteps summarize_steps(std::span<const std::uint64_t> deltas_ticks, double ns_per_tick,
                           std::size_t most) {
    ClockSteps out;
    std::map<std::uint64_t, std::size_t> by_size;  // ordered: ties resolve to the smaller step
    std::size_t same = 0;
    for (const std::uint64_t d : deltas_ticks) {
        if (d == 0)
            ++same;
        else
            ++by_size[d];
    }
    if (deltas_ticks.empty())
        return out;
    out.same_value_share = static_cast<double>(same) / static_cast<double>(deltas_ticks.size());
    if (by_size.empty())
        return out;
    const double nonzero = static_cast<double>(deltas_ticks.size() - same);
    std::uint64_t step = 0;
    out.exact = true;
    for (const auto& [size, count] : by_size) {  // smallest first
        if (static_cast<double>(count) < kCommonStepShare * nonzero)
            continue;
        if (step == 0)
            step = size;
        else if (size % step != 0)
            out.exact = false;
    }
    out.exact = out.exact || same > 0;
    out.granularity_ns = static_cast<double>(step) * ns_per_tick;
    std::vector<std::pair<std::uint64_t, std::size_t>> steps(by_size.begin(), by_size.end());
    std::stable_sort(steps.begin(), steps.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (std::size_t i = 0; i < steps.size() && i < most; ++i) {
        out.common.push_back({static_cast<double>(steps[i].first) * ns_per_tick,
                              static_cast<double>(steps[i].second) / nonzero});
    }
    return out;
}

std::vector<std::uint64_t> consecutive_read_deltas(const Clock& clock, std::size_t reads) {
    std::vector<std::uint64_t> t(reads);  // preallocated: nothing but the clock in the loop
    for (auto& x : t)
        x = clock.now();
    std::vector<std::uint64_t> deltas;
    for (std::size_t i = 1; i < t.size(); ++i)
        deltas.push_back(t[i] - t[i - 1]);
    return deltas;
}

std::vector<double> empty_interval_ns(const Clock& clock, std::size_t samples) {
    std::vector<std::uint64_t> ticks(samples);  // preallocated: nothing but the clock in the loop
    for (auto& t : ticks) {
        const auto t0 = clock.start();
        const auto t1 = clock.stop();
        t = t1 - t0;
    }
    std::vector<double> ns;
    ns.reserve(samples);
    for (auto t : ticks)
        ns.push_back(clock.to_ns(static_cast<double>(t)));
    return ns;
}

Calibration calibrate(std::size_t samples) {
    Calibration c;
    c.samples = samples;
    const Clock region_clock = Clock::best();
    c.clocks.push_back(calibrate_clock(region_clock, samples));
    if (region_clock.kind() != Clock::Kind::steady)
        c.clocks.push_back(calibrate_clock(Clock::steady(), samples));

    const std::size_t snapshot_samples = std::max<std::size_t>(100, samples / 20);
    c.snapshot_read_ns =
        snapshot_cost(region_clock, c.clocks.front().overhead_ns,
                      "{task-clock,page-faults,context-switches}", false, snapshot_samples)
            .value_or(std::numeric_limits<double>::quiet_NaN());
    // A PMU without branch-misses (QEMU's emulated one) still has a user-read path to time.
    for (const char* group : {"{cycles,instructions,branch-misses}", "{cycles,instructions}"}) {
        c.snapshot_rdpmc_ns = snapshot_cost(region_clock, c.clocks.front().overhead_ns, group, true,
                                            snapshot_samples);
        if (c.snapshot_rdpmc_ns) {
            c.snapshot_rdpmc_group = group;
            break;
        }
    }
    return c;
}

}  // namespace perfgauge::harness
