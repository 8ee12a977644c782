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

std::string time_left_text(double seconds) {
    if (!(seconds >= 5))
        return "under 5 s";
    // Coarse on purpose: a figure that jumps by a second on every line reads as noise.
    if (seconds < 60)
        return fmt::format("about {} s", static_cast<long>(std::lround(seconds / 5) * 5));
    if (seconds < 3600) {
        const long tens = std::lround(seconds / 10);  // in 10 s
        if (tens % 6 == 0)
            return fmt::format("about {} min", tens / 6);
        return fmt::format("about {} min {} s", tens / 6, tens % 6 * 10);
    }
    const long minutes = std::lround(seconds / 60);
    return fmt::format("about {} h {} min", minutes / 60, minutes % 60);
}

ProgressMeter::ProgressMeter(std::function<double()> now, ProcessPlace place)
    : now_(std::move(now)), place_(place), started_(now_()) {}

std::string ProgressMeter::line(std::string_view phase, std::size_t done, std::size_t total) {
    const double now = now_();
    if (phase != phase_) {  // each phase goes at its own pace: its rate starts afresh
        phase_ = std::string(phase);
        phase_started_ = now;
    }
    std::string out =
        place_.count > 1 ? fmt::format("process {}/{}, ", place_.index + 1, place_.count) : "";
    if (phase == "sizing")
        return out + fmt::format("sizing batches {}/{}", std::min(done + 1, total), total);
    if (phase == "extra") {
        return out + fmt::format(
                         "more samples for {} of {} benchmarks (short of clean samples or "
                         "of the precision target)",
                         done, total);
    }
    if (phase != "repetition")
        return out + fmt::format("{} {}/{}", phase, std::min(done + 1, total), total);
    out += fmt::format("round {}/{}", std::min(done + 1, total), total);
    const auto left = seconds_left(now - phase_started_, done, total);
    if (!left)
        return out;
    if (place_.count <= 1)
        return out + ", " + time_left_text(*left) + " left";
    // The processes after this one repeat its whole work: sizing, then the rounds.
    const double whole = now - started_ + *left;
    const double later = static_cast<double>(place_.count - place_.index - 1) * whole;
    return out + ", " + time_left_text(*left + later) + " left in all";
}

}  // namespace perfgauge::harness
