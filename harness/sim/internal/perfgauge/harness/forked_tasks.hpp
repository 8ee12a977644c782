// The simulated backend's processes: tasks run each in a process forked for it, several at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace perfgauge::harness {

/// What one forked task returned, and how long its process lasted (fork to reap).
struct ForkedOutcome {
    std::uint64_t value = 0;
    double seconds = 0;
};

/// Runs task(i) for every i of `order` in a process forked for it, at most `jobs` at once,
/// started in `order`; returns the outcomes indexed by i. Each child inherits this process as it
/// is at the fork (under valgrind: the simulator's caches and predictor too), so a task's
/// outcome depends neither on `jobs` nor on the other tasks. A child dies with this process
/// (PR_SET_PDEATHSIG), receives its interrupts, and is killed and reaped when a task fails
/// (pmu::SimulationError naming `describe(i)`) or an interrupt stops the run (whatever ran is
/// returned; interrupt_signal() says why it is incomplete).
std::vector<ForkedOutcome> run_forked(const std::vector<std::size_t>& order, unsigned jobs,
                                      const std::function<std::uint64_t(std::size_t)>& task,
                                      const std::function<std::string(std::size_t)>& describe);

}  // namespace perfgauge::harness
