#include "history_common.hpp"

#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "cli_common.hpp"

namespace perfgauge::cli {

bool on_a_server(const std::string& location) {
    return location.find("://") != std::string::npos;
}

// An output file is never the SQLite store it is made from (-o history.db would replace it).
void refuse_output_over_store(const std::string& output, const HistoryLocation& store) {
    const std::string location = history_store_location(store);
    if (!output.empty() && !on_a_server(location))
        refuse_outputs_over_inputs({{"-o", output}}, {{"the history store", location}});
}

std::unique_ptr<harness::HistoryStore> open_store(const HistoryLocation& store, Create create) {
    const std::string location = history_store_location(store);
    const bool server = on_a_server(location);
    if (create == Create::no && !server && !std::filesystem::exists(location)) {
        throw UsageError(fmt::format(
            "no history store at {} (perfgauge history add creates one; --db names another)",
            location));
    }
    return harness::HistoryStore::open(location);
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
std::vector<harness::SeriesKey> selected_series(harness::HistoryStore& store, const std::regex& re,
                                                const std::string& metric) {
    std::vector<harness::SeriesKey> out;
    for (auto& key : store.series())
        if ((metric == kEveryMetric || key.metric == metric) &&
            std::regex_search(key.benchmark, re))
            out.push_back(std::move(key));
    return out;
}

// The matching series of --metric, for show, check and plot; UsageError when none matches.
std::vector<harness::SeriesKey> required_series(harness::HistoryStore& store,
                                                const HistorySeriesRequest& request) {
    auto keys = selected_series(store, history_pattern(request.patterns), request.metric);
    if (keys.empty())
        throw UsageError("no stored series matches (perfgauge history list shows the runs)");
    return keys;
}

std::vector<harness::RunPoint> points(const std::vector<harness::SeriesEntry>& entries) {
    std::vector<harness::RunPoint> out;
    for (const auto& e : entries)
        out.push_back(e.point);
    return out;
}

std::string percent(double share) {
    return fmt::format("{:+.1f}%", 100 * share);
}

}  // namespace perfgauge::cli
