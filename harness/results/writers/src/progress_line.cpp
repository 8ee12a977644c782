#include "perfgauge/harness/progress_line.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace perfgauge::harness {

std::optional<double> seconds_left(double elapsed_s, std::size_t done, std::size_t total) {
    if (done == 0 || done >= total || !(elapsed_s >= 0) || !std::isfinite(elapsed_s))
        return std::nullopt;
    return elapsed_s / static_cast<double>(done) * static_cast<double>(total - done);
}

namespace {

// "40 s" (5 s steps), "2 min 10 s" (10 s steps), "1 h 5 min". Coarse on purpose: a figure that
// jumps by a second on every line reads as noise.
std::string duration_text(double seconds) {
    if (seconds < 60)
        return fmt::format("{} s", static_cast<long>(std::lround(seconds / 5) * 5));
    if (seconds < 3600) {
        const long tens = std::lround(seconds / 10);  // in 10 s
        if (tens % 6 == 0)
            return fmt::format("{} min", tens / 6);
        return fmt::format("{} min {} s", tens / 6, tens % 6 * 10);
    }
    const long minutes = std::lround(seconds / 60);
    return fmt::format("{} h {} min", minutes / 60, minutes % 60);
}

}  // namespace

std::string time_left_text(double seconds) {
    if (!(seconds >= 5))
        return "under 5 s";
    return "about " + duration_text(seconds);
}

std::string time_range_text(double low, double high) {
    if (!(high >= low) || high - low <= std::max(10.0, 0.25 * low))
        return time_left_text((low + high) / 2);
    if (low < 5)
        return "at most " + duration_text(high);
    return fmt::format("{} to {}", duration_text(low), duration_text(high));
}

double simulation_seconds_per_benchmark(unsigned jobs) {
    constexpr double kMeasuredSeconds = 0.54;  // 2 jobs at once (see the header)
    return kMeasuredSeconds * 2 / static_cast<double>(std::max(1u, jobs));
}

ProgressMeter::ProgressMeter(std::function<double()> now, ProcessPlace place,
                             ProgressOutlook outlook)
    : now_(std::move(now)), place_(place), outlook_(outlook), started_(now_()) {}

double ProgressMeter::extra_at_most(std::size_t rounds, double per_round) const {
    if (!outlook_.extra_rounds)
        return 0;
    // Retakes: while fewer rounds than twice the plan have run. Precision: until the budget
    // is spent.
    const std::size_t retake_rounds_left = 2 * planned_ - std::min(rounds, 2 * planned_);
    const double retakes = static_cast<double>(retake_rounds_left) * per_round;
    const double budget = outlook_.budget_s - static_cast<double>(rounds) * per_round;
    return std::max({0.0, retakes, budget});
}

std::string ProgressMeter::left_text(double this_low, double this_high, double now) const {
    const double simulation =
        static_cast<double>(benchmarks_) * outlook_.simulation_s_per_benchmark;
    double low = this_low + simulation, high = this_high + simulation;
    // "in all": beyond this process's rounds (later processes, the simulation stage).
    const char* where = simulation > 0 ? " in all" : "";
    if (place_.count > 1) {
        // The processes after this one repeat its whole work: sizing, then the rounds, and up
        // to as many extra rounds.
        const double later = static_cast<double>(place_.count - place_.index - 1);
        const double planned_whole = (planned_ended_ ? planned_end_ : now + this_low) - started_;
        const double per_round = benchmarks_ > 0 ? round_s_ / static_cast<double>(benchmarks_) : 0;
        low += later * planned_whole;
        high += later * (planned_whole +
                         static_cast<double>(benchmarks_) * extra_at_most(planned_, per_round));
        where = " in all";
    }
    return time_range_text(low, high) + " left" + where;
}

std::string ProgressMeter::line(std::string_view phase, std::size_t done, std::size_t total) {
    const double now = now_();
    if (phase != phase_) {  // each phase goes at its own pace: its rate starts afresh
        if (phase_ == "repetition") {
            planned_end_ = now;
            planned_ended_ = true;
        }
        phase_ = std::string(phase);
        phase_started_ = now;
    }
    std::string out =
        place_.count > 1 ? fmt::format("process {}/{}, ", place_.index + 1, place_.count) : "";
    if (phase == "sizing") {
        benchmarks_ = total;
        return out + fmt::format("sizing batches {}/{}", std::min(done + 1, total), total);
    }
    if (phase == "extra") {
        benchmarks_ = total;
        ++extra_rounds_;
        out += fmt::format("more samples for {} of {} benchmarks", done, total);
        if (!outlook_.extra_rounds || !(round_s_ > 0) || total == 0)
            return out + " (short of clean samples or of the precision target)";
        // Those still short, each at most until its retakes or its budget run out.
        const double per_round = round_s_ / static_cast<double>(total);
        const double at_most =
            static_cast<double>(done) * extra_at_most(planned_ + extra_rounds_ - 1, per_round);
        return out + ", " + left_text(0, at_most, now);
    }
    if (phase != "repetition")
        return out + fmt::format("{} {}/{}", phase, std::min(done + 1, total), total);
    planned_ = total;
    out += fmt::format("round {}/{}", std::min(done + 1, total), total);
    const auto left = seconds_left(now - phase_started_, done, total);
    if (!left)
        return out;
    round_s_ = (now - phase_started_) / static_cast<double>(done);
    const double per_round = benchmarks_ > 0 ? round_s_ / static_cast<double>(benchmarks_) : 0;
    const double extra = static_cast<double>(benchmarks_) * extra_at_most(total, per_round);
    if (place_.count <= 1 && !outlook_.extra_rounds && outlook_.simulation_s_per_benchmark == 0)
        return out + ", " + time_left_text(*left) + " left";
    return out + ", " + left_text(*left, *left + extra, now);
}

}  // namespace perfgauge::harness
