#include "perfgauge/harness/calibration.hpp"

#include <algorithm>
#include <limits>

#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::harness {

namespace {

ClockCalibration calibrate_clock(const Clock& clock, std::size_t samples) {
    ClockCalibration c;
    c.name = clock.name();
    const auto deltas = empty_interval_ns(clock, samples);
    c.overhead_ns = median(deltas);
    double smallest = std::numeric_limits<double>::infinity();
    for (double d : deltas) {
        if (d > 0)
            smallest = std::min(smallest, d);
    }
    c.resolution_ns = clock.kind() == Clock::Kind::tsc ? clock.ns_per_tick() : smallest;
    c.ghz = clock.kind() == Clock::Kind::tsc ? 1.0 / clock.ns_per_tick() : 0.0;
    return c;
}

// Median ns of one snapshot of `events` with the clock's own calibrated cost removed, or
// nullopt when they cannot all be opened or the requested path is not the one in use.
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
    return median(ns) - clock_overhead_ns;
}

}  // namespace

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

    // A fresh set of empty regions, corrected by the overhead calibrated above.
    const auto fresh = empty_interval_ns(region_clock, samples);
    c.empty_region_residual_ns = median(fresh) - c.clocks.front().overhead_ns;

    const std::size_t snapshot_samples = std::max<std::size_t>(100, samples / 20);
    c.snapshot_read_ns =
        snapshot_cost(region_clock, c.clocks.front().overhead_ns,
                      "{task-clock,page-faults,context-switches}", false, snapshot_samples)
            .value_or(std::numeric_limits<double>::quiet_NaN());
    c.snapshot_rdpmc_ns =
        snapshot_cost(region_clock, c.clocks.front().overhead_ns,
                      "{cycles,instructions,branch-misses}", true, snapshot_samples);
    return c;
}

}  // namespace perfgauge::harness
