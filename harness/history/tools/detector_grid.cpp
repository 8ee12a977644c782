// Precision, recall and false-alarm rate of detect_change_points over a grid of seeded
// synthetic series: shift sizes x run-to-run noise x series lengths, one shift at a random
// place in the middle 60% of each series, and as many series of the same noise without one.
// Usage: history_detector_grid [TRIALS] (default 20 per cell). Prints a Markdown table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "perfgauge/harness/change_points.hpp"

namespace {

using perfgauge::harness::RunPoint;

std::vector<RunPoint> series(std::size_t n, std::size_t at, double shift, double noise,
                             std::mt19937_64& rng) {
    std::normal_distribution<double> z(0, 1);
    std::vector<RunPoint> out;
    for (std::size_t i = 0; i < n; ++i) {
        const double value = 100 * (i >= at ? 1 + shift : 1) * (1 + noise * z(rng));
        // A run's own interval is narrower than the run-to-run noise (the samples of one
        // process share its placement and the machine's state): a quarter of it here.
        out.push_back({value, 0.25 * noise * value});
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const int trials = argc > 1 ? std::atoi(argv[1]) : 20;
    const double sizes[] = {0.02, 0.05, 0.10, 0.20};
    const double noises[] = {0.01, 0.02, 0.05, 0.10};
    const std::size_t lengths[] = {30, 100, 200};
    std::printf("| runs | noise | size | precision | recall | false alarms (no shift) |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|\n");
    std::mt19937_64 rng(2026);
    for (const auto n : lengths) {
        for (const double noise : noises) {
            // The false-alarm rate depends on n and noise only: measured once per pair.
            int alarmed = 0;
            for (int t = 0; t < trials; ++t)
                alarmed +=
                    !perfgauge::harness::detect_change_points(series(n, n, 0, noise, rng)).empty();
            for (const double size : sizes) {
                int reported = 0, correct = 0, found = 0;
                for (int t = 0; t < trials; ++t) {
                    std::uniform_int_distribution<std::size_t> where(n / 5, n - n / 5);
                    const std::size_t at = where(rng);
                    const auto changes =
                        perfgauge::harness::detect_change_points(series(n, at, size, noise, rng));
                    // Right when within 2 runs or 5% of the series of the true place.
                    const double tolerance = std::max(2.0, 0.05 * static_cast<double>(n));
                    bool hit = false;
                    for (const auto& c : changes) {
                        ++reported;
                        const bool near = std::abs(static_cast<double>(c.index) -
                                                   static_cast<double>(at)) <= tolerance;
                        correct += near && c.regression;
                        hit = hit || near;
                    }
                    found += hit;
                }
                std::printf(
                    "| %zu | %.0f%% | %.0f%% | %s | %.2f | %.2f |\n", n, noise * 100, size * 100,
                    reported == 0 ? "-"
                                  : std::to_string(static_cast<double>(correct) / reported)
                                        .substr(0, 4)
                                        .c_str(),
                    static_cast<double>(found) / trials, static_cast<double>(alarmed) / trials);
            }
        }
    }
    return 0;
}
