#include "perfgauge/harness/history_queries.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgauge/harness/store_text.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {
namespace {

// A SQLite path that cannot be a store: missing (unless created), a directory, a device.
void check_sqlite_path(const std::string& path, StoreUse use) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(status)) {
        throw HistoryInputError(
            fmt::format("{} is a directory, not a history store: give a file path "
                        "(e.g. {}/history.db) to --db or $PERFGAUGE_DB",
                        path, path));
    }
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
        // /dev/null, a FIFO, a socket: SQLite would block on it or write journals beside it.
        throw HistoryInputError(fmt::format(
            "{} is not a regular file, so not a history store: give a file path to --db or "
            "$PERFGAUGE_DB",
            path));
    }
    if (use != StoreUse::create && !std::filesystem::exists(status)) {
        throw HistoryInputError(fmt::format(
            "no history store at {} (perfgauge history add creates one; --db names another)",
            path));
    }
}

}  // namespace

std::unique_ptr<HistoryStore> open_history_store(const StoreLocation& location, StoreUse use) {
    if (location.engine == StoreLocation::Engine::sqlite)
        check_sqlite_path(location.target, use);
    return HistoryStore::open(location,
                              use == StoreUse::read ? StoreAccess::read : StoreAccess::write);
}

std::map<std::string, std::string> class_summaries(HistoryStore& store) {
    std::map<std::string, std::string> out;
    for (const auto& r : store.runs())
        out.emplace(r.machine_class, r.machine_summary);
    return out;
}

std::string no_series_matches(const NamePattern& pattern) {
    if (pattern.text.empty())
        return "the store holds no series yet (perfgauge history add stores runs; history list "
               "shows them)";
    return fmt::format(
        "REGEX '{}' matches no stored series (perfgauge history list shows the runs, history "
        "show every series)",
        truncate(store_text(pattern.text), 200));
}

std::vector<SeriesKey> selected_series(HistoryStore& store, const NamePattern& pattern,
                                       const std::string& metric) {
    std::vector<SeriesKey> out;
    for (auto& key : store.series())
        if ((metric == kEveryMetric || key.metric == metric) && pattern.matches(key.benchmark))
            out.push_back(std::move(key));
    return out;
}

void require_stored_metric(HistoryStore& store, const NamePattern& pattern,
                           const std::string& metric) {
    std::set<std::string> stored;
    for (const auto& key : selected_series(store, pattern, kEveryMetric)) {
        if (key.metric == metric)
            return;
        stored.insert(key.metric);
    }
    if (stored.empty())
        throw HistoryInputError(no_series_matches(pattern));
    throw HistoryInputError(fmt::format("--metric '{}': no matching series stores it (stored: {})",
                                        store_text(metric), fmt::join(stored, ", ")));
}

std::vector<SeriesKey> required_series(HistoryStore& store, const NamePattern& pattern,
                                       const std::string& metric) {
    require_stored_metric(store, pattern, metric);
    return selected_series(store, pattern, metric);
}

std::vector<RunPoint> points(const std::vector<SeriesEntry>& entries) {
    std::vector<RunPoint> out;
    for (auto e : entries) {
        // One sample has no interval: its stored spread of 0 says nothing, and read as 0 it
        // would make a series of single-sample runs "deterministic", every change exact.
        if (e.sample_count < 2)
            e.point.spread = std::numeric_limits<double>::quiet_NaN();
        out.push_back(e.point);
    }
    return out;
}

bool acceptance_applies(const Acceptance& a, const SeriesKey& key,
                        const StoredPatternMatch& match) {
    if (!a.metric.empty() && a.metric != key.metric)
        return false;
    return a.pattern.empty() || match(a.pattern, key.benchmark);
}

const Acceptance* latest_acceptance(const std::vector<Acceptance>& acceptances,
                                    const SeriesKey& key, const StoredPatternMatch& match) {
    const Acceptance* latest = nullptr;
    for (const auto& a : acceptances)
        if ((!latest || a.run_id > latest->run_id) && acceptance_applies(a, key, match))
            latest = &a;
    return latest;
}

std::optional<std::size_t> accepted_from(const std::vector<Acceptance>& acceptances,
                                         const SeriesKey& key,
                                         const std::vector<SeriesEntry>& entries,
                                         const StoredPatternMatch& match) {
    const auto* latest = latest_acceptance(acceptances, key, match);
    if (!latest)
        return std::nullopt;
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].run_id >= latest->run_id)
            return i;
    return std::nullopt;
}

std::vector<ShownSeries> show_series(HistoryStore& store, const NamePattern& pattern,
                                     const std::string& metric) {
    const auto summaries = class_summaries(store);
    std::vector<ShownSeries> out;
    for (const auto& key : required_series(store, pattern, metric)) {
        ShownSeries s;
        s.key = key;
        s.machine_summary =
            summaries.count(key.machine_class) ? summaries.at(key.machine_class) : "?";
        s.entries = store.series_runs(key);
        const auto pts = points(s.entries);
        s.policy =
            metric_policy(key.metric, s.entries.empty() ? "" : s.entries.front().unit, false);
        // A change is a regression in the metric's worse direction (a throughput's is down).
        s.changes = detect_change_points(pts, s.policy.worse);
        s.deterministic = deterministic_series(pts);
        out.push_back(std::move(s));
    }
    return out;
}

namespace {

PlottedSeries plotted(const SeriesKey& key, std::vector<SeriesEntry> entries,
                      const std::vector<Acceptance>& acceptances, const std::string& machine,
                      const StoredPatternMatch& match) {
    PlottedSeries s;
    s.key = key;
    s.machine = machine;
    s.unit = metric_unit(key.metric, entries.front().unit);
    s.policy = metric_policy(key.metric, s.unit, false);
    for (const auto& a : acceptances) {
        if (const auto index = accepted_from({a}, key, entries, match))
            s.accepted.push_back({*index, a.commit, a.reason});
    }
    s.changes = detect_change_points(points(entries), s.policy.worse);
    s.entries = std::move(entries);
    return s;
}

}  // namespace

std::vector<PlottedSeries> plotted_series(HistoryStore& store, const NamePattern& pattern,
                                          const std::string& metric,
                                          const StoredPatternMatch& match) {
    const auto summaries = class_summaries(store);
    const auto keys = required_series(store, pattern, metric);
    const auto acceptances = store.acceptances();
    if (keys.size() > kMostPlottedSeries) {
        throw HistoryInputError(
            fmt::format("{} series match, more than one picture shows ({}): give a narrower REGEX",
                        keys.size(), kMostPlottedSeries));
    }
    std::vector<PlottedSeries> out;
    for (const auto& key : keys) {
        auto entries = store.series_runs(key);
        if (entries.empty())
            continue;
        const auto summary =
            summaries.count(key.machine_class) ? summaries.at(key.machine_class) : std::string("?");
        out.push_back(plotted(key, std::move(entries), acceptances,
                              fmt::format("{} ({})", summary, key.machine_class.substr(0, 8)),
                              match));
    }
    if (out.empty())
        throw HistoryInputError("the matching series have no samples to draw");
    return out;
}

std::vector<StoredMeasurement> exported_measurements(HistoryStore& store,
                                                     const NamePattern& pattern) {
    std::vector<StoredMeasurement> out;
    for (auto& m : store.measurements()) {
        if (!pattern.matches(m.benchmark))
            continue;
        m.unit = metric_unit(m.metric, m.unit);
        out.push_back(std::move(m));
    }
    return out;
}

namespace {

// A mistyped --metric or REGEX would record an acceptance that never applies: refused, with
// what is stored.
void check_accepted_series(HistoryStore& store, const AcceptQuery& query) {
    std::set<std::string> metrics;
    bool matched = query.pattern.text.empty();
    for (const auto& key : store.series()) {
        metrics.insert(key.metric);
        matched = matched || query.pattern.matches(key.benchmark);
    }
    if (!matched)
        throw HistoryInputError(fmt::format(
            "REGEX '{}' matches no stored benchmark (perfgauge history show lists them)",
            query.pattern.text));
    for (const auto& m : query.metrics)
        if (!metrics.count(m))
            throw HistoryInputError(fmt::format("--metric {}: no stored series has it (stored: {})",
                                                m, fmt::join(metrics, ", ")));
}

}  // namespace

std::vector<Acceptance> accept_change(HistoryStore& store, const AcceptQuery& query) {
    CommitRun run;
    try {
        run = store.first_run_of_commit(query.revision);
    } catch (const std::invalid_argument& e) {
        throw HistoryInputError(fmt::format("REV '{}': {}", store_text(query.revision), e.what()));
    }
    check_accepted_series(store, query);
    std::vector<std::string> metrics = query.metrics;
    if (metrics.empty())
        metrics.push_back("");  // every metric
    std::vector<Acceptance> out;
    for (const auto& metric : metrics) {
        Acceptance a{0, run.run_id, run.commit, query.pattern.text, metric, query.reason, ""};
        a.id = store.accept(a);
        out.push_back(std::move(a));
    }
    return out;
}

Forgotten forget_runs(HistoryStore& store, const std::vector<std::int64_t>& ids) {
    std::set<std::int64_t> stored;
    Forgotten out;
    for (const auto& r : store.runs())
        stored.insert(r.id);
    for (const auto id : ids)
        if (!stored.count(id))
            out.missing.insert(id);
    out.existed = store.forget(ids);
    return out;
}

}  // namespace perfgauge::harness
