// How long stat may spend simulating (--sim-budget), and whether callgrind's runs fit it. The
// estimate comes from the native runs: callgrind slows a program some 20-100x, so a command
// that took a second natively takes a minute or so under it. Pure: the times are the caller's.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfgauge::harness {

/// The default budget's floor: a quick command's simulation (valgrind alone takes ~0.2 s of
/// CPU to start) is worth a few seconds whatever the native runs took.
inline constexpr double kMinimumSimulationBudgetSeconds = 10;

/// The budget in seconds: `asked` when given (--sim-budget; infinity: none), else the native
/// measurement's wall time `native_seconds` or kMinimumSimulationBudgetSeconds, the larger.
double simulation_budget_seconds(std::optional<double> asked, double native_seconds);

/// Seconds a run under callgrind takes: startup + factor x the command's native wall time.
struct SimulationCostModel {
    double factor = 50;
    double startup_seconds = 0.5;
};

/// Before any simulated run: factors above those measured on this project's 2-vCPU guest (gzip
/// -1 and -9: 15-27x the native wall time with the branch simulation alone; the cache
/// simulation about doubles it): 30x, 60x with the caches; and valgrind's start-up, 1 s (0.2 s
/// of CPU, 1-1.9 s of wall time on the guest at load 12-15).
SimulationCostModel default_simulation_cost(bool cache_simulation);

/// The runs under callgrind of several commands, one each, in order: whether the next run and
/// every one after it fit what is left of the budget (side by side, a simulated count is worth
/// something only beside the others': all or none), refined by each run done (its time over
/// its estimate scales the estimates of the rest).
class SimulationBudget {
  public:
    /// `native_wall_s`: each command's median native wall time.
    SimulationBudget(double budget_s, SimulationCostModel model, std::vector<double> native_wall_s);

    /// The next command's index (== the count once every run is done).
    std::size_t next() const { return next_; }
    /// Estimated seconds of command `c`'s run, refined by the runs done.
    double estimate(std::size_t c) const;
    /// Estimated seconds of the runs from next() on.
    double estimate_left() const;
    /// Budget seconds not spent yet (infinity for no limit; never below 0).
    double budget_left() const;
    /// Seconds the runs done took.
    double spent() const { return spent_s_; }
    /// Whether the runs left fit the budget left; false once every run is done.
    bool rest_fits() const;
    /// The next command's run took `seconds`.
    void done(double seconds);

  private:
    /// The cost model's own estimate for command `c` (startup + factor x its native wall).
    double modelled(std::size_t c) const;

    double budget_s_;
    SimulationCostModel model_;
    std::vector<double> native_wall_s_;
    std::size_t next_ = 0;
    double spent_s_ = 0, estimated_done_s_ = 0;
};

/// The budget as said to a person: "10 s", "1 min 30 s", "no limit".
std::string budget_text(double seconds);

/// The smallest --sim-budget value, in whole seconds rounded up to 5 s, under which `estimate_s`
/// fits ("45").
std::string sim_budget_to_ask(double estimate_s);

}  // namespace perfgauge::harness
