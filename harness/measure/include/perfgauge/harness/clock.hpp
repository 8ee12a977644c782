// Clocks for timing regions: the CPU's tick counter (x86: the TSC when invariant, calibrated
// against CLOCK_MONOTONIC_RAW; arm64: the generic timer CNTVCT_EL0 at CNTFRQ_EL0), or
// std::chrono::steady_clock. Timestamps are raw ticks; convert deltas with to_ns().
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace perfgauge::harness {

namespace ticks {

#if defined(__x86_64__) || defined(__i386__)
/// Fenced so earlier work completes before it is taken.
inline std::uint64_t start() {
    _mm_lfence();
    const std::uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}
/// rdtscp waits for the measured work to retire.
inline std::uint64_t stop() {
    unsigned aux;
    const std::uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}
inline std::uint64_t now() {
    return __rdtsc();
}
#elif defined(__aarch64__)
// The isb before a read keeps it from being taken ahead of the instructions before it; the one
// after keeps the instructions after it from starting first.
inline std::uint64_t start() {
    std::uint64_t t;
    asm volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(t)::"memory");
    return t;
}
inline std::uint64_t stop() {
    std::uint64_t t;
    asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(t)::"memory");
    return t;
}
inline std::uint64_t now() {
    std::uint64_t t;
    asm volatile("mrs %0, cntvct_el0" : "=r"(t));
    return t;
}
#else
// No tick counter known here: Clock::tsc() returns nullopt, so these are never called.
inline std::uint64_t start() {
    return 0;
}
inline std::uint64_t stop() {
    return 0;
}
inline std::uint64_t now() {
    return 0;
}
#endif

}  // namespace ticks

class Clock {
  public:
    enum class Kind { tsc, steady };

    /// The TSC when it is invariant and calibrates consistently (and not under valgrind, which
    /// cannot run rdtscp), the generic timer on arm64, else steady_clock.
    static Clock best();
    static Clock steady();
    /// The TSC, calibrated over about `calibration_ms` against CLOCK_MONOTONIC_RAW; nullopt when
    /// the CPU has no invariant TSC. On arm64 the generic timer, whose frequency CNTFRQ_EL0
    /// states (no calibration).
    static std::optional<Clock> tsc(int calibration_ms = 50);

    /// A timestamp to start an interval: fenced so earlier work completes before it is taken.
    std::uint64_t start() const { return kind_ == Kind::tsc ? ticks::start() : steady_ticks(); }
    /// A timestamp to end an interval: waits for the measured work to complete.
    std::uint64_t stop() const { return kind_ == Kind::tsc ? ticks::stop() : steady_ticks(); }

    /// A timestamp with no fence: the cheapest read, for seeing how the clock advances.
    std::uint64_t now() const { return kind_ == Kind::tsc ? ticks::now() : steady_ticks(); }

    double to_ns(double ticks) const { return ticks * ns_per_tick_; }
    double ns_per_tick() const { return ns_per_tick_; }
    Kind kind() const { return kind_; }
    std::string name() const {
#if defined(__aarch64__)
        return kind_ == Kind::tsc ? "cntvct" : "steady_clock";
#else
        return kind_ == Kind::tsc ? "tsc" : "steady_clock";
#endif
    }

  private:
    Clock(Kind kind, double ns_per_tick) : kind_(kind), ns_per_tick_(ns_per_tick) {}
    static std::uint64_t steady_ticks() {
        return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now().time_since_epoch())
                                              .count());
    }

    Kind kind_;
    double ns_per_tick_;
};

}  // namespace perfgauge::harness
