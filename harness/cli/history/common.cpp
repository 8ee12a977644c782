#include "history/common.hpp"

#include <filesystem>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/cli_common.hpp"
#include "perfgauge/harness/store_text.hpp"
#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::cli {

// An output file is never the SQLite store it is made from (-o history.db would replace it).
void refuse_output_over_store(const std::string& output, const HistoryLocation& store) {
    if (!output.empty() && store.engine == harness::StoreLocation::Engine::sqlite)
        refuse_outputs_over_inputs({{"-o", output}}, {{"the history store", store.target}});
}

std::string no_series_matches(const UserPattern& pattern) {
    if (pattern.pattern().empty())
        return "the store holds no series yet (perfgauge history add stores runs; history list "
               "shows them)";
    return fmt::format(
        "REGEX '{}' matches no stored series (perfgauge history list shows the runs, history "
        "show every series)",
        harness::truncate(harness::store_text(pattern.pattern()), 200));
}

namespace {

// A SQLite path that cannot be a store: missing (unless created), a directory, a device.
void check_sqlite_path(const std::string& path, StoreUse use) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(status)) {
        throw UsageError(
            fmt::format("{} is a directory, not a history store: give a file path "
                        "(e.g. {}/history.db) to --db or $PERFGAUGE_DB",
                        path, path));
    }
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
        // /dev/null, a FIFO, a socket: SQLite would block on it or write journals beside it.
        throw UsageError(fmt::format(
            "{} is not a regular file, so not a history store: give a file path to --db or "
            "$PERFGAUGE_DB",
            path));
    }
    if (use != StoreUse::create && !std::filesystem::exists(status)) {
        throw UsageError(fmt::format(
            "no history store at {} (perfgauge history add creates one; --db names another)",
            path));
    }
}

}  // namespace

std::unique_ptr<harness::HistoryStore> open_store(const HistoryLocation& store, StoreUse use) {
    if (store.engine == harness::StoreLocation::Engine::sqlite)
        check_sqlite_path(store.target, use);
    try {
        return harness::HistoryStore::open(store, use == StoreUse::read
                                                      ? harness::StoreAccess::read
                                                      : harness::StoreAccess::write);
    } catch (const harness::StoreRefused& e) {
        throw UsageError(e.what());
    }
}

std::string short_commit(const std::string& commit) {
    return commit.empty() ? "-" : commit.substr(0, 10);
}

std::map<std::string, std::string> class_summaries(harness::HistoryStore& store) {
    std::map<std::string, std::string> out;
    for (const auto& r : store.runs())
        out.emplace(r.machine_class, r.machine_summary);
    return out;
}

// The series the subcommand looks at: benchmarks matching, one metric.
std::vector<harness::SeriesKey> selected_series(harness::HistoryStore& store,
                                                const UserPattern& pattern,
                                                const std::string& metric) {
    std::vector<harness::SeriesKey> out;
    for (auto& key : store.series())
        if ((metric == kEveryMetric || key.metric == metric) && pattern.found_in(key.benchmark))
            out.push_back(std::move(key));
    return out;
}

void require_stored_metric(harness::HistoryStore& store, const UserPattern& pattern,
                           const std::string& metric) {
    std::set<std::string> stored;
    for (const auto& key : selected_series(store, pattern, kEveryMetric)) {
        if (key.metric == metric)
            return;
        stored.insert(key.metric);
    }
    if (stored.empty())
        throw UsageError(no_series_matches(pattern));
    throw UsageError(fmt::format("--metric '{}': no matching series stores it (stored: {})",
                                 harness::store_text(metric), fmt::join(stored, ", ")));
}

// The matching series of --metric, for show and plot; UsageError when none matches.
std::vector<harness::SeriesKey> required_series(harness::HistoryStore& store,
                                                const HistorySeriesRequest& request) {
    const auto pattern = history_pattern(request.patterns);
    require_stored_metric(store, pattern, request.metric);
    return selected_series(store, pattern, request.metric);
}

std::vector<harness::RunPoint> points(const std::vector<harness::SeriesEntry>& entries) {
    std::vector<harness::RunPoint> out;
    for (auto e : entries) {
        // One sample has no interval: its stored spread of 0 says nothing, and read as 0 it
        // would make a series of single-sample runs "deterministic", every change exact.
        if (e.sample_count < 2)
            e.point.spread = std::numeric_limits<double>::quiet_NaN();
        out.push_back(e.point);
    }
    return out;
}

std::string percent(double share) {
    return fmt::format("{:+.1f}%", 100 * share);
}

bool acceptance_applies(const harness::Acceptance& a, const harness::SeriesKey& key) {
    if (!a.metric.empty() && a.metric != key.metric)
        return false;
    return a.pattern.empty() ||
           UserPattern("the accepted REGEX", a.pattern).found_in(key.benchmark);
}

const harness::Acceptance* latest_acceptance(const std::vector<harness::Acceptance>& acceptances,
                                             const harness::SeriesKey& key) {
    const harness::Acceptance* latest = nullptr;
    for (const auto& a : acceptances)
        if ((!latest || a.run_id > latest->run_id) && acceptance_applies(a, key))
            latest = &a;
    return latest;
}

std::optional<std::size_t> accepted_from(const std::vector<harness::Acceptance>& acceptances,
                                         const harness::SeriesKey& key,
                                         const std::vector<harness::SeriesEntry>& entries) {
    const auto* latest = latest_acceptance(acceptances, key);
    if (!latest)
        return std::nullopt;
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].run_id >= latest->run_id)
            return i;
    return std::nullopt;
}

}  // namespace perfgauge::cli
