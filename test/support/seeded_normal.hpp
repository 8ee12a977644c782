// Standard normal draws from a seed, the same with any standard library (std::normal_distribution
// is not: its algorithm is the library's), for the seeded synthetic series of statistical tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace perfgauge::test {

/// Box-Muller on mt19937_64.
class SeededNormal {
  public:
    explicit SeededNormal(std::uint64_t seed) : rng_(seed) {}
    double operator()() {
        const double u1 = (static_cast<double>(rng_() >> 11) + 0.5) * 0x1.0p-53;
        const double u2 = uniform();
        return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }

  private:
    std::mt19937_64 rng_;
};

}  // namespace perfgauge::test
