// What perfgauge selftest found, as data for its writer (selftest_report.hpp): the plan's
// figures, each way of comparing's rates and the verdicts behind them, the noise floor, the
// correction check, the counter checks and the verdict. The cli fills it from the selftest
// library's report; it names no type of that library, which the results library is below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/calibration_result.hpp"
#include "perfgauge/harness/counter_check.hpp"
#include "perfgauge/harness/trial_rates.hpp"

namespace perfgauge::harness {

/// One way of comparing: its rates and the verdicts they come from.
struct SelftestWay {
    ResolutionFigures figures;
    ComparisonTrials trials;
    double seconds = 0;         ///< across processes: the wall time of its trials
    std::string stopped_early;  ///< across processes: why it stopped early ("": it did not)
};

struct SelftestSummary {
    std::string depth;         ///< "tiny", "quick", "standard", "thorough"
    bool whole_sweep = false;  ///< the correction check's whole sweep (thorough); else short
    std::size_t runs = 0;      ///< separate runs
    std::uint64_t base_operations = 0;
    std::vector<double> changes_pct;  ///< the injected changes, in percent
    double power = 0;                 ///< the detection rate a change must reach
    double min_change = 0;            ///< compare's threshold, a share
    std::size_t side_by_side_trials = 0;
    int side_by_side_rounds = 0;
    std::uint64_t side_by_side_iterations = 0;  ///< the chain's, in each process timed whole
    std::size_t against_trials = 0, against_pairs = 0, against_max_pairs = 0;
    double seconds = 0;  ///< wall time of the whole selftest
    Spread within_run, between_run;
    /// across: with the between-run floor (compare --floor); across_without_floor: as a bare
    /// `compare A.json B.json`; side_by_side and against: across processes.
    SelftestWay in_turn, across, across_without_floor, side_by_side, against;
    std::vector<double> across_floors;  ///< each trial across runs' floor (0: none)
    Rate disturbed;                     ///< disturbed samples among all samples taken
    CorrectionCheck correction;         ///< seed 000, short form, no counters
    std::vector<std::string> not_covered, not_measured;
    std::string verdict;
    std::vector<CounterCheck> counter_checks;
    /// Why no hardware event opens here; nullopt: one does, and the checks are shown.
    std::optional<std::string> counters_unavailable;
};

}  // namespace perfgauge::harness
