// perfgauge history check: the gate a CI job runs after `history add`; exit 3 on a regression.
#include <fmt/format.h>

#include "cli_common.hpp"
#include "history_check.hpp"
#include "history_common.hpp"

namespace perfgauge::cli {

int history_check(const std::vector<std::string>& args) {
    const auto request = parse_history_check(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    const HistorySeriesRequest series{
        request->store, request->patterns,
        request->metrics.empty() ? harness::kTimeMetric : request->metrics.front()};
    const auto keys = required_series(*store, series);
    std::string out;
    int regressions = 0, unmeasured = 0;
    for (const auto& key : keys) {
        const auto entries = store->series_runs(key);
        const std::int64_t last = store->last_run_of(key);
        if (entries.empty() || entries.back().run_id != last) {
            // Judging the run before it again would pass a run in which nothing was measured.
            out += fmt::format(
                "{} [{}] on {}: run {}: no clean sample, nothing to judge (every "
                "sample set aside as disturbed, or interrupted before one)\n",
                key.benchmark, key.metric, key.machine_class, last);
            ++unmeasured;
            continue;
        }
        const auto pts = points(entries);
        const auto v = harness::judge_latest(pts);
        const auto& latest = entries.back();
        using K = harness::LatestVerdict::Kind;
        std::string what;
        switch (v.kind) {
            case K::too_short:
                what = "too few runs to judge";
                break;
            case K::unchanged:
                what = "unchanged";
                break;
            case K::regression:
                what = "REGRESSION";
                ++regressions;
                break;
            case K::improvement:
                what = "improvement";
                break;
        }
        if (v.kind == K::too_short) {
            out += fmt::format("{} [{}] on {}: run {}: {} ({} before it since its last change)\n",
                               key.benchmark, key.metric, key.machine_class, latest.run_id, what,
                               v.baseline_runs);
            continue;
        }
        out += fmt::format(
            "{} [{}] on {}: run {} (commit {}): {} {} against the {} runs from run {} (beyond "
            "+-{:.1f}% counts)\n",
            key.benchmark, key.metric, key.machine_class, latest.run_id,
            short_commit(latest.commit), what, percent(v.size), v.baseline_runs,
            entries[v.baseline_first].run_id, 100 * v.allowance);
    }
    out += fmt::format(
        "{} series checked, {} regression{}{}\n", keys.size(), regressions,
        regressions == 1 ? "" : "s",
        unmeasured ? fmt::format(", {} with no clean sample in their latest run", unmeasured) : "");
    write_output(out, "");
    return regressions ? kExitRegression : kExitOk;
}

}  // namespace perfgauge::cli
