#include "perfgauge/harness/simulation_budget.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace perfgauge::harness {

double simulation_budget_seconds(std::optional<double> asked, double native_seconds) {
    if (asked)
        return *asked;
    return std::max(kMinimumSimulationBudgetSeconds,
                    std::isfinite(native_seconds) ? native_seconds : 0);
}

SimulationCostModel default_simulation_cost(bool cache_simulation) {
    // Above what was measured (docs/simulation.md, "stat's simulation budget"): a budget is a
    // promise, so the first estimate errs long; the first run done corrects the rest's.
    return {cache_simulation ? 60.0 : 30.0, 1.0};
}

SimulationBudget::SimulationBudget(double budget_s, SimulationCostModel model,
                                   std::vector<double> native_wall_s)
    : budget_s_(budget_s), model_(model), native_wall_s_(std::move(native_wall_s)) {}

double SimulationBudget::modelled(std::size_t c) const {
    const double wall = c < native_wall_s_.size() && native_wall_s_[c] > 0 ? native_wall_s_[c] : 0;
    return model_.startup_seconds + model_.factor * wall;
}

double SimulationBudget::estimate(std::size_t c) const {
    // The runs done say how far off the model is on this machine, now (its load, the kind of
    // program): their time over their estimate.
    const double correction =
        estimated_done_s_ > 0 && spent_s_ > 0 ? spent_s_ / estimated_done_s_ : 1;
    return modelled(c) * correction;
}

double SimulationBudget::estimate_left() const {
    double left = 0;
    for (std::size_t c = next_; c < native_wall_s_.size(); ++c)
        left += estimate(c);
    return left;
}

double SimulationBudget::budget_left() const {
    if (std::isinf(budget_s_))
        return budget_s_;
    return std::max(0.0, budget_s_ - spent_s_);
}

bool SimulationBudget::rest_fits() const {
    if (next_ >= native_wall_s_.size() || !(budget_s_ > 0))
        return false;
    return estimate_left() <= budget_left();
}

void SimulationBudget::done(double seconds) {
    if (next_ >= native_wall_s_.size())
        return;
    // The model's own estimate (uncorrected), so the correction is the ratio over every run.
    estimated_done_s_ += modelled(next_);
    spent_s_ += std::max(0.0, seconds);
    ++next_;
}

std::string budget_text(double seconds) {
    if (std::isinf(seconds))
        return "no limit";
    if (seconds < 60)
        return fmt::format("{:g} s", std::round(seconds * 10) / 10);
    const long whole = std::lround(seconds);
    if (whole % 60 == 0)
        return fmt::format("{} min", whole / 60);
    return fmt::format("{} min {} s", whole / 60, whole % 60);
}

std::string sim_budget_to_ask(double estimate_s) {
    const double rounded = std::ceil(std::max(0.0, estimate_s) / 5) * 5;
    return fmt::format("{:.0f}", std::max(5.0, rounded));
}

}  // namespace perfgauge::harness
