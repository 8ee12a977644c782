// perfgauge history report: reads the store, judges every matching series as `history check`
// does (same options: the metric's policy, the baseline from the latest acceptance, the
// whole report's false alarms bounded at check's default), and writes one self-contained page.
// The model is harness/history's (report_model), the page harness::report_html's; this file
// only checks the directory, calls and writes.
#include "history/report.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "history/common.hpp"
#include "history/options.hpp"
#include "perfgauge/harness/history_report_html.hpp"
#include "perfgauge/harness/output_file.hpp"

namespace perfgauge::cli {
namespace {

namespace fs = std::filesystem;

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

}  // namespace

int history_report(const std::vector<std::string>& args) {
    const auto request = parse_history_report(args);
    if (!request)
        return kExitOk;
    const fs::path dir = request->dir;
    refuse_non_directory(dir);
    const auto index = dir / "index.html";
    // An existing DIR it may not write is refused before the store is read, as export -o is.
    if (fs::is_directory(dir))
        check_output_path(index.string());
    refuse_output_over_store(index.string(), request->store);
    auto store = open_store(request->store);
    const auto pattern = history_pattern(request->patterns);
    // history check's default: the whole check's false alarms at most 5%, shared by the series.
    const auto model =
        harness::report_model(*store, name_pattern(pattern),
                              HistoryCheckRequest{}.expected_false_alarms, stored_pattern_match());
    write_report(index, harness::report_html(model));
    write_output(fmt::format("wrote {}: {} series, {} runs\n", index.string(), model.series.size(),
                             model.runs),
                 "");
    return kExitOk;
}

}  // namespace perfgauge::cli
