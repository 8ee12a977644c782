// perfgauge history check: the gate a CI job runs after `history add`; exit 3 while a
// regression stands in a checked series.
#include "history/check.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "history/common.hpp"
#include "perfgauge/harness/metric_policy.hpp"
#include "perfgauge/harness/regression_gate.hpp"
#include "perfgauge/harness/store_text.hpp"

namespace perfgauge::cli {
namespace {

using harness::GateVerdict;
using Kind = GateVerdict::Kind;

// The series a check judges: the matching benchmarks' series of the metrics asked, every
// stored metric when none is. A metric that no series has is a typo: UsageError naming those
// stored.
std::vector<harness::SeriesKey> checked_series(harness::HistoryStore& store,
                                               const HistoryCheckRequest& request) {
    const auto pattern = history_pattern(request.patterns);
    const auto all = selected_series(store, pattern, kEveryMetric);
    std::set<std::string> stored;
    for (const auto& key : all)
        stored.insert(key.metric);
    for (const auto& metric : request.metrics) {
        if (!stored.count(metric)) {
            throw UsageError(fmt::format(
                "--metric '{}': no matching series stores it (stored: {})",
                harness::store_text(metric),
                stored.empty() ? std::string("none") : fmt::format("{}", fmt::join(stored, ", "))));
        }
    }
    std::vector<harness::SeriesKey> out;
    for (const auto& key : all)
        if (request.metrics.empty() ||
            std::count(request.metrics.begin(), request.metrics.end(), key.metric))
            out.push_back(key);
    if (out.empty())
        throw UsageError(no_series_matches(pattern));
    return out;
}

// The first run of --since REV, by id: the window's start in every series.
std::int64_t first_run_of(harness::HistoryStore& store, const std::string& commit) {
    try {
        return store.first_run_of_commit(commit).run_id;
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("--since '{}': {}", harness::store_text(commit), e.what()));
    }
}

std::size_t index_from(const std::vector<harness::SeriesEntry>& entries, std::int64_t run) {
    std::size_t i = 0;
    while (i < entries.size() && entries[i].run_id < run)
        ++i;
    return i;
}

// Where a series' judgment starts: its latest applicable acceptance, or --since's run, whichever
// is later. An acceptance that applies but no run of the series follows yet leaves nothing to
// judge (the accepted level has no run of its own yet).
struct Baseline {
    std::size_t first = 0;
    const harness::Acceptance* accepted = nullptr;
};

Baseline baseline_of(const std::vector<harness::Acceptance>& acceptances,
                     const harness::SeriesKey& key,
                     const std::vector<harness::SeriesEntry>& entries, std::int64_t since) {
    Baseline b{index_from(entries, since), latest_acceptance(acceptances, key)};
    if (b.accepted)
        b.first =
            std::max(b.first, accepted_from(acceptances, key, entries).value_or(entries.size()));
    return b;
}

struct Judged {
    harness::SeriesKey key;
    std::vector<harness::SeriesEntry> entries;
    harness::MetricPolicy policy;
    harness::GateOptions options;
    GateVerdict verdict;
    const harness::Acceptance* accepted = nullptr;
};

std::string interval(const GateVerdict& v) {
    if (v.exact)
        return "exactly";
    return fmt::format("[{}, {}]", percent(v.size_low), percent(v.size_high));
}

std::string run_and_commit(const harness::SeriesEntry& e) {
    return fmt::format("run {} ({})", e.run_id, short_commit(e.commit));
}

std::string verdict_text(const Judged& j) {
    const auto& v = j.verdict;
    const auto& e = j.entries;
    const auto& newest = e.back();
    const std::string resolves =
        v.detectable > 0 ? fmt::format("; resolves {:.1f}% within 3 runs", 100 * v.detectable) : "";
    switch (v.kind) {
        case Kind::too_short:
            return fmt::format("too few runs to judge ({} since the baseline; {} needed)",
                               v.baseline_runs,
                               v.exact ? 2 : harness::GateOptions{}.min_baseline + 1);
        case Kind::regression:
        case Kind::improvement:
            return fmt::format("{} {} {} since {}: {} -> {} (baseline: {} runs from run {}){}",
                               v.kind == Kind::regression ? "REGRESSION" : "improvement",
                               percent(v.size), interval(v), run_and_commit(e[v.current_first]),
                               harness::format_metric_value(v.baseline, j.policy),
                               harness::format_metric_value(v.current, j.policy), v.baseline_runs,
                               e[v.baseline_first].run_id, resolves);
        case Kind::pending:
            return fmt::format(
                "pending {}: {} is beyond the band of +-{:.1f}% but one run is not yet a change "
                "point (the next run confirms it or not){}",
                percent(v.newest_size), run_and_commit(newest), 100 * v.band, resolves);
        case Kind::inconclusive:
            return fmt::format(
                "inconclusive {}: {}'s own interval (+-{:.1f}%) is wider than what the series "
                "resolves (+-{:.1f}%); more repetitions, a count metric (instructions, "
                "task-clock) or run --against would decide",
                percent(v.newest_size), run_and_commit(newest), 100 * v.newest_spread,
                100 * v.band);
        case Kind::unchanged:
            break;
    }
    if (!v.steps.empty())
        return fmt::format(
            "unchanged {} against the baseline (its changes since run {} cancel or "
            "are below the minimum change of {:.1f}%){}",
            percent(v.size), e[v.baseline_first].run_id, 100 * j.options.min_change, resolves);
    return fmt::format("unchanged: {} {} within +-{:.1f}% of the {} runs from run {}{}",
                       run_and_commit(newest), percent(v.newest_size), 100 * v.band,
                       v.baseline_runs, e[v.baseline_first].run_id, resolves);
}

}  // namespace

int history_check(const std::vector<std::string>& args) {
    const auto request = parse_history_check(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    const auto keys = checked_series(*store, *request);
    const std::int64_t since = request->since ? first_run_of(*store, *request->since) : 0;
    const auto acceptances = store->acceptances();
    std::vector<Judged> judged;
    std::string out;
    std::size_t unmeasured = 0;
    for (const auto& key : keys) {
        auto entries = store->series_runs(key);
        const std::int64_t last = store->last_run_of(key);
        if (entries.empty() || entries.back().run_id != last) {
            // The series is judged on the runs that measured it; its newest run measured
            // nothing, which a CI job that must measure something needs to read.
            out += fmt::format(
                "{} [{}] on {}: run {}: no clean sample, nothing to judge in it (every sample "
                "set aside as disturbed, or interrupted before one)\n",
                key.benchmark, key.metric, key.machine_class.substr(0, 8), last);
            ++unmeasured;
            if (entries.empty())
                continue;
        }
        const bool exact = harness::deterministic_series(points(entries));
        const auto policy = harness::metric_policy(key.metric, entries.front().unit, exact);
        judged.push_back({key, std::move(entries), policy, {}, {}});
    }
    // Each series at its share of the whole check's false alarms (gate_alpha_across).
    const double alpha = harness::gate_alpha_across(request->expected_false_alarms, judged.size());
    std::size_t regressions = 0, pending = 0, below = 0;
    for (auto& j : judged) {
        auto& options = j.options;
        options.alpha = alpha;
        options.worse = j.policy.worse;
        options.min_change = request->min_change.value_or(j.policy.min_change);
        const auto pts = points(j.entries);
        const Baseline baseline = baseline_of(acceptances, j.key, j.entries, since);
        j.accepted = baseline.accepted;
        j.verdict = harness::judge_series(pts, baseline.first, options);
        regressions += j.verdict.kind == Kind::regression;
        pending += j.verdict.kind == Kind::pending;
        below += request->min_change && j.verdict.detectable > *request->min_change;
        out += fmt::format("{} [{}] on {}: {}{}\n", j.key.benchmark, j.key.metric,
                           j.key.machine_class.substr(0, 8), verdict_text(j),
                           j.accepted
                               ? fmt::format(" [baseline accepted at {}: {}]",
                                             short_commit(j.accepted->commit), j.accepted->reason)
                               : "");
    }
    if (below) {
        out += fmt::format(
            "note: --min-change {:.1f}% is below what {} of the series resolve within 3 runs "
            "(their lines say how much): a change that small goes unseen there\n",
            100 * *request->min_change, below);
    }
    out += fmt::format(
        "{} series checked, {} regression{}{}{}, expected false alarms <= {:.2g}\n", keys.size(),
        regressions, regressions == 1 ? "" : "s",
        pending ? fmt::format(", {} pending", pending) : "",
        unmeasured ? fmt::format(", {} with no clean sample in their latest run", unmeasured) : "",
        harness::gate_false_alarms_across(request->expected_false_alarms, judged.size()));
    write_output(out, "");
    return regressions ? kExitRegression : kExitOk;
}

}  // namespace perfgauge::cli
