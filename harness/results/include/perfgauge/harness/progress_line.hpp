// A progress line a person can use: a total that does not move, and an estimate of the time
// left from the rate so far, across the measuring processes of a run split over several. Pure:
// the clock is the caller's (tests inject one) and nothing is printed here; the command decides
// where (a terminal only, never a file or a pipe).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace perfgauge::harness {

/// Seconds left at the rate so far: `elapsed_s` spent on `done` of `total` steps. Nullopt
/// before the first step ends (no rate yet), or when `done` is not below `total`.
std::optional<double> seconds_left(double elapsed_s, std::size_t done, std::size_t total);

/// "under 5 s", "about 40 s" (5 s steps), "about 2 min 10 s" (10 s steps), "about 1 h 5 min".
std::string time_left_text(double seconds);

/// This measuring process's place among those a run is split into (index from 0).
struct ProcessPlace {
    std::size_t index = 0, count = 1;
};

/// Turns the runner's progress calls into lines. The phases it knows (runner.hpp):
/// ("sizing", b, benchmarks): sizing benchmark b's batches (the warm-up);
/// ("repetition", r, repetitions): the planned round r starts, the total fixed;
/// ("extra", short, benchmarks): rounds beyond the plan for the benchmarks still short of clean
/// samples or of the precision target - how many, never a round count beyond the plan.
class ProgressMeter {
  public:
    /// `now`: seconds on a steady clock; the meter starts counting when constructed.
    explicit ProgressMeter(std::function<double()> now, ProcessPlace place = {});

    /// The line for a call (without "\r" or a prefix). The time left, once a planned round has
    /// ended: this process's, and with several processes the whole run's (the later ones take
    /// as long as this one).
    std::string line(std::string_view phase, std::size_t done, std::size_t total);

  private:
    std::function<double()> now_;
    ProcessPlace place_;
    double started_ = 0;
    std::string phase_;
    double phase_started_ = 0;
};

}  // namespace perfgauge::harness
