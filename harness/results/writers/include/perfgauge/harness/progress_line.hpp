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

/// An estimate between `low` and `high` seconds: time_left_text of the middle when they are
/// close (within 25% of the low end, or 10 s), else "30 s to 2 min 10 s" ("at most 2 min 10 s"
/// from under 5 s).
std::string time_range_text(double low, double high);

/// What a run does beyond its planned rounds, for the estimate of the time left.
struct ProgressOutlook {
    /// The runner adds rounds after the plan: retakes for benchmarks short of clean samples
    /// (at most as many rounds again as planned), and rounds for those short of the precision
    /// target until their samples have taken `budget_s` each (--max-time).
    bool extra_rounds = false;
    double budget_s = 0;
    /// The simulation stage after the measurement: seconds per benchmark (0: none), as
    /// simulation_seconds_per_benchmark estimates them.
    double simulation_s_per_benchmark = 0;
};

/// The simulation stage's wall time per benchmark with `jobs` processes at once: one callgrind
/// process per benchmark, --sim-items items each. From the quick start of 2026-11-28 (84
/// benchmarks, 100000 items, 2 at once: 45.7 s, 0.54 s each, at load 13; docs/measurements.md).
double simulation_seconds_per_benchmark(unsigned jobs);

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
    explicit ProgressMeter(std::function<double()> now, ProcessPlace place = {},
                           ProgressOutlook outlook = {});

    /// The line for a call (without "\r" or a prefix). The time left, once a planned round has
    /// ended: this process's, and with several processes the whole run's (the later ones take
    /// as long as this one), and the simulation stage after them. With extra rounds possible
    /// it is a range: the planned rounds alone, up to every benchmark using its extra rounds
    /// (a round's time shared equally among the benchmarks); in the extra rounds, up to the
    /// benchmarks still short using theirs.
    std::string line(std::string_view phase, std::size_t done, std::size_t total);

  private:
    // Seconds a benchmark's extra rounds may take at most, after `rounds` rounds of it, each
    // `per_round` seconds (a round's time over the benchmarks).
    double extra_at_most(std::size_t rounds, double per_round) const;
    std::string left_text(double this_low, double this_high, double now) const;

    std::function<double()> now_;
    ProcessPlace place_;
    ProgressOutlook outlook_;
    double started_ = 0;
    std::string phase_;
    double phase_started_ = 0;
    std::size_t benchmarks_ = 0;  // from the sizing calls
    std::size_t planned_ = 0;     // planned rounds
    double round_s_ = 0;          // a planned round's time, once one has ended
    double planned_end_ = 0;      // when the planned rounds ended (the extra rounds began)
    bool planned_ended_ = false;
    std::size_t extra_rounds_ = 0;  // extra rounds begun
};

}  // namespace perfgauge::harness
