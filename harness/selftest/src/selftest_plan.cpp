#include "perfgauge/harness/selftest_plan.hpp"

namespace perfgauge::harness {

const char* depth_name(SelftestDepth depth) {
    switch (depth) {
        case SelftestDepth::tiny:
            return "tiny";
        case SelftestDepth::quick:
            return "quick";
        case SelftestDepth::standard:
            return "standard";
        case SelftestDepth::thorough:
            return "thorough";
    }
    return "standard";
}

namespace {

// Structure only: every figure rests on two runs of 3 samples and one trial of each kind
// across processes.
void make_tiny(SelftestPlan& plan) {
    plan.runs = 2;
    plan.changes_pct = {5, 50};
    plan.base_operations = 200;
    plan.sampling.repetitions = 3;
    plan.sampling.precision = 0;
    plan.sampling.max_time_s = 0.005;
    plan.sampling.min_sample_time_s = 0.0002;
    plan.sampling.warmup_time_s = 0.001;
    plan.correction.ks = {1};
    plan.correction.repetitions = 3;
    plan.correction.precision = 0;
    plan.correction.max_time_s = 0.005;
    plan.correction.warmup_time_s = 0.001;
    plan.processes.side_by_side_trials = 1;
    plan.processes.side_by_side_rounds = 5;  // compare needs 5 samples a side
    plan.processes.process_work_s = 0.001;
    plan.processes.against_trials = 1;
    plan.processes.against_pairs = plan.processes.against_max_pairs = kMinPairedRuns;
}

}  // namespace

SelftestPlan plan_for(SelftestDepth depth) {
    SelftestPlan plan;
    plan.depth = depth;
    // The short correction check: three k instead of six, fewer samples (seed 000's targets
    // unchanged: |error| <= max(1 ns, 2%)). Not k = 10000: from there its batches last 5 ms,
    // and beside other builds (load average 13 on 2 CPUs) every one was disturbed (no pair).
    plan.correction.ks = {1, 100, 1000};
    plan.correction.repetitions = 11;
    plan.correction.max_time_s = 0.05;
    switch (depth) {
        case SelftestDepth::tiny:
            make_tiny(plan);
            break;
        case SelftestDepth::quick:
            plan.runs = 12;
            plan.sampling.max_time_s = 0.04;
            // run --against's pairs cost ~20 s a trial (each of 84 measuring processes takes
            // 0.24 s to run a chain of 0.03 s): not in a quick look.
            plan.processes.side_by_side_trials = 2;
            plan.processes.against_trials = 0;
            break;
        case SelftestDepth::standard:
            break;
        case SelftestDepth::thorough:
            plan.runs = 120;
            plan.sampling.max_time_s = 0.2;
            plan.correction.ks = {1, 10, 100, 1000, 10000, 100000};
            plan.correction.repetitions = 21;
            plan.correction.max_time_s = 0.1;
            plan.processes.side_by_side_trials = 30;
            plan.processes.against_trials = 12;
            break;
    }
    return plan;
}

std::uint64_t chain_operations(const SelftestPlan& plan, double change_pct) {
    return static_cast<std::uint64_t>(
        static_cast<double>(plan.base_operations) * (1 + change_pct / 100) + 0.5);
}

}  // namespace perfgauge::harness
