#include "perfgauge/harness/sampling_rounds.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "perfgauge/harness/overhead.hpp"
#include "perfgauge/harness/precision.hpp"

namespace perfgauge::harness {

bool wants_sample(const SamplingPlan& plan, std::size_t round,
                  const std::vector<double>& clean_ns_per_item, std::size_t disturbed,
                  double spent_ns, bool settled) {
    const std::size_t taken = clean_ns_per_item.size() + disturbed;
    if (taken >= plan.room)
        return false;
    if (clean_ns_per_item.size() < plan.repetitions && round < plan.retake_rounds)
        return true;
    // A settled benchmark still short of its clean samples (a rider set aside more often than
    // the decoders it rides with) keeps them coming, as before.
    const bool short_of_count = clean_ns_per_item.size() < plan.repetitions;
    return plan.precision > 0 && (!settled || short_of_count) && spent_ns < plan.budget_ns &&
           !(median_precision(clean_ns_per_item) <= plan.precision);
}

void reserve_samples(BenchmarkResult& r, std::size_t room, std::size_t events, bool timed_apart) {
    r.ns_per_item.reserve(room);
    r.raw_ns_per_item.reserve(room);
    r.cpu_ns_per_item.reserve(room);
    if (timed_apart)
        r.snapshot_pause_ns.reserve(room);
    r.rounds.reserve(room);
    r.disturbed.reserve(room);
    r.counters_per_item.assign(events, {});
    r.raw_counters_per_item.assign(events, {});
    for (std::size_t i = 0; i < events; ++i) {
        r.counters_per_item[i].reserve(room);
        r.raw_counters_per_item[i].reserve(room);
    }
    r.running_fraction.assign(events, 1.0);
}

void note_pause_shares(SamplingTally& tally, double timed_ns, double pauses, double pair_ns,
                       double spread_ns) {
    if (!(timed_ns > 0))
        return;
    tally.pause_share = std::max(tally.pause_share, pauses * pair_ns / timed_ns);
    tally.spread_share = std::max(tally.spread_share, pauses * spread_ns / timed_ns);
}

std::vector<std::string> pause_correction_warnings(const std::string& name,
                                                   const SamplingTally& tally,
                                                   double pause_spread_ns, double spread_bound,
                                                   std::optional<double> drift) {
    std::vector<std::string> warnings;
    const std::string spread = fmt::format(
        "a pair's cost moves by ±{:.1f} ns with the work around it, up to ±{:.1f}% of this "
        "time",
        pause_spread_ns, 100 * tally.spread_share);
    if (tally.pause_share > kPauseCorrectionWarnShare) {
        warnings.push_back(fmt::format(
            "{}: the subtracted pause/resume cost is up to {:.0f}% of the measured time ({}); "
            "the work between pauses is too short for this to be precise (use more work "
            "per iteration, or a state that does not pause)",
            name, 100 * tally.pause_share, spread));
    } else if (tally.spread_share > spread_bound) {
        warnings.push_back(fmt::format(
            "{}: its corrected time may be off by more than the ±{:g}% precision target: {} "
            "(more work between pauses makes this smaller)",
            name, 100 * spread_bound, spread));
    }
    if (drift) {
        if (auto warning = pause_drift_warning(name, *drift, tally.pause_share, spread_bound))
            warnings.push_back(std::move(*warning));
    }
    return warnings;
}

std::optional<std::string> steal_warning(const std::vector<BenchmarkResult>& benchmarks) {
    std::size_t stolen_samples = 0;
    for (const auto& r : benchmarks) {
        stolen_samples += static_cast<std::size_t>(std::count_if(
            r.disturbed.begin(), r.disturbed.end(), [](const auto& d) { return d.steal_ns > 0; }));
    }
    if (stolen_samples == 0)
        return std::nullopt;
    return fmt::format(
        "steal: the hypervisor took the CPU around {} sample(s) (steal time in /proc/stat): "
        "they are disturbed and left out of the statistics; the host is oversubscribed",
        stolen_samples);
}

}  // namespace perfgauge::harness
