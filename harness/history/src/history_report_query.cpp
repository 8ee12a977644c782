// history report's query: every matching series judged as `history check` judges it (the
// metric's policy and default minimum change, the baseline from the latest acceptance, the
// whole report's false alarms shared by its series), with its change points and segments.
#include <fmt/format.h>

#include "perfgauge/harness/history_queries.hpp"
#include "perfgauge/harness/report_segments.hpp"

namespace perfgauge::harness {
namespace {

// The latest acceptance that applies to the series, and where its baseline starts (as check).
std::size_t baseline_first(const std::vector<Acceptance>& acceptances, ReportSeries& s,
                           const std::vector<SeriesEntry>& entries,
                           const StoredPatternMatch& match) {
    const auto* latest = latest_acceptance(acceptances, s.key, match);
    if (!latest)
        return 0;
    s.accepted_reason = latest->reason;
    return accepted_from(acceptances, s.key, entries, match).value_or(entries.size());
}

ReportSeries report_series(const SeriesKey& key, const std::vector<SeriesEntry>& entries,
                           const std::vector<Acceptance>& acceptances, const GateOptions& gate,
                           const StoredPatternMatch& match) {
    ReportSeries s;
    s.key = key;
    s.unit = entries.front().unit;
    const auto pts = points(entries);
    s.policy = metric_policy(key.metric, s.unit, deterministic_series(pts));
    for (const auto& e : entries)
        s.runs.push_back({e.run_id, e.commit, e.point});
    auto options = gate;
    options.worse = s.policy.worse;
    options.min_change = s.policy.min_change;
    s.verdict = judge_series(pts, baseline_first(acceptances, s, entries, match), options);
    s.changes = detect_change_points(pts, s.policy.worse);
    s.segments = segment_levels(pts, s.changes);
    return s;
}

}  // namespace

ReportModel report_model(HistoryStore& store, const NamePattern& pattern,
                         double expected_false_alarms, const StoredPatternMatch& match) {
    const auto keys = selected_series(store, pattern, kEveryMetric);
    if (keys.empty())
        throw HistoryInputError(no_series_matches(pattern));
    ReportModel model;
    model.acceptances = store.acceptances();
    model.runs = store.runs().size();
    const auto summaries = class_summaries(store);
    GateOptions gate;
    gate.alpha = gate_alpha_across(expected_false_alarms, keys.size());
    for (const auto& key : keys) {
        const auto entries = store.series_runs(key);
        if (entries.empty())
            continue;  // no run kept a sample: nothing to draw
        model.series.push_back(report_series(key, entries, model.acceptances, gate, match));
        const auto summary = summaries.find(key.machine_class);
        model.series.back().machine_summary = summary == summaries.end() ? "?" : summary->second;
    }
    return model;
}

}  // namespace perfgauge::harness
