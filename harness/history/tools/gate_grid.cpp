// The regression gate's false-alarm rate and power on seeded synthetic series, checked after
// every run as a CI job checks them: the figures for docs/measurements.md, not a test.
// Usage: history_gate_grid [SERIES] (default 1000 per cell). Prints Markdown tables.
// GATE_ALPHA, GATE_MIN_AFTER, GATE_MAX_AFTER and GATE_MIN_BASELINE try other settings.
#include <cstdio>
#include <cstdlib>

#include "perfgauge/harness/gate_trials.hpp"

namespace {

using namespace perfgauge::harness;

void false_alarm_table(std::size_t count, const GateOptions& options) {
    std::printf("A/A series that ever alarm (checked after every run):\n\n");
    std::printf("| noise | 20 runs | 100 runs | 200 runs |\n|---:|---:|---:|---:|\n");
    for (const double noise : {0.01, 0.05, 0.20}) {
        std::printf("| %.0f%% |", noise * 100);
        for (const std::size_t runs : {20, 100, 200}) {
            const auto aa = aa_false_alarms(runs == 20    ? count
                                            : runs == 100 ? count / 4
                                                          : count / 10,
                                            runs, noise, options,
                                            runs * 7919 + static_cast<std::size_t>(noise * 1e4));
            std::printf(" %.2f%% (%zu/%zu) |", 100 * aa.rate(), aa.alarmed, aa.series);
        }
        std::printf("\n");
    }
}

void power_table(std::size_t count, std::size_t baseline, const GateOptions& options) {
    std::printf("\nSteps found within r runs after them (%zu runs before; noise 5%%):\n\n",
                baseline);
    std::printf("| step | r=1 | r=2 | r=3 | r=4 | r=5 | r=8 | alarm stood |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const double steps : {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}) {
        const auto p = step_power(count, baseline, 8, steps, 0.05, options, 31 + steps);
        std::printf("| %.0f x noise |", steps);
        for (const std::size_t r : {1, 2, 3, 4, 5, 8})
            std::printf(" %.1f%% |", 100 * p.found_within[r - 1]);
        std::printf(" %.1f%% |\n", 100 * p.stood);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
    GateOptions options;
    if (const char* a = std::getenv("GATE_ALPHA"))
        options.alpha = std::atof(a);
    if (const char* m = std::getenv("GATE_MAX_AFTER"))
        options.max_after = std::strtoul(m, nullptr, 10);
    if (const char* m = std::getenv("GATE_MIN_AFTER"))
        options.min_after = std::strtoul(m, nullptr, 10);
    if (const char* b = std::getenv("GATE_MIN_BASELINE"))
        options.min_baseline = std::strtoul(b, nullptr, 10);
    false_alarm_table(count, options);
    for (const std::size_t baseline : {10, 15})
        power_table(count, baseline, options);
    return 0;
}
