// perfgauge history: results over time and across machines, in a SQLite file or on a
// PostgreSQL server; change points per series; `check` exits 3 on a regression.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/history_store.hpp"
#include "perfgauge/harness/machine_fingerprint.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "plot_python.hpp"
#include "result_input.hpp"

namespace perfgauge::cli {
namespace {

constexpr const char* kOverview = R"(usage: perfgauge history SUBCOMMAND [OPTIONS]

Results over time and across machines. Every sample of every metric is kept, with the run's
commit, labels, context and machine fingerprint. A series is one benchmark's metric on one
comparable machine class (same CPU, caches, threads, compiler and flags): runs of other
machines are never judged against it.

subcommands:
  add RESULT... [--label K=V]... [--commit REV]
                     store results (perfgauge run or stat JSON, Google Benchmark JSON);
                     --commit defaults to the git HEAD of the current directory
  list               the stored runs
  show [REGEX] [--metric M]
                     each matching series run by run, with its change points
  check [REGEX] [--metric M]
                     the latest run of each series against its history: exit 3 on a
                     regression (like compare --fail-on-regression)
  plot [REGEX] [--metric M] -o FILE.png|FILE.svg
                     each matching series over its runs, change points marked
  compare [REGEX] --by machine [--reference CLASS] [--commit REV]
                     machine classes side by side, as ratios to a reference (per item,
                     and per instruction where counted), on the same benchmarks
  export [REGEX] --format csv|json [-o FILE]
                     every stored measurement with its samples
  forget RUN_ID...   remove runs and their samples

options of every subcommand:
  --db PATH|postgresql://...
                     the store (default: $PERFGAUGE_DB, else
                     $XDG_DATA_HOME/perfgauge/history.db, else
                     ~/.local/share/perfgauge/history.db)

Change points: E-divisive with means and a seeded permutation test (alpha 0.01) over the
runs' medians; a shift smaller than the runs' own spread (their medians' 95% intervals) is
not reported; deterministic series (every run's samples equal, e.g. simulated counts) change
exactly where their value does. See docs/cli/history.md.
)";

std::string git_head() {
    // Only when the current directory is in a repository; quietly nothing otherwise.
    FILE* pipe = popen("git rev-parse --verify -q HEAD 2>/dev/null", "r");
    if (!pipe)
        return {};
    char buffer[128] = {};
    std::string out;
    while (std::fgets(buffer, sizeof buffer, pipe))
        out += buffer;
    pclose(pipe);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
        out.pop_back();
    return out;
}

struct Parsed {
    po::variables_map vm;
    std::vector<std::string> positional;
};

// The subcommand's options plus --db and the positional arguments; --help prints `usage`.
std::optional<Parsed> parse(const std::vector<std::string>& args, const char* usage,
                            po::options_description extra = po::options_description()) {
    po::options_description options(usage);
    options.add_options()("help,h", "show this help")(
        "db", po::value<std::string>(), "the store: a SQLite file or postgresql://...");
    options.add(extra);
    po::options_description hidden;
    hidden.add_options()("args", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description positional;
    positional.add("args", -1);
    Parsed p{parse_options(args, all, positional), {}};
    if (p.vm.count("help")) {
        std::cout << options << '\n';
        return std::nullopt;
    }
    if (p.vm.count("args"))
        p.positional = p.vm["args"].as<std::vector<std::string>>();
    return p;
}

// Only `add` creates a SQLite store: reading one that is not there is a mistyped path.
enum class Create { yes, no };

std::string store_location(const po::variables_map& vm) {
    const std::string location =
        vm.count("db") ? vm["db"].as<std::string>() : harness::default_history_location();
    if (location.empty())
        throw UsageError("--db: empty location");
    return location;
}

bool on_a_server(const std::string& location) {
    return location.find("://") != std::string::npos;
}

// An output file is never the SQLite store it is made from (-o history.db would replace it).
void refuse_output_over_store(const std::string& output, const po::variables_map& vm) {
    const std::string location = store_location(vm);
    if (!output.empty() && !on_a_server(location))
        refuse_outputs_over_inputs({{"-o", output}}, {{"the history store", location}});
}

std::unique_ptr<harness::HistoryStore> open_store(const po::variables_map& vm,
                                                  Create create = Create::no) {
    const std::string location = store_location(vm);
    const bool server = on_a_server(location);
    if (create == Create::no && !server && !std::filesystem::exists(location)) {
        throw UsageError(fmt::format(
            "no history store at {} (perfgauge history add creates one; --db names another)",
            location));
    }
    return harness::HistoryStore::open(location);
}

std::regex pattern(const std::vector<std::string>& positional, std::size_t at) {
    if (positional.size() <= at)
        return std::regex(".*");
    if (positional.size() > at + 1)
        throw UsageError(fmt::format("one pattern, not {}", positional.size() - at));
    try {
        return std::regex(positional[at]);
    } catch (const std::regex_error& e) {
        throw UsageError(
            fmt::format("'{}': not a regular expression ({})", positional[at], e.what()));
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
std::vector<harness::SeriesKey> selected_series(harness::HistoryStore& store, const std::regex& re,
                                                const std::string& metric) {
    std::vector<harness::SeriesKey> out;
    for (auto& key : store.series())
        if (key.metric == metric && std::regex_search(key.benchmark, re))
            out.push_back(std::move(key));
    return out;
}

// The matching series of --metric, for show, check and plot; UsageError when none matches.
std::vector<harness::SeriesKey> required_series(harness::HistoryStore& store, const Parsed& p) {
    auto keys = selected_series(store, pattern(p.positional, 0), p.vm["metric"].as<std::string>());
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

int add(const std::vector<std::string>& args) {
    po::options_description extra;
    extra.add_options()("label", po::value<std::vector<std::string>>(),
                        "K=V recorded with each run (repeatable)")(
        "commit", po::value<std::string>(), "the measured commit (default: git HEAD here)");
    auto p = parse(args,
                   "usage: perfgauge history add RESULT... [--label K=V]... [--commit REV] [--db "
                   "...]\n\noptions",
                   extra);
    if (!p)
        return kExitOk;
    if (p->positional.empty())
        throw UsageError("which result files? perfgauge history add RESULT.json...");
    harness::AddedRun how;
    how.commit = p->vm.count("commit") ? p->vm["commit"].as<std::string>() : git_head();
    if (p->vm.count("label")) {
        for (const auto& l : p->vm["label"].as<std::vector<std::string>>()) {
            const auto eq = l.find('=');
            if (eq == std::string::npos || eq == 0)
                throw UsageError(fmt::format("--label '{}': expected KEY=VALUE", l));
            how.labels.emplace_back(l.substr(0, eq), l.substr(eq + 1));
        }
    }
    // Every file is read and checked before anything is stored: a bad one adds nothing.
    std::vector<harness::RunResult> results;
    for (const auto& path : p->positional) {
        results.push_back(read_any_result_file(path));
        const auto why = harness::unidentified_machine(results.back(), harness::machine_label(how));
        if (!why.empty())
            throw UsageError(path + ": " + why);
    }
    auto store = open_store(p->vm, Create::yes);
    std::string out;
    for (std::size_t i = 0; i < results.size(); ++i) {
        how.source = p->positional[i];
        const auto id = store->add(results[i], how);
        out += fmt::format("added run {}: {} ({} benchmarks, commit {})\n", id, how.source,
                           results[i].benchmarks.size(), short_commit(how.commit));
    }
    write_output(out, "");
    return kExitOk;
}

int list(const std::vector<std::string>& args) {
    auto p = parse(args, "usage: perfgauge history list [--db ...]\n\noptions");
    if (!p)
        return kExitOk;
    if (!p->positional.empty())
        throw UsageError(fmt::format("unexpected argument '{}'", p->positional[0]));
    auto store = open_store(p->vm);
    std::string out =
        fmt::format("{:>5}  {:<20}  {:<10}  {:>10}  {:>12}  {:<16}  {}\n", "run", "added (UTC)",
                    "commit", "benchmarks", "sample bytes", "machine class", "source, labels");
    for (const auto& r : store->runs()) {
        out += fmt::format("{:>5}  {:<20}  {:<10}  {:>10}  {:>12}  {:<16}  {}{}\n", r.id,
                           r.added_at, short_commit(r.commit), r.benchmarks, r.sample_bytes,
                           r.machine_class, r.source, r.labels.empty() ? "" : ", " + r.labels);
    }
    write_output(out, "");
    return kExitOk;
}

po::options_description metric_option() {
    po::options_description extra;
    extra.add_options()("metric", po::value<std::string>()->default_value(harness::kTimeMetric),
                        "time, or an event's name as counted");
    return extra;
}

std::string percent(double share) {
    return fmt::format("{:+.1f}%", 100 * share);
}

int show(const std::vector<std::string>& args) {
    auto p = parse(args, "usage: perfgauge history show [REGEX] [--metric M] [--db ...]\n\noptions",
                   metric_option());
    if (!p)
        return kExitOk;
    auto store = open_store(p->vm);
    const auto summaries = class_summaries(*store);
    const auto keys = required_series(*store, *p);
    std::string out;
    for (const auto& key : keys) {
        const auto entries = store->series_runs(key);
        const auto pts = points(entries);
        const auto changes = harness::detect_change_points(pts);
        out +=
            fmt::format("{} [{}] on {} ({}){}\n", key.benchmark, key.metric, key.machine_class,
                        summaries.count(key.machine_class) ? summaries.at(key.machine_class) : "?",
                        harness::deterministic_series(pts) ? ", deterministic" : "");
        std::size_t next = 0;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const auto& e = entries[i];
            std::string mark;
            if (next < changes.size() && changes[next].index == i) {
                const auto& c = changes[next++];
                mark = fmt::format("  <- change {} [{}, {}] {}{}", percent(c.size),
                                   percent(c.size_low), percent(c.size_high),
                                   c.regression ? "regression" : "improvement",
                                   c.p_value > 0 ? fmt::format(" (p {:.3f})", c.p_value) : "");
            }
            out += fmt::format("  run {:>5}  {:<10}  {:>14.6g} +- {:<10.3g} {}{}\n", e.run_id,
                               short_commit(e.commit), e.point.value, e.point.spread, e.unit, mark);
        }
    }
    write_output(out, "");
    return kExitOk;
}

int check(const std::vector<std::string>& args) {
    auto p = parse(args,
                   "usage: perfgauge history check [REGEX] [--metric M] [--db ...]\n\n"
                   "Exit status 3 when the latest run of a series is a regression against "
                   "the runs since its last change point.\n\noptions",
                   metric_option());
    if (!p)
        return kExitOk;
    auto store = open_store(p->vm);
    const auto keys = required_series(*store, *p);
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

// At most this many panels in one picture: beyond it the plot is unreadable, and a narrower
// pattern says which series are meant.
constexpr std::size_t kMostPlottedSeries = 12;

int plot(const std::vector<std::string>& args) {
    po::options_description extra = metric_option();
    extra.add_options()("output,o", po::value<std::string>(), "FILE.png or FILE.svg (required)");
    auto p = parse(args,
                   "usage: perfgauge history plot [REGEX] [--metric M] -o FILE.png|FILE.svg "
                   "[--db ...]\n\nEach matching series over its runs (median and 95% interval per "
                   "run), its segments' levels and its change points marked with their size.\n\n"
                   "options",
                   extra);
    if (!p)
        return kExitOk;
    if (!p->vm.count("output"))
        throw UsageError("-o FILE.png or -o FILE.svg is required");
    const std::string output = p->vm["output"].as<std::string>();
    const auto extension = std::filesystem::path(output).extension();
    if (extension != ".png" && extension != ".svg")
        throw UsageError(fmt::format("-o {}: the file must end in .png or .svg", output));
    check_output_path(output);
    refuse_output_over_store(output, p->vm);
    auto store = open_store(p->vm);
    const auto summaries = class_summaries(*store);
    const auto keys = required_series(*store, *p);
    if (keys.size() > kMostPlottedSeries) {
        throw UsageError(
            fmt::format("{} series match, more than one picture shows ({}): give a narrower REGEX",
                        keys.size(), kMostPlottedSeries));
    }
    nlohmann::json data = {{"series", nlohmann::json::array()}};
    for (const auto& key : keys) {
        const auto entries = store->series_runs(key);
        if (entries.empty())
            continue;
        nlohmann::json series = {
            {"benchmark", key.benchmark},
            {"metric", key.metric},
            {"machine",
             fmt::format("{} ({})",
                         summaries.count(key.machine_class) ? summaries.at(key.machine_class) : "?",
                         key.machine_class.substr(0, 8))},
            {"unit", entries.front().unit},
            {"runs", nlohmann::json::array()},
            {"changes", nlohmann::json::array()}};
        for (const auto& e : entries)
            series["runs"].push_back({{"run", e.run_id},
                                      {"commit", e.commit},
                                      {"median", e.point.value},
                                      {"spread", e.point.spread}});
        for (const auto& c : harness::detect_change_points(points(entries)))
            series["changes"].push_back({{"index", c.index},
                                         {"size", c.size},
                                         {"low", c.size_low},
                                         {"high", c.size_high},
                                         {"regression", c.regression}});
        data["series"].push_back(std::move(series));
    }
    if (data["series"].empty())
        throw UsageError("the matching series have no samples to draw");
    const auto script = plotting_script("history_plot.py");
    const auto python = python_for_plotting();
    const harness::ScratchDir scratch("perfgauge-history-plot", "the series to draw");
    const auto series_file = (scratch.path() / "series.json").string();
    harness::write_output_file(series_file, data.dump());
    return draw_with_script(python, script, {series_file}, output);
}

// ---- machines side by side ----------------------------------------------------------------

// The value of a benchmark's metric on one machine class: the median of its runs' medians.
using ClassValues = std::map<std::string, double>;  // by machine class

std::map<std::string, ClassValues> values_by_benchmark(harness::HistoryStore& store,
                                                       const std::regex& re,
                                                       const std::string& metric,
                                                       const std::string& commit) {
    std::map<std::string, ClassValues> out;
    for (const auto& key : selected_series(store, re, metric)) {
        std::vector<double> medians;
        for (const auto& e : store.series_runs(key))
            if (commit.empty() || e.commit.starts_with(commit))
                medians.push_back(e.point.value);
        if (!medians.empty())
            out[key.benchmark][key.machine_class] = harness::median(medians);
    }
    return out;
}

// The machine class `wanted` names: a prefix of its id, or a piece of its summary or of a
// host name among its runs; exactly one.
std::string class_named(harness::HistoryStore& store, const std::set<std::string>& classes,
                        const std::string& wanted) {
    std::set<std::string> found;
    for (const auto& r : store.runs()) {
        if (classes.count(r.machine_class) &&
            (r.machine_class.starts_with(wanted) ||
             r.machine_summary.find(wanted) != std::string::npos || r.machine_id == wanted))
            found.insert(r.machine_class);
    }
    if (found.size() == 1)
        return *found.begin();
    throw UsageError(fmt::format(
        "--reference {}: {} of the compared machine classes ({}) match; give more of a class id "
        "(history compare lists them)",
        wanted, found.empty() ? "none" : std::to_string(found.size()), fmt::join(classes, ", ")));
}

std::string ratio(double value, double reference) {
    return reference > 0 ? fmt::format("{:.3f}x", value / reference) : "-";
}

int compare(const std::vector<std::string>& args) {
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
        return kExitOk;
    if (!p->vm.count("by") || p->vm["by"].as<std::string>() != "machine")
        throw UsageError("history compare needs --by machine (the only grouping so far)");
    const auto re = pattern(p->positional, 0);
    const std::string metric = p->vm["metric"].as<std::string>();
    const std::string commit = p->vm.count("commit") ? p->vm["commit"].as<std::string>() : "";
    auto store = open_store(p->vm);
    const auto values = values_by_benchmark(*store, re, metric, commit);
    const auto instructions = values_by_benchmark(*store, re, "instructions", commit);
    std::set<std::string> classes;
    for (const auto& [benchmark, by_class] : values)
        for (const auto& [machine_class, value] : by_class)
            classes.insert(machine_class);
    if (classes.size() < 2) {
        throw UsageError(
            fmt::format("{} machine class{} measured the matching benchmarks{}: nothing to compare",
                        classes.size(), classes.size() == 1 ? "" : "es",
                        commit.empty() ? "" : " at commit " + commit));
    }
    std::string reference;
    if (p->vm.count("reference")) {
        reference = class_named(*store, classes, p->vm["reference"].as<std::string>());
    } else {
        for (const auto& r : store->runs())  // in the order added
            if (reference.empty() && classes.count(r.machine_class))
                reference = r.machine_class;
    }
    std::vector<std::string> order = {reference};
    for (const auto& c : classes)
        if (c != reference)
            order.push_back(c);
    const auto summaries = class_summaries(*store);
    std::string out = "machine classes (ratios: value / the reference's; larger is slower):\n";
    for (std::size_t i = 0; i < order.size(); ++i)
        out += fmt::format("  M{}  {}  {}{}\n", i, order[i], summaries.at(order[i]),
                           i == 0 ? "  (reference)" : "");
    out += fmt::format("{:<32} {:>14}", "benchmark [" + metric + "]", "M0");
    for (std::size_t i = 1; i < order.size(); ++i)
        out += fmt::format(" {:>10}", fmt::format("M{}/M0", i));
    out += "\n";
    std::vector<double> log_sums(order.size(), 0);
    std::size_t common = 0, left_out = 0;
    const auto on_every_class = [&](const ClassValues& v) {
        for (const auto& c : order)
            if (!v.count(c))
                return false;
        return true;
    };
    for (const auto& [benchmark, by_class] : values) {
        if (!on_every_class(by_class)) {
            ++left_out;
            continue;
        }
        ++common;
        const double ref = by_class.at(reference);
        out += fmt::format("{:<32} {:>14.6g}", benchmark, ref);
        for (std::size_t i = 1; i < order.size(); ++i) {
            out += fmt::format(" {:>10}", ratio(by_class.at(order[i]), ref));
            if (ref > 0 && by_class.at(order[i]) > 0)
                log_sums[i] += std::log(by_class.at(order[i]) / ref);
        }
        out += "\n";
        // Per instruction: how much of the difference is the machine, not the instruction count
        // (a different compiler or ISA path executes a different number of instructions).
        const auto counted = instructions.find(benchmark);
        if (metric != "instructions" && counted != instructions.end() &&
            on_every_class(counted->second) && counted->second.at(reference) > 0) {
            const double ref_per = ref / counted->second.at(reference);
            out += fmt::format("{:<32} {:>14.6g}", "  per instruction", ref_per);
            for (std::size_t i = 1; i < order.size(); ++i) {
                const double n = counted->second.at(order[i]);
                out +=
                    fmt::format(" {:>10}", n > 0 ? ratio(by_class.at(order[i]) / n, ref_per) : "-");
            }
            out += "\n";
        }
    }
    if (common == 0) {
        throw UsageError(fmt::format(
            "no matching benchmark was measured on every machine class ({} measured on some "
            "only): narrow the REGEX or --commit",
            left_out));
    }
    out += fmt::format("{:<32} {:>14}", "geometric mean", "");
    for (std::size_t i = 1; i < order.size(); ++i)
        out += fmt::format(" {:>10}", fmt::format("{:.3f}x", std::exp(log_sums[i] / common)));
    out += fmt::format(
        "\n{} benchmark{} on every class{}\n", common, common == 1 ? "" : "s",
        left_out ? fmt::format(", {} left out (not measured on every class)", left_out) : "");
    write_output(out, "");
    return kExitOk;
}

int export_history(const std::vector<std::string>& args) {
    po::options_description extra;
    extra.add_options()("format", po::value<std::string>()->default_value("csv"), "csv or json")(
        "output,o", po::value<std::string>(), "write here instead of stdout (atomically)");
    auto p = parse(args,
                   "usage: perfgauge history export [REGEX] --format csv|json [-o FILE] [--db "
                   "...]\n\nOne row (csv) or object (json) per run, benchmark and metric, with "
                   "every sample.\n\noptions",
                   extra);
    if (!p)
        return kExitOk;
    const auto format = p->vm["format"].as<std::string>();
    if (format != "csv" && format != "json")
        throw UsageError(fmt::format("--format {}: expected csv or json", format));
    const auto re = pattern(p->positional, 0);
    const std::string output = output_option(p->vm);
    refuse_output_over_store(output, p->vm);
    auto store = open_store(p->vm);
    std::string text;
    nlohmann::json array = nlohmann::json::array();
    if (format == "csv")
        text =
            "run,commit,measured_at,machine_class,benchmark,metric,unit,source,median,spread,"
            "samples\n";
    const auto quoted = [](const std::string& s) {
        std::string q = "\"";
        for (const char c : s)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    for (const auto& m : store->measurements()) {
        if (!std::regex_search(m.benchmark, re))
            continue;
        if (format == "json") {
            array.push_back({{"run", m.run_id},
                             {"commit", m.commit},
                             {"measured_at", m.measured_at},
                             {"machine_class", m.machine_class},
                             {"benchmark", m.benchmark},
                             {"metric", m.metric},
                             {"unit", m.unit},
                             {"source", m.source},
                             {"median", m.median},
                             {"spread", m.spread},
                             {"samples", m.samples}});
            continue;
        }
        text += fmt::format("{},{},{},{},{},{},{},{},{},{},\"{}\"\n", m.run_id, quoted(m.commit),
                            quoted(m.measured_at), m.machine_class, quoted(m.benchmark),
                            quoted(m.metric), m.unit, m.source, m.median, m.spread,
                            fmt::join(m.samples, ";"));
    }
    if (format == "json")
        text = array.dump(2) + "\n";
    write_output(text, output);
    return kExitOk;
}

int forget(const std::vector<std::string>& args) {
    auto p = parse(args, "usage: perfgauge history forget RUN_ID... [--db ...]\n\noptions");
    if (!p)
        return kExitOk;
    if (p->positional.empty())
        throw UsageError(
            "which runs? perfgauge history forget RUN_ID... (history list shows them)");
    std::vector<std::int64_t> ids;
    for (const auto& a : p->positional) {
        std::size_t used = 0;
        long long id = 0;
        try {
            id = std::stoll(a, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != a.size() || id <= 0)
            throw UsageError(fmt::format("'{}' is not a run id (a positive integer)", a));
        ids.push_back(id);
    }
    auto store = open_store(p->vm);
    const auto existed = store->forget(ids);
    write_output(fmt::format("forgot {} run{}{}\n", existed, existed == 1 ? "" : "s",
                             existed < ids.size() ? " (the others were not stored)" : ""),
                 "");
    return existed == ids.size() ? kExitOk : kExitUsage;
}

}  // namespace

int history_command(const std::vector<std::string>& args) {
    if (args.empty())
        throw UsageError(
            "which subcommand? add, list, show, check, plot, compare, export or forget");
    if (args[0] == "--help" || args[0] == "-h") {
        std::cout << kOverview;
        return kExitOk;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const std::string& sub = args[0];
    if (sub == "add")
        return add(rest);
    if (sub == "list")
        return list(rest);
    if (sub == "show")
        return show(rest);
    if (sub == "check")
        return check(rest);
    if (sub == "export")
        return export_history(rest);
    if (sub == "plot")
        return plot(rest);
    if (sub == "compare")
        return compare(rest);
    if (sub == "forget")
        return forget(rest);
    throw UsageError(fmt::format(
        "unknown subcommand '{}': add, list, show, check, plot, compare, export or forget", sub));
}

}  // namespace perfgauge::cli
