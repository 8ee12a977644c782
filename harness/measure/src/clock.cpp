#include "perfgauge/harness/clock.hpp"

#include <time.h>

#include <algorithm>
#include <array>

#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/callgrind.hpp"

namespace perfgauge::harness {

namespace {

std::uint64_t monotonic_raw_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

// One estimate of ns per TSC tick over `ms` milliseconds. Each end pairs a raw-clock read with
// the TSC read taken in the middle of two raw-clock reads, so the pairing error is half of one
// clock_gettime (~15 ns), i.e. < 1 ppm over 10 ms.
double ns_per_tick_over(int ms) {
    auto pair = [] {
        const std::uint64_t a = monotonic_raw_ns();
        const std::uint64_t t = ticks::now();
        const std::uint64_t b = monotonic_raw_ns();
        return std::pair<double, double>((static_cast<double>(a) + static_cast<double>(b)) / 2,
                                         static_cast<double>(t));
    };
    const auto [ns0, tsc0] = pair();
    const std::uint64_t until = monotonic_raw_ns() + static_cast<std::uint64_t>(ms) * 1'000'000ull;
    while (monotonic_raw_ns() < until) {
    }
    const auto [ns1, tsc1] = pair();
    return (ns1 - ns0) / (tsc1 - tsc0);
}

}  // namespace

Clock Clock::steady() {
    return Clock(Kind::steady, 1.0);
}

std::optional<Clock> Clock::tsc(int calibration_ms) {
#if defined(__aarch64__)
    // The generic timer states its own frequency, and runs at it whatever the core's clock does.
    (void)calibration_ms;
    std::uint64_t hz = 0;
    asm volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    if (hz == 0)
        return std::nullopt;
    return Clock(Kind::tsc, 1e9 / static_cast<double>(hz));
#elif !defined(__x86_64__) && !defined(__i386__)
    (void)calibration_ms;
    return std::nullopt;
#endif
    if (!detect_cpu().invariant_tsc)
        return std::nullopt;
    // Median of five estimates: one preempted interval cannot skew it.
    std::array<double, 5> estimates{};
    for (auto& e : estimates)
        e = ns_per_tick_over(std::max(1, calibration_ms / 5));
    std::sort(estimates.begin(), estimates.end());
    const double ns_per_tick = estimates[2];
    if (!(ns_per_tick > 0))
        return std::nullopt;
    return Clock(Kind::tsc, ns_per_tick);
}

Clock Clock::best() {
    // valgrind (3.19) does not decode rdtscp: a Session simulated under callgrind would die of
    // SIGILL at its first region; time taken under valgrind means nothing anyway.
    if (pmu::callgrind::running_on_valgrind())
        return steady();
    if (auto tsc_clock = tsc())
        return *tsc_clock;
    return steady();
}

}  // namespace perfgauge::harness
