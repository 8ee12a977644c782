// history check's query: every matching series judged since its baseline (the latest
// applicable acceptance, or --since's run), each at its share of the whole check's false alarms.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgauge/harness/history_queries.hpp"
#include "perfgauge/harness/store_text.hpp"

namespace perfgauge::harness {
namespace {

// The series a check judges: the matching benchmarks' series of the metrics asked, every
// stored metric when none is. A metric that no series has is a typo: refused naming those
// stored.
std::vector<SeriesKey> checked_series(HistoryStore& store, const NamePattern& pattern,
                                      const CheckQuery& query) {
    const auto all = selected_series(store, pattern, kEveryMetric);
    std::set<std::string> stored;
    for (const auto& key : all)
        stored.insert(key.metric);
    for (const auto& metric : query.metrics) {
        if (!stored.count(metric)) {
            throw HistoryInputError(fmt::format(
                "--metric '{}': no matching series stores it (stored: {})", store_text(metric),
                stored.empty() ? std::string("none") : fmt::format("{}", fmt::join(stored, ", "))));
        }
    }
    std::vector<SeriesKey> out;
    for (const auto& key : all)
        if (query.metrics.empty() ||
            std::count(query.metrics.begin(), query.metrics.end(), key.metric))
            out.push_back(key);
    if (out.empty())
        throw HistoryInputError(no_series_matches(pattern));
    return out;
}

// The first run of --since REV, by id: the window's start in every series.
std::int64_t first_run_of(HistoryStore& store, const std::string& commit) {
    try {
        return store.first_run_of_commit(commit).run_id;
    } catch (const std::invalid_argument& e) {
        throw HistoryInputError(fmt::format("--since '{}': {}", store_text(commit), e.what()));
    }
}

std::size_t index_from(const std::vector<SeriesEntry>& entries, std::int64_t run) {
    std::size_t i = 0;
    while (i < entries.size() && entries[i].run_id < run)
        ++i;
    return i;
}

// Where a series' judgment starts: its latest applicable acceptance, or --since's run,
// whichever is later. An acceptance that applies but no run of the series follows yet leaves
// nothing to judge (the accepted level has no run of its own yet).
std::size_t baseline_of(const std::vector<Acceptance>& acceptances, JudgedSeries& j,
                        std::int64_t since, const StoredPatternMatch& match) {
    std::size_t first = index_from(j.entries, since);
    if (const auto* accepted = latest_acceptance(acceptances, j.key, match)) {
        j.accepted = *accepted;
        first = std::max(
            first, accepted_from(acceptances, j.key, j.entries, match).value_or(j.entries.size()));
    }
    return first;
}

// The series with a run to judge; those whose newest run kept no sample are named.
void collect(HistoryStore& store, const std::vector<SeriesKey>& keys, CheckOutcome& out) {
    for (const auto& key : keys) {
        auto entries = store.series_runs(key);
        const std::int64_t last = store.last_run_of(key);
        if (entries.empty() || entries.back().run_id != last) {
            // The series is judged on the runs that measured it; its newest run measured
            // nothing, which a CI job that must measure something needs to read.
            out.unmeasured.push_back({key, last});
            if (entries.empty())
                continue;
        }
        const bool exact = deterministic_series(points(entries));
        const auto policy = metric_policy(key.metric, entries.front().unit, exact);
        out.judged.push_back({key, std::move(entries), policy, {}, {}, std::nullopt});
    }
}

}  // namespace

CheckOutcome check_series(HistoryStore& store, const NamePattern& pattern, const CheckQuery& query,
                          const StoredPatternMatch& match) {
    const auto keys = checked_series(store, pattern, query);
    const std::int64_t since = query.since ? first_run_of(store, *query.since) : 0;
    const auto acceptances = store.acceptances();
    CheckOutcome out;
    out.checked = keys.size();
    out.min_change = query.min_change;
    collect(store, keys, out);
    // Each series at its share of the whole check's false alarms (gate_alpha_across).
    const double alpha = gate_alpha_across(query.expected_false_alarms, out.judged.size());
    for (auto& j : out.judged) {
        j.options.alpha = alpha;
        j.options.worse = j.policy.worse;
        j.options.min_change = query.min_change.value_or(j.policy.min_change);
        const std::size_t first = baseline_of(acceptances, j, since, match);
        j.verdict = judge_series(points(j.entries), first, j.options);
        out.regressions += j.verdict.kind == GateVerdict::Kind::regression;
        out.pending += j.verdict.kind == GateVerdict::Kind::pending;
        out.below += query.min_change && j.verdict.detectable > *query.min_change;
    }
    out.expected_false_alarms =
        gate_false_alarms_across(query.expected_false_alarms, out.judged.size());
    return out;
}

}  // namespace perfgauge::harness
