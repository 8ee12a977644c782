// perfgauge history report: reads the store, judges every matching series as `history check`
// does (same options: the metric's policy, the baseline from the latest acceptance, the
// whole report's false alarms bounded at check's default), and writes one self-contained page.
// The page is made by harness::report_html from plain data; this file only reads and writes.
#include "history/report.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"
#include "history/common.hpp"
#include "history/options.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/report_html.hpp"

namespace perfgauge::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: perfgauge history report -o DIR [REGEX] [--db ...]\n\n"
    "The store as one static page, DIR/index.html (DIR is created when missing): the open\n"
    "regressions (the verdict `history check REGEX` gives each series), the accepted changes,\n"
    "then a graph per matching series (each run's median and 95% interval, the segments'\n"
    "levels, the change points dashed; run and commit on hover), with filters by benchmark,\n"
    "metric and machine. Self-contained: inline SVG and a few lines of script, nothing\n"
    "fetched, opened from file:// as it is. A URL hash such as #metric=time&machine=ID ticks\n"
    "only those values when the page loads.\n\noptions";

struct ReportRequest {
    HistoryLocation store;
    std::vector<std::string> patterns;
    fs::path dir;
};

std::optional<ReportRequest> parse_report(const std::vector<std::string>& args) {
    po::options_description visible(kUsage);
    visible.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                      "DIR: where index.html goes (required)")(
        "db", po::value<std::string>(), "the store, as for every history subcommand");
    po::options_description hidden;
    hidden.add_options()("args", po::value<std::vector<std::string>>());
    const auto vm = parse_command_line(args, visible, hidden, {"args", -1});
    if (!vm)
        return std::nullopt;
    if (!vm->count("output") || vm->at("output").as<std::string>().empty())
        throw UsageError("history report needs -o DIR: the directory index.html is written to");
    // The store as every history subcommand reads --db and $PERFGAUGE_DB (and words its errors).
    std::vector<std::string> db;
    if (vm->count("db"))
        db = {"--db", vm->at("db").as<std::string>()};
    ReportRequest request{parse_history_list(db)->store, {}, vm->at("output").as<std::string>()};
    if (vm->count("args"))
        request.patterns = vm->at("args").as<std::vector<std::string>>();
    return request;
}

// DIR must be a directory or nothing yet: a file (or anything else) there is refused before
// the store is read.
void refuse_non_directory(const fs::path& dir) {
    std::error_code ec;
    const auto status = fs::status(dir, ec);
    if (fs::exists(status) && !fs::is_directory(status))
        throw UsageError(fmt::format(
            "-o {}: not a directory (the report is DIR/index.html): name a directory, new or "
            "existing",
            dir.string()));
}

// DIR created when missing, once there is a page to put in it: a refused command leaves none.
// Returns the directories it made, outermost first.
std::vector<fs::path> make_report_directory(const fs::path& dir) {
    std::vector<fs::path> made;
    std::error_code ec;
    for (auto d = dir; !d.empty() && !fs::exists(d, ec); d = d.parent_path())
        made.insert(made.begin(), d);
    if (!fs::create_directories(dir, ec) && ec)
        throw UsageError(
            fmt::format("-o {}: cannot create the directory: {}", dir.string(), ec.message()));
    return made;
}

// A page that could not be written (a full disk) leaves no directory it made behind either.
void write_report(const fs::path& index, const std::string& html) {
    const auto made = make_report_directory(index.parent_path());
    try {
        harness::write_output_file(index, html);
    } catch (...) {
        std::error_code ec;
        for (auto d = made.rbegin(); d != made.rend(); ++d)
            fs::remove(*d, ec);  // only when empty: nothing else is taken with it
        throw;
    }
}

// The latest acceptance that applies to the series, and where its baseline starts (as check).
std::size_t baseline_first(const std::vector<harness::Acceptance>& acceptances,
                           harness::ReportSeries& s,
                           const std::vector<harness::SeriesEntry>& entries) {
    const auto* latest = latest_acceptance(acceptances, s.key);
    if (!latest)
        return 0;
    s.accepted_reason = latest->reason;
    return accepted_from(acceptances, s.key, entries).value_or(entries.size());
}

harness::ReportSeries report_series(const harness::SeriesKey& key,
                                    const std::vector<harness::SeriesEntry>& entries,
                                    const std::vector<harness::Acceptance>& acceptances,
                                    const harness::GateOptions& gate) {
    harness::ReportSeries s;
    s.key = key;
    s.unit = entries.front().unit;
    const auto pts = points(entries);
    s.policy = harness::metric_policy(key.metric, s.unit, harness::deterministic_series(pts));
    for (const auto& e : entries)
        s.runs.push_back({e.run_id, e.commit, e.point});
    auto options = gate;
    options.worse = s.policy.worse;
    options.min_change = s.policy.min_change;
    s.verdict = harness::judge_series(pts, baseline_first(acceptances, s, entries), options);
    s.changes = harness::detect_change_points(pts, s.policy.worse);
    s.segments = harness::segment_levels(pts, s.changes);
    return s;
}

harness::ReportModel build_model(harness::HistoryStore& store, const ReportRequest& request) {
    const auto pattern = history_pattern(request.patterns);
    const auto keys = selected_series(store, pattern, kEveryMetric);
    if (keys.empty())
        throw UsageError(no_series_matches(pattern));
    harness::ReportModel model;
    model.acceptances = store.acceptances();
    model.runs = store.runs().size();
    const auto summaries = class_summaries(store);
    // history check's default: the whole check's false alarms at most 5%, shared by the series.
    harness::GateOptions gate;
    gate.alpha =
        harness::gate_alpha_across(HistoryCheckRequest{}.expected_false_alarms, keys.size());
    for (const auto& key : keys) {
        const auto entries = store.series_runs(key);
        if (entries.empty())
            continue;  // no run kept a sample: nothing to draw
        model.series.push_back(report_series(key, entries, model.acceptances, gate));
        const auto summary = summaries.find(key.machine_class);
        model.series.back().machine_summary = summary == summaries.end() ? "?" : summary->second;
    }
    return model;
}

}  // namespace

int history_report(const std::vector<std::string>& args) {
    const auto request = parse_report(args);
    if (!request)
        return kExitOk;
    refuse_non_directory(request->dir);
    const auto index = request->dir / "index.html";
    // An existing DIR it may not write is refused before the store is read, as export -o is.
    if (fs::is_directory(request->dir))
        check_output_path(index.string());
    refuse_output_over_store(index.string(), request->store);
    auto store = open_store(request->store);
    const auto model = build_model(*store, *request);
    write_report(index, harness::report_html(model));
    write_output(fmt::format("wrote {}: {} series, {} runs\n", index.string(), model.series.size(),
                             model.runs),
                 "");
    return kExitOk;
}

}  // namespace perfgauge::cli
