#include "perfgauge/harness/simulation_stage.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/stage_failures.hpp"

namespace perfgauge::harness {

namespace {

std::function<int()> or_interrupt_signal(std::function<int()> seam) {
    return seam ? std::move(seam) : std::function<int()>(interrupt_signal);
}

}  // namespace

EventRefusal interrupted_simulation(int signal, const std::string& when) {
    return {"not counted",
            fmt::format("interrupted by {} {}; the native measurement before it is complete",
                        signal_name(signal), when),
            "run again without interrupting it (or with --backend perf to skip simulation)"};
}

EventRefusal interrupted_native_measurement(const std::string& signal) {
    return {"not counted",
            fmt::format("interrupted by {} during the native measurement, so never simulated "
                        "under callgrind",
                        signal),
            "run again without interrupting it (or with --backend perf to skip simulation)"};
}

std::optional<SimulationResult> simulate_unless_interrupted(
    const std::function<SimulationResult()>& simulate, RunResult& result,
    std::function<int()> interrupt_signal) {
    const auto interrupted = or_interrupt_signal(std::move(interrupt_signal));
    const auto start = std::chrono::steady_clock::now();
    try {
        auto sim = simulate();
        if (interrupted() == 0)
            return sim;
    } catch (const std::runtime_error& e) {
        // valgrind (or perfgauge under it) ended by the signal: any error it caused is moot.
        // Any other failure loses the simulated counts only: the native result is kept.
        if (interrupted() == 0) {
            record_stage_failure("the simulation under callgrind");
            return failed_simulation(
                e.what(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
    }
    result.interrupted_by = signal_name(interrupted());
    return std::nullopt;
}

std::optional<SimulationResult> simulate_and_merge(
    const EventPlan& plan, Backend backend, const std::function<SimulationResult()>& simulate,
    RunResult& result, std::function<int()> interrupt_signal) {
    const auto interrupted = or_interrupt_signal(std::move(interrupt_signal));
    // Which stage the interrupt stopped decides what the events say: an interrupted native
    // measurement was not complete, and no simulation ever started after it.
    const std::string native_interrupted_by = result.interrupted_by;
    std::optional<SimulationResult> sim;
    bool started = false;
    if (plan.any_simulated() && interrupted() == 0) {
        started = true;
        sim = simulate_unless_interrupted(simulate, result, interrupted);
    } else if (plan.any_simulated() && result.interrupted_by.empty()) {
        result.interrupted_by = signal_name(interrupted());  // between the two stages
    }
    if (sim) {
        merge_simulated(result, plan, *sim);
    } else if (backend != Backend::perf && result.interrupted_by.empty()) {
        merge_simulated(result, plan, {});  // events neither backend counts
    } else if (backend != Backend::perf) {
        const auto why =
            !native_interrupted_by.empty()
                ? interrupted_native_measurement(native_interrupted_by)
                : interrupted_simulation(interrupted(), started ? "while simulated under callgrind"
                                                                : "before the simulation under "
                                                                  "callgrind");
        merge_simulated(result, without_simulation(plan, why), {});
    }
    return sim;
}

}  // namespace perfgauge::harness
