// Clocks for timing regions: the TSC (when invariant) calibrated against CLOCK_MONOTONIC_RAW,
// or std::chrono::steady_clock. Timestamps are raw ticks; convert deltas with to_ns().
#pragma once

#include <x86intrin.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace perfgauge::harness {

class Clock {
  public:
    enum class Kind { tsc, steady };

    /// The TSC when it is invariant and calibrates consistently (and not under valgrind, which
    /// cannot run rdtscp), else steady_clock.
    static Clock best();
    static Clock steady();
    /// The TSC, calibrated over about `calibration_ms` against CLOCK_MONOTONIC_RAW; nullopt when
    /// the CPU has no invariant TSC.
    static std::optional<Clock> tsc(int calibration_ms = 50);

    /// A timestamp to start an interval: fenced so earlier work completes before it is taken.
    std::uint64_t start() const {
        if (kind_ == Kind::tsc) {
            _mm_lfence();
            const std::uint64_t t = __rdtsc();
            _mm_lfence();
            return t;
        }
        return steady_ticks();
    }
    /// A timestamp to end an interval: rdtscp waits for the measured work to retire.
    std::uint64_t stop() const {
        if (kind_ == Kind::tsc) {
            unsigned aux;
            const std::uint64_t t = __rdtscp(&aux);
            _mm_lfence();
            return t;
        }
        return steady_ticks();
    }

    /// A timestamp with no fence: the cheapest read, for seeing how the clock advances.
    std::uint64_t now() const { return kind_ == Kind::tsc ? __rdtsc() : steady_ticks(); }

    double to_ns(double ticks) const { return ticks * ns_per_tick_; }
    double ns_per_tick() const { return ns_per_tick_; }
    Kind kind() const { return kind_; }
    std::string name() const { return kind_ == Kind::tsc ? "tsc" : "steady_clock"; }

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
