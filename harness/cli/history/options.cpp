#include "history/options.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"
#include "perfgauge/harness/history_store.hpp"
#include "plot/options.hpp"

namespace perfgauge::cli {

namespace {

struct Parsed {
    po::variables_map vm;
    std::vector<std::string> positional;
};

// The subcommand's options plus --db and the positional arguments; --help prints `usage`.
std::optional<Parsed> parse(const std::vector<std::string>& args, const char* usage,
                            po::options_description extra = po::options_description()) {
    po::options_description options(usage);
    options.add_options()("help,h", "show this help")(
        "db", po::value<std::string>(),
        "the store: a SQLite file path, or postgresql://... / postgres://... (libpq URI); "
        "default $PERFGAUGE_DB, else $XDG_DATA_HOME/perfgauge/history.db");
    options.add(extra);
    po::options_description hidden;
    hidden.add_options()("args", po::value<std::vector<std::string>>());
    auto vm = parse_command_line(args, options, hidden, {"args", -1});
    if (!vm)
        return std::nullopt;
    Parsed p{std::move(*vm), {}};
    if (p.vm.count("args"))
        p.positional = p.vm["args"].as<std::vector<std::string>>();
    return p;
}

// --db, else $PERFGAUGE_DB, else the default path: parsed here, once, for every subcommand;
// a bad one is refused naming where it came from.
HistoryLocation store_option(const po::variables_map& vm) {
    const auto where = harness::history_location_text(
        vm.count("db") ? std::optional(vm["db"].as<std::string>()) : std::nullopt);
    try {
        return harness::parse_store_location(where.text);
    } catch (const std::invalid_argument& e) {
        using Source = harness::LocationSource;
        throw UsageError(fmt::format("{}: {}",
                                     where.source == Source::option ? "--db"
                                     : where.source == Source::environment
                                         ? "$PERFGAUGE_DB"
                                         : "the default store location",
                                     e.what()));
    }
}

std::optional<std::string> text_option(const po::variables_map& vm, const char* name) {
    if (!vm.count(name))
        return std::nullopt;
    return vm[name].as<std::string>();
}

po::options_description metric_option() {
    po::options_description extra;
    extra.add_options()("metric", po::value<std::string>()->default_value(harness::kTimeMetric),
                        "time, or an event's name as counted");
    return extra;
}

std::vector<std::pair<std::string, std::string>> labels_option(const po::variables_map& vm) {
    std::vector<std::pair<std::string, std::string>> labels;
    if (!vm.count("label"))
        return labels;
    for (const auto& l : vm["label"].as<std::vector<std::string>>()) {
        const auto eq = l.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError(fmt::format("--label '{}': expected KEY=VALUE", l));
        labels.emplace_back(l.substr(0, eq), l.substr(eq + 1));
    }
    return labels;
}

std::optional<HistorySeriesRequest> parse_series(const std::vector<std::string>& args,
                                                 const char* usage) {
    auto p = parse(args, usage, metric_option());
    if (!p)
        return std::nullopt;
    return HistorySeriesRequest{store_option(p->vm), p->positional,
                                p->vm["metric"].as<std::string>()};
}

std::int64_t run_id(const std::string& text) {
    std::size_t used = 0;
    long long id = 0;
    try {
        id = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || id <= 0)
        throw UsageError(fmt::format("'{}' is not a run id (a positive integer)", text));
    return id;
}

}  // namespace

UserPattern history_pattern(const std::vector<std::string>& patterns) {
    if (patterns.size() > 1)
        throw UsageError(fmt::format("one REGEX, not {}", patterns.size()));
    return UserPattern("REGEX", patterns.empty() ? "" : patterns[0]);
}

std::optional<HistoryAddRequest> parse_history_add(const std::vector<std::string>& args) {
    po::options_description extra;
    extra.add_options()("label", po::value<std::vector<std::string>>(),
                        "K=V recorded with each run (repeatable)")(
        "commit", po::value<std::string>(), "the measured commit (default: git HEAD here)")(
        "quiet,q", "no progress line on the terminal (shown there for adds past a second)");
    auto p = parse(args,
                   "usage: perfgauge history add RESULT... [--label K=V]... [--commit REV] [-q] "
                   "[--db ...]\n\noptions",
                   extra);
    if (!p)
        return std::nullopt;
    if (p->positional.empty())
        throw UsageError("which result files? perfgauge history add RESULT.json...");
    return HistoryAddRequest{store_option(p->vm), p->positional, text_option(p->vm, "commit"),
                             labels_option(p->vm), p->vm.count("quiet") != 0};
}

std::optional<HistoryListRequest> parse_history_list(const std::vector<std::string>& args) {
    auto p = parse(args, "usage: perfgauge history list [--db ...]\n\noptions");
    if (!p)
        return std::nullopt;
    if (!p->positional.empty())
        throw UsageError(fmt::format("unexpected argument '{}'", p->positional[0]));
    return HistoryListRequest{store_option(p->vm)};
}

std::optional<HistorySeriesRequest> parse_history_show(const std::vector<std::string>& args) {
    return parse_series(args,
                        "usage: perfgauge history show [REGEX] [--metric M] [--db ...]\n\noptions");
}

// --min-change 5% (or --min-change=5%): the option parser would call it "invalid" only.
void refuse_percent_sign(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const bool joined = args[i].starts_with("--min-change=");
        const std::string value = joined ? args[i].substr(13)
                                  : args[i] == "--min-change" && i + 1 < args.size() ? args[i + 1]
                                                                                     : "";
        if (value.ends_with('%'))
            throw UsageError(fmt::format("--min-change '{}': give the number alone ({} means {})",
                                         value, value.substr(0, value.size() - 1), value));
    }
}

std::optional<HistoryCheckRequest> parse_history_check(const std::vector<std::string>& args) {
    refuse_percent_sign(args);
    po::options_description extra;
    extra.add_options()("metric", po::value<std::vector<std::string>>(),
                        "a metric to judge (repeatable; default: every stored metric)")(
        "min-change", po::value<double>(),
        "the smallest relative change in percent that is a regression (default per metric: "
        "docs/cli/history.md)")("since", po::value<std::string>(),
                                "judge only the runs from this commit (a prefix) on")(
        "false-alarms", po::value<double>()->default_value(0.05),
        "the expected number of false alarms the whole check allows, over every series");
    auto p = parse(args,
                   "usage: perfgauge history check [REGEX] [--metric M]... [--min-change PCT] "
                   "[--since REV] [--db ...]\n\n"
                   "Judges every matching series since its accepted baseline: exit status 3 "
                   "while a regression change point stands in one of them (until `history "
                   "accept` or a change back), 0 otherwise.\n\noptions",
                   extra);
    if (!p)
        return std::nullopt;
    HistoryCheckRequest request;
    request.store = store_option(p->vm);
    request.patterns = p->positional;
    if (p->vm.count("metric"))
        request.metrics = p->vm["metric"].as<std::vector<std::string>>();
    if (p->vm.count("min-change"))
        request.min_change = bounded_option(p->vm, "min-change", {0, 1000, Open::none, " %"}) / 100;
    request.since = text_option(p->vm, "since");
    request.expected_false_alarms = bounded_option(p->vm, "false-alarms", {0, 1, Open::both, ""});
    return request;
}

std::optional<HistoryPlotRequest> parse_history_plot(const std::vector<std::string>& args) {
    po::options_description extra = metric_option();
    extra.add_options()("output,o", po::value<std::string>(), "FILE.png or FILE.svg (required)");
    auto p = parse(args,
                   "usage: perfgauge history plot [REGEX] [--metric M] -o FILE.png|FILE.svg "
                   "[--db ...]\n\nEach matching series over its runs (median and 95% interval per "
                   "run), its segments' levels and its change points marked with their size.\n\n"
                   "options",
                   extra);
    if (!p)
        return std::nullopt;
    const std::string output = picture_output(text_option(p->vm, "output"));
    check_output_path(output);
    return HistoryPlotRequest{
        {store_option(p->vm), p->positional, p->vm["metric"].as<std::string>()}, output};
}

std::optional<HistoryCompareRequest> parse_history_compare(const std::vector<std::string>& args) {
    po::options_description extra = metric_option();
    extra.add_options()("by", po::value<std::string>(), "machine (the only grouping so far)")(
        "reference", po::value<std::string>(),
        "the machine class the others are divided by: a prefix of its id or a piece of its "
        "summary (default: the class of the earliest run)")(
        "commit", po::value<std::string>(), "only runs of this commit (a prefix of it)");
    auto p = parse(args,
                   "usage: perfgauge history compare [REGEX] --by machine [--reference CLASS] "
                   "[--commit REV] [--metric M] [--db ...]\n\nMachine classes side by side on "
                   "the benchmarks every one of them measured: the median of each class's runs, "
                   "as a ratio to the reference class's (larger: slower), and per instruction "
                   "where instructions were counted on both.\n\noptions",
                   extra);
    if (!p)
        return std::nullopt;
    if (!p->vm.count("by") || p->vm["by"].as<std::string>() != "machine")
        throw UsageError("history compare needs --by machine (the only grouping so far)");
    return HistoryCompareRequest{
        store_option(p->vm), history_pattern(p->positional), p->vm["metric"].as<std::string>(),
        text_option(p->vm, "commit").value_or(""), text_option(p->vm, "reference")};
}

std::optional<HistoryExportRequest> parse_history_export(const std::vector<std::string>& args) {
    po::options_description extra;
    extra.add_options()("format", po::value<std::string>()->default_value("csv"), "csv or json")(
        "output,o", po::value<std::string>(), "write here instead of stdout (atomically)");
    auto p = parse(args,
                   "usage: perfgauge history export [REGEX] --format csv|json [-o FILE] [--db "
                   "...]\n\nOne row (csv) or object (json) per run, benchmark and metric, with "
                   "every sample.\n\noptions",
                   extra);
    if (!p)
        return std::nullopt;
    using harness::OutputFormat;
    static constexpr OutputFormat kAccepted[] = {OutputFormat::csv, OutputFormat::json};
    const auto text = p->vm["format"].as<std::string>();
    OutputFormat format{};
    try {  // first, as before: a bad --format is the error said, whatever else is wrong
        format = harness::parse_output_format(text, kAccepted);
    } catch (const std::invalid_argument&) {  // export's own words, as before
        throw UsageError(fmt::format("--format {}: expected csv or json", text));
    }
    return HistoryExportRequest{store_option(p->vm), format, history_pattern(p->positional),
                                output_option(p->vm)};
}

std::optional<HistoryForgetRequest> parse_history_forget(const std::vector<std::string>& args) {
    // "-1" would reach the option parser as an option it does not know.
    for (const auto& a : args)
        if (a.size() > 1 && a[0] == '-' &&
            a.find_first_not_of("0123456789", 1) == std::string::npos)
            run_id(a);
    auto p = parse(args, "usage: perfgauge history forget RUN_ID... [--db ...]\n\noptions");
    if (!p)
        return std::nullopt;
    if (p->positional.empty())
        throw UsageError(
            "which runs? perfgauge history forget RUN_ID... (history list shows them)");
    HistoryForgetRequest request{store_option(p->vm), {}};
    for (const auto& a : p->positional)
        request.runs.push_back(run_id(a));
    return request;
}

std::optional<HistoryAcceptRequest> parse_history_accept(const std::vector<std::string>& args) {
    po::options_description extra;
    extra.add_options()("reason", po::value<std::string>(),
                        "why the change is accepted (required, recorded and shown)")(
        "metric", po::value<std::vector<std::string>>(),
        "a metric the acceptance holds for (repeatable; default: every metric)");
    auto p = parse(args,
                   "usage: perfgauge history accept REV --reason TEXT [REGEX] [--metric M]... "
                   "[--db ...]\n\nAccepts the change brought by commit REV (a prefix of exactly "
                   "one stored commit): from its first run on, the series of the benchmarks "
                   "REGEX matches (default: every one), of the metrics named (default: every "
                   "one), have a new baseline, which `history check` judges against. Recorded "
                   "with the reason, listed by `history list`, drawn by `history plot`.\n\n"
                   "options",
                   extra);
    if (!p)
        return std::nullopt;
    if (p->positional.empty())
        throw UsageError(
            "which commit? perfgauge history accept REV --reason TEXT (history list shows them)");
    if (p->positional.size() > 2)
        throw UsageError(
            fmt::format("unexpected argument '{}': REV and at most one REGEX", p->positional[2]));
    const auto reason = text_option(p->vm, "reason");
    if (!reason || reason->find_first_not_of(" \t\n") == std::string::npos)
        throw UsageError("--reason TEXT is required and must say why the change is accepted");
    HistoryAcceptRequest request{store_option(p->vm), p->positional[0], "", {}, *reason};
    if (request.revision.empty())
        throw UsageError("REV '': give a prefix of a stored commit (history list shows them)");
    if (p->positional.size() == 2) {
        request.pattern = p->positional[1];
        (void)UserPattern("REGEX", request.pattern);  // refused now, not when check reads it
    }
    if (p->vm.count("metric"))
        for (const auto& m : p->vm["metric"].as<std::vector<std::string>>()) {
            if (m.empty())
                throw UsageError("--metric '': give a metric's name (time, or an event's)");
            request.metrics.push_back(m);
        }
    return request;
}

constexpr const char* kReportUsage =
    "usage: perfgauge history report -o DIR [REGEX] [--db ...]\n\n"
    "The store as one static page, DIR/index.html (DIR is created when missing): the open\n"
    "regressions (the verdict `history check REGEX` gives each series), the accepted changes,\n"
    "then a graph per matching series (each run's median and 95% interval, the segments'\n"
    "levels, the change points dashed; run and commit on hover), with filters by benchmark,\n"
    "metric and machine. Self-contained: inline SVG and a few lines of script, nothing\n"
    "fetched, opened from file:// as it is. A URL hash such as #metric=time&machine=ID ticks\n"
    "only those values when the page loads.\n\noptions";

// report words its --db as the others' options do, but keeps its own help, which lists -o and
// --db only.
std::optional<HistoryReportRequest> parse_history_report(const std::vector<std::string>& args) {
    po::options_description visible(kReportUsage);
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
    HistoryReportRequest request{store_option(*vm), {}, vm->at("output").as<std::string>()};
    if (vm->count("args"))
        request.patterns = vm->at("args").as<std::vector<std::string>>();
    return request;
}

}  // namespace perfgauge::cli
