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
    std::optional<SimulationResult> sim;
    if (plan.any_simulated() && interrupted() == 0)
        sim = simulate_unless_interrupted(simulate, result, interrupted);
    if (sim) {
        merge_simulated(result, plan, *sim);
    } else if (backend != Backend::perf && result.interrupted_by.empty()) {
        merge_simulated(result, plan, {});  // events neither backend counts
    } else if (backend != Backend::perf) {
        // Interrupted before or during the simulation: its events say so.
        merge_simulated(result, without_simulation(plan, interrupted_simulation(interrupted())),
                        {});
    }
    return sim;
}

}  // namespace perfgauge::harness
