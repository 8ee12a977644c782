// What perfgauge selftest measures and how much of it, per depth: the chain's length, the
// injected changes, the separate runs' sampling, and the trials across processes (stat side by
// side, run --against's pairs). Plain data and pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/correction_check.hpp"
#include "perfgauge/harness/selftest_chain.hpp"

namespace perfgauge::harness {

/// How long to look: quick ~15 s, standard ~1.5 min, thorough ~8 min; tiny: a few seconds of
/// structure only (tests), whose figures mean nothing.
enum class SelftestDepth { tiny, quick, standard, thorough };

/// "tiny", "quick", "standard", "thorough".
const char* depth_name(SelftestDepth depth);

/// The trials whose sides are separate, fresh perfgauge processes doing the chain: what lasts a
/// whole process (code and data placement, ASLR, the host's state while it ran) varies between
/// them, as it does for users of stat and run --against.
struct ProcessTrialsPlan {
    /// stat side by side: each trial is one `stat -r ROUNDS -- base ::: same ::: +2% ...`,
    /// every command a process doing the chain `process_work_s` long (at the base's speed
    /// measured in the first run), timed whole (wall time, start-up included).
    std::size_t side_by_side_trials = 6;
    int side_by_side_rounds = 10;  ///< stat's default -r for side by side
    double process_work_s = 0.02;
    /// run --against: each trial measures every work (same, +2%, ...) in pairs of processes,
    /// one doing the base chain and one the work, with run --against's defaults for pairs.
    /// Each measuring process starts a Runner of its own, as run --against's do, and takes
    /// 0.24 s to measure a chain of 0.03 s: about 20 s a trial (84 processes), hence few.
    std::size_t against_trials = 2;
    std::size_t against_pairs = 6;
    std::size_t against_max_pairs = 30;
    double against_pair_precision = 0.05;
};

struct SelftestPlan {
    SelftestDepth depth = SelftestDepth::standard;
    /// Separate runs (a fresh process each, with a Runner of its own): each is one trial in
    /// turn, and each two are one trial across runs.
    std::size_t runs = 40;
    std::vector<double> changes_pct = {2, 3, 5, 10, 20, 50};
    /// k: dependent multiply-adds per iteration. With k >= 100 and changes under 900%, every
    /// chain's length has as many digits as the base's: the child processes' argv are of one
    /// length (see equal_length_paths in against_run.hpp for why that matters).
    std::uint64_t base_operations = 1000;
    /// Sampling per run, as perfgauge run's defaults except the time per benchmark; the seed
    /// is left to each Runner, as run draws it.
    ChainSampling sampling{.repetitions = 10,
                           .seed = {},
                           .precision = 0.01,
                           .max_time_s = 0.1,
                           .min_sample_time_s = 0.002,
                           .warmup_time_s = 0.02};
    double power = 0.95;  ///< the detection rate a change must reach to count as resolved
    CompareOptions compare;
    CorrectionCheckOptions correction;
    ProcessTrialsPlan processes;
};

/// The plan of each depth (pure).
SelftestPlan plan_for(SelftestDepth depth);

/// The chain's length for `change_pct` more work than the base's (rounded).
std::uint64_t chain_operations(const SelftestPlan& plan, double change_pct);

}  // namespace perfgauge::harness
