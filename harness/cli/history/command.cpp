// perfgauge history: results over time and across machines, in a SQLite file or on a
// PostgreSQL server; change points per series; `check` exits 3 on a regression.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "history/check.hpp"
#include "history/common.hpp"
#include "history/options.hpp"
#include "history/report.hpp"
#include "history/source.hpp"
#include "perfgauge/harness/change_points.hpp"
#include "perfgauge/harness/git_head.hpp"
#include "perfgauge/harness/history_store.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/machine_fingerprint.hpp"
#include "perfgauge/harness/metric_policy.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/store_text.hpp"
#include "perfgauge/harness/terminal_progress.hpp"
#include "plot/python.hpp"
#include "registry.hpp"

namespace perfgauge::cli {
namespace {

constexpr const char* kOverview = R"(usage: perfgauge history SUBCOMMAND [OPTIONS]

Results over time and across machines. Every sample of every metric is kept, with the run's
commit, labels, context and machine fingerprint. A series is one benchmark's metric on one
comparable machine class (same CPU, caches, threads, compiler and flags): runs of other
machines are never judged against it.

subcommands:
  add RESULT... [--label K=V]... [--commit REV] [-q]
                     store results (perfgauge run or stat JSON, Google Benchmark JSON);
                     --commit defaults to the git HEAD of the current directory;
                     one transaction per file: Ctrl-C names the files not stored
  list               the stored runs: each one's file (absolute path) and the
                     command that made it when the result records one
  show [REGEX] [--metric M]
                     each matching series run by run, in its unit with SI
                     prefixes (69.18 ms/run), with its change points
  check [REGEX] [--metric M]... [--min-change PCT] [--since REV]
                     the gate: exit 3 while a regression change point stands in a
                     series since its baseline (like compare --fail-on-regression)
  plot [REGEX] [--metric M] -o FILE.png|FILE.svg
                     each matching series over its runs, change points marked,
                     the axis in its unit (ms per run)
  compare [REGEX] --by machine [--reference CLASS] [--commit REV]
                     machine classes side by side, as ratios to a reference (per item,
                     and per instruction where counted), on the same benchmarks
  report -o DIR [REGEX]
                     one static page (DIR/index.html): open regressions, accepted
                     changes, a graph per series, filters; no server, no network
  export [REGEX] --format csv|json [-o FILE]
                     every stored measurement with its samples, raw, with its
                     unit (ns/run for time and task-clock)
  accept REV --reason TEXT [REGEX] [--metric M]...
                     accept the change commit REV brought: the new baseline of the
                     matching series from its first run on (listed, plotted)
  forget RUN_ID...   remove runs and their samples (their acceptances stay)

options of every subcommand:
  --db PATH|postgresql://...|postgres://...
                     the store (default: $PERFGAUGE_DB, else
                     $XDG_DATA_HOME/perfgauge/history.db, else
                     ~/.local/share/perfgauge/history.db); any other scheme, or
                     these in other letter case, is refused (exit 2)

list, show, check, plot, compare and export only read: they open the store read-only and
work on a store they may not write. Texts that are not UTF-8, and NUL bytes, are stored as
\xNN escapes, the same on both engines; add says when it escaped one.

Change points: the series replayed run by run as a CI job meets it; a split-point t test of
the current level's tail, noise from the runs before the split, confirmed by three runs and
kept for good; deterministic series (every run's samples equal, e.g. simulated counts) change
exactly where their value does. See docs/cli/history.md.
)";

// One file's run stored; when the store fails, what was stored before it is said (`out`) and
// the message names the file that was not. nullopt when an interrupt ended its wait for the
// store's write lock (nothing of it stored).
std::optional<std::int64_t> add_one(harness::HistoryStore& store, const harness::RunResult& result,
                                    const harness::AddedRun& how, std::vector<std::string>* escaped,
                                    const std::string& out) {
    try {
        return store.add(result, how, escaped);
    } catch (const std::runtime_error& e) {
        if (harness::interrupt_signal())
            return std::nullopt;
        write_output(out, "");
        throw std::runtime_error(fmt::format(
            "{} was not stored (nothing of it is in the store{}): {}",
            harness::store_text(how.source), out.empty() ? "" : "; the runs above are", e.what()));
    }
}

// After an interrupt: the files from `next` on, which were not stored, named for a later add;
// 128+N. kExitOk when every file was stored.
int not_added_after_interrupt(const std::vector<std::string>& files, std::size_t next) {
    const int signal = harness::interrupt_signal();
    if (!signal)
        return kExitOk;
    std::string left;
    for (std::size_t i = next; i < files.size(); ++i)
        left += " " + harness::store_text(files[i]);
    say("perfgauge history add: interrupted by {}: {} of {} files stored (above){}\n",
        harness::signal_name(signal), next, files.size(),
        left.empty() ? "" : "; not stored, add them again:" + left);
    return harness::interrupted_exit_status(signal);
}

int add(const std::vector<std::string>& args) {
    const auto request = parse_history_add(args);
    if (!request)
        return kExitOk;
    harness::AddedRun how;
    how.commit = request->commit ? *request->commit : harness::git_head();
    how.labels = request->labels;
    // Progress on a terminal, over the reading and the storing of every file (the storing
    // goes at its own rate: its estimate restarts).
    harness::TerminalProgress progress(harness::progress_wanted(request->quiet),
                                       "perfgauge history add", say_text);
    const std::size_t files = request->results.size();
    // Every file is read and checked before anything is stored: a bad one adds nothing.
    std::vector<HistoryInput> inputs;
    for (const auto& path : request->results) {
        progress.update(
            harness::with_time_left(fmt::format("reading {}/{}", inputs.size() + 1, files),
                                    progress.elapsed(), inputs.size(), files));
        inputs.push_back(read_history_input(path));
        const auto& result = inputs.back().result;
        auto why = harness::unidentified_machine(result, harness::machine_label(how));
        if (why.empty())
            why = harness::unstorable(result);
        if (!why.empty())
            throw UsageError(path + ": " + why);
    }
    auto store = open_store(request->store, StoreUse::create);
    std::string out, notes;
    const double storing_from = progress.elapsed();
    // Each file is one transaction: an interrupt waits for the one in progress, then the runs
    // stored are said and the files left are named (added_until_interrupted).
    const harness::InterruptHandling interrupts;
    std::size_t i = 0;
    for (; i < inputs.size() && !harness::interrupt_signal(); ++i) {
        progress.update(harness::with_time_left(fmt::format("storing {}/{}", i + 1, files),
                                                progress.elapsed() - storing_from, i, files));
        how.source = request->results[i];
        how.path = inputs[i].path;
        how.command = inputs[i].command;
        std::vector<std::string> escaped;
        const auto id = add_one(*store, inputs[i].result, how, &escaped, out);
        if (!id)
            break;
        out += fmt::format("added run {}: {} ({} benchmarks, commit {})\n", *id,
                           harness::store_text(how.source), inputs[i].result.benchmarks.size(),
                           short_commit(harness::store_text(how.commit)));
        for (const auto& e : escaped)
            notes += fmt::format(
                "perfgauge history add: note: run {}: {}: stored with \\xNN "
                "for bytes that are not UTF-8 and for NULs\n",
                *id, e);
    }
    progress.clear();
    write_output(out, "");
    say("{}", notes);
    return not_added_after_interrupt(request->results, i);
}

// The acceptances after the runs: what was accepted, where, for which series, why and when.
std::string acceptances_text(const std::vector<harness::Acceptance>& acceptances) {
    if (acceptances.empty())
        return {};
    std::string out =
        fmt::format("\naccepted:\n{:>5}  {:<10}  {:<20}  {:<16}  {:<20}  {}\n", "run", "commit",
                    "benchmarks (REGEX)", "metric", "added (UTC)", "reason");
    for (const auto& a : acceptances)
        out += fmt::format("{:>5}  {:<10}  {:<20}  {:<16}  {:<20}  {}\n", a.run_id,
                           short_commit(a.commit), a.pattern.empty() ? "(every)" : a.pattern,
                           a.metric.empty() ? "(every)" : a.metric, a.added_at, a.reason);
    return out;
}

// Where a run came from, as its user knows it: the file's absolute path (the name given to
// add in runs stored before perfgauge recorded it), the command that made it, the labels.
std::string source_text(const harness::StoredRun& r) {
    std::string out = r.path.empty() ? r.source : r.path;
    if (!r.command.empty())
        out += " (command: " + r.command + ")";
    return out + (r.labels.empty() ? "" : ", " + r.labels);
}

int list(const std::vector<std::string>& args) {
    const auto request = parse_history_list(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    std::string out = fmt::format("{:>5}  {:<20}  {:<10}  {:>10}  {:>12}  {:<16}  {}\n", "run",
                                  "added (UTC)", "commit", "benchmarks", "sample bytes",
                                  "machine class", "source (command), labels");
    for (const auto& r : store->runs()) {
        out += fmt::format("{:>5}  {:<20}  {:<10}  {:>10}  {:>12}  {:<16}  {}\n", r.id, r.added_at,
                           short_commit(r.commit), r.benchmarks, r.sample_bytes, r.machine_class,
                           source_text(r));
    }
    out += acceptances_text(store->acceptances());
    write_output(out, "");
    return kExitOk;
}

int show(const std::vector<std::string>& args) {
    const auto request = parse_history_show(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    const auto summaries = class_summaries(*store);
    const auto keys = required_series(*store, *request);
    std::string out;
    for (const auto& key : keys) {
        const auto entries = store->series_runs(key);
        const auto pts = points(entries);
        // In its unit with an SI prefix (69.18 ms/run, not 6.91757e+07 count/run); the spread
        // in the value's unit, without repeating what it is per.
        const auto policy =
            harness::metric_policy(key.metric, entries.empty() ? "" : entries.front().unit, false);
        // A change is a regression in the metric's worse direction (a throughput's is down).
        const auto changes = harness::detect_change_points(pts, policy.worse);
        auto spread_policy = policy;
        spread_policy.per.clear();
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
            auto line = fmt::format(
                "  run {:>5}  {:<10}  {:>16} +- {:<10}{}", e.run_id, short_commit(e.commit),
                harness::format_metric_value(e.point.value, policy),
                harness::format_metric_value(e.point.spread, spread_policy), mark);
            out += line.erase(line.find_last_not_of(' ') + 1) + "\n";
        }
    }
    write_output(out, "");
    return kExitOk;
}

// At most this many panels in one picture: beyond it the plot is unreadable, and a narrower
// pattern says which series are meant.
constexpr std::size_t kMostPlottedSeries = 12;

// One series as history_plot.py draws it. Values stay raw (as stored); `scale` and
// `unit_label` make the axis read plain numbers in its unit ("ms per run"): the script draws
// value * scale.
nlohmann::json plot_series(const harness::SeriesKey& key,
                           const std::vector<harness::SeriesEntry>& entries,
                           const std::vector<harness::Acceptance>& acceptances,
                           const std::string& machine) {
    const std::string unit = harness::metric_unit(key.metric, entries.front().unit);
    double typical = 0;
    for (const auto& e : entries)
        typical = std::max(typical, std::abs(e.point.value));
    const auto axis = harness::axis_scale(typical, harness::metric_policy(key.metric, unit, false));
    nlohmann::json series = {{"benchmark", key.benchmark},
                             {"metric", key.metric},
                             {"machine", machine},
                             {"unit", unit},
                             {"unit_label", axis.label},
                             {"scale", axis.scale},
                             {"runs", nlohmann::json::array()},
                             {"changes", nlohmann::json::array()},
                             {"accepted", nlohmann::json::array()}};
    for (const auto& e : entries)
        series["runs"].push_back({{"run", e.run_id},
                                  {"commit", e.commit},
                                  {"median", e.point.value},
                                  {"spread", e.point.spread}});
    for (const auto& a : acceptances) {
        if (const auto index = accepted_from({a}, key, entries))
            series["accepted"].push_back(
                {{"index", *index}, {"commit", a.commit}, {"reason", a.reason}});
    }
    for (const auto& c : harness::detect_change_points(
             points(entries), harness::metric_policy(key.metric, unit, false).worse))
        series["changes"].push_back({{"index", c.index},
                                     {"size", c.size},
                                     {"low", c.size_low},
                                     {"high", c.size_high},
                                     {"regression", c.regression}});
    return series;
}

// The series to draw, as the JSON history_plot.py reads; UsageError when too many match or
// none has a sample.
nlohmann::json plot_data(harness::HistoryStore& store, const HistorySeriesRequest& request) {
    const auto summaries = class_summaries(store);
    const auto keys = required_series(store, request);
    const auto acceptances = store.acceptances();
    if (keys.size() > kMostPlottedSeries) {
        throw UsageError(
            fmt::format("{} series match, more than one picture shows ({}): give a narrower REGEX",
                        keys.size(), kMostPlottedSeries));
    }
    nlohmann::json data = {{"series", nlohmann::json::array()}};
    for (const auto& key : keys) {
        const auto entries = store.series_runs(key);
        if (entries.empty())
            continue;
        const auto summary =
            summaries.count(key.machine_class) ? summaries.at(key.machine_class) : std::string("?");
        data["series"].push_back(
            plot_series(key, entries, acceptances,
                        fmt::format("{} ({})", summary, key.machine_class.substr(0, 8))));
    }
    if (data["series"].empty())
        throw UsageError("the matching series have no samples to draw");
    return data;
}

int plot(const std::vector<std::string>& args) {
    const auto request = parse_history_plot(args);
    if (!request)
        return kExitOk;
    const std::string& output = request->output;
    refuse_output_over_store(output, request->series.store);
    auto store = open_store(request->series.store);
    const auto data = plot_data(*store, request->series);
    // From before the first child (the matplotlib check) and the scratch directory: an
    // interrupt at any point is said once and leaves nothing behind.
    const harness::InterruptHandling interrupts;
    const auto interrupted = [&] {
        const int signal = harness::interrupt_signal();
        if (signal)
            say("perfgauge history plot: interrupted by {} before drawing {}: nothing written\n",
                harness::signal_name(signal), output);
        return signal;
    };
    const auto script = plotting_script("history_plot.py");
    const std::string python = python_for_plotting_unless_interrupted();
    if (const int signal = interrupted())
        return harness::interrupted_exit_status(signal);
    const harness::ScratchDir scratch("perfgauge-history-plot", "the series to draw");
    const auto series_file = (scratch.path() / "series.json").string();
    // json_text: a benchmark name or reason with bytes that are not UTF-8 never throws.
    harness::write_output_file(series_file, harness::json_text(data));
    if (const int signal = interrupted())
        return harness::interrupted_exit_status(signal);
    return draw_with_script(python, script, {series_file}, output, true);
}

// ---- machines side by side ----------------------------------------------------------------

// The value of a benchmark's metric on one machine class: the median of its runs' medians.
using ClassValues = std::map<std::string, double>;  // by machine class

std::map<std::string, ClassValues> values_by_benchmark(harness::HistoryStore& store,
                                                       const UserPattern& re,
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

// The machine classes that measured the matching benchmarks; UsageError unless two or more.
std::set<std::string> compared_classes(const std::map<std::string, ClassValues>& values,
                                       const std::string& commit) {
    std::set<std::string> classes;
    for (const auto& [benchmark, by_class] : values)
        for (const auto& [machine_class, value] : by_class)
            classes.insert(machine_class);
    if (classes.size() < 2) {
        throw UsageError(fmt::format(
            "{} machine class{} measured the matching benchmarks{}: nothing to compare (compare "
            "--by machine needs runs of two or more; history list shows each run's class)",
            classes.size(), classes.size() == 1 ? "" : "es",
            commit.empty() ? "" : " at commit " + commit));
    }
    return classes;
}

// The classes in the table's order: the reference (M0: the class --reference names, else the
// earliest run's), then the others by id.
std::vector<std::string> class_order(harness::HistoryStore& store,
                                     const std::set<std::string>& classes,
                                     const std::optional<std::string>& named) {
    std::string reference;
    if (named) {
        reference = class_named(store, classes, *named);
    } else {
        for (const auto& r : store.runs())  // in the order added
            if (reference.empty() && classes.count(r.machine_class))
                reference = r.machine_class;
    }
    std::vector<std::string> order = {reference};
    for (const auto& c : classes)
        if (c != reference)
            order.push_back(c);
    return order;
}

// The benchmarks measured on every class, a row each (and a row per instruction where
// instructions were counted on every class), with what the geometric means need.
struct ComparisonRows {
    std::string text;
    std::vector<double> log_sums;  ///< per class: the sum of log(value / reference's)
    std::size_t common = 0, left_out = 0;
};

bool on_every_class(const ClassValues& v, const std::vector<std::string>& order) {
    for (const auto& c : order)
        if (!v.count(c))
            return false;
    return true;
}

// Per instruction: how much of the difference is the machine, not the instruction count (a
// different compiler or ISA path executes a different number of instructions).
std::string per_instruction_row(const ClassValues& by_class, const ClassValues& counted,
                                const std::vector<std::string>& order) {
    const double ref_per = by_class.at(order[0]) / counted.at(order[0]);
    std::string out = fmt::format("{:<32} {:>14.6g}", "  per instruction", ref_per);
    for (std::size_t i = 1; i < order.size(); ++i) {
        const double n = counted.at(order[i]);
        out += fmt::format(" {:>10}", n > 0 ? ratio(by_class.at(order[i]) / n, ref_per) : "-");
    }
    return out + "\n";
}

ComparisonRows benchmark_rows(const std::map<std::string, ClassValues>& values,
                              const std::map<std::string, ClassValues>& instructions,
                              const std::vector<std::string>& order, const std::string& metric) {
    ComparisonRows rows;
    rows.log_sums.assign(order.size(), 0);
    for (const auto& [benchmark, by_class] : values) {
        if (!on_every_class(by_class, order)) {
            ++rows.left_out;
            continue;
        }
        ++rows.common;
        const double ref = by_class.at(order[0]);
        rows.text += fmt::format("{:<32} {:>14.6g}", benchmark, ref);
        for (std::size_t i = 1; i < order.size(); ++i) {
            rows.text += fmt::format(" {:>10}", ratio(by_class.at(order[i]), ref));
            if (ref > 0 && by_class.at(order[i]) > 0)
                rows.log_sums[i] += std::log(by_class.at(order[i]) / ref);
        }
        rows.text += "\n";
        const auto counted = instructions.find(benchmark);
        if (metric != "instructions" && counted != instructions.end() &&
            on_every_class(counted->second, order) && counted->second.at(order[0]) > 0)
            rows.text += per_instruction_row(by_class, counted->second, order);
    }
    return rows;
}

std::string comparison_text(harness::HistoryStore& store, const std::vector<std::string>& order,
                            const std::string& metric, const ComparisonRows& rows) {
    const auto summaries = class_summaries(store);
    std::string out = "machine classes (ratios: value / the reference's; larger is slower):\n";
    for (std::size_t i = 0; i < order.size(); ++i)
        out += fmt::format("  M{}  {}  {}{}\n", i, order[i], summaries.at(order[i]),
                           i == 0 ? "  (reference)" : "");
    out += fmt::format("{:<32} {:>14}", "benchmark [" + metric + "]", "M0");
    for (std::size_t i = 1; i < order.size(); ++i)
        out += fmt::format(" {:>10}", fmt::format("M{}/M0", i));
    out += "\n" + rows.text;
    out += fmt::format("{:<32} {:>14}", "geometric mean", "");
    for (std::size_t i = 1; i < order.size(); ++i)
        out += fmt::format(" {:>10}",
                           fmt::format("{:.3f}x", std::exp(rows.log_sums[i] / rows.common)));
    out += fmt::format(
        "\n{} benchmark{} on every class{}\n", rows.common, rows.common == 1 ? "" : "s",
        rows.left_out ? fmt::format(", {} left out (not measured on every class)", rows.left_out)
                      : "");
    return out;
}

int compare(const std::vector<std::string>& args) {
    const auto request = parse_history_compare(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    require_stored_metric(*store, request->pattern, request->metric);
    const auto values =
        values_by_benchmark(*store, request->pattern, request->metric, request->commit);
    const auto instructions =
        values_by_benchmark(*store, request->pattern, "instructions", request->commit);
    const auto order =
        class_order(*store, compared_classes(values, request->commit), request->reference);
    const ComparisonRows rows = benchmark_rows(values, instructions, order, request->metric);
    if (rows.common == 0) {
        throw UsageError(fmt::format(
            "no matching benchmark was measured on every machine class ({} measured on some "
            "only): narrow the REGEX or --commit",
            rows.left_out));
    }
    write_output(comparison_text(*store, order, request->metric, rows), "");
    return kExitOk;
}

int export_history(const std::vector<std::string>& args) {
    const auto request = parse_history_export(args);
    if (!request)
        return kExitOk;
    const bool json = request->format == HistoryExportFormat::json;
    const UserPattern& pattern = request->pattern;
    const std::string& output = request->output;
    refuse_output_over_store(output, request->store);
    auto store = open_store(request->store);
    std::string text;
    nlohmann::json array = nlohmann::json::array();
    if (!json)
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
        if (!pattern.found_in(m.benchmark))
            continue;
        if (json) {
            array.push_back({{"run", m.run_id},
                             {"commit", m.commit},
                             {"measured_at", m.measured_at},
                             {"machine_class", m.machine_class},
                             {"benchmark", m.benchmark},
                             {"metric", m.metric},
                             {"unit", harness::metric_unit(m.metric, m.unit)},
                             {"source", m.source},
                             {"median", m.median},
                             {"spread", m.spread},
                             {"samples", m.samples}});
            continue;
        }
        text += fmt::format("{},{},{},{},{},{},{},{},{},{},\"{}\"\n", m.run_id, quoted(m.commit),
                            quoted(m.measured_at), m.machine_class, quoted(m.benchmark),
                            quoted(m.metric), harness::metric_unit(m.metric, m.unit), m.source,
                            m.median, m.spread, fmt::join(m.samples, ";"));
    }
    if (json)
        text = harness::json_text(array);
    // A FIFO nobody reads blocks the write: an interrupt ends the wait and says so.
    const harness::InterruptHandling interrupts;
    write_output(text, output);
    return kExitOk;
}

int forget(const std::vector<std::string>& args) {
    const auto request = parse_history_forget(args);
    if (!request)
        return kExitOk;
    const auto& ids = request->runs;
    auto store = open_store(request->store, StoreUse::write);
    std::set<std::int64_t> stored, missing;
    for (const auto& r : store->runs())
        stored.insert(r.id);
    for (const auto id : ids)
        if (!stored.count(id))
            missing.insert(id);
    const auto existed = store->forget(ids);
    write_output(fmt::format("forgot {} run{}\n", existed, existed == 1 ? "" : "s"), "");
    if (missing.empty())
        return kExitOk;
    say("perfgauge history forget: run{} {}: not in {} (history list shows the runs there){}\n",
        missing.size() == 1 ? "" : "s", fmt::join(missing, ", "), request->store.shown(),
        existed ? "; the others were forgotten" : "");
    return kExitUsage;
}

// A mistyped --metric or REGEX would record an acceptance that never applies: refused, with
// what is stored.
void check_accepted_series(harness::HistoryStore& store, const HistoryAcceptRequest& request) {
    std::set<std::string> metrics;
    bool matched = request.pattern.empty();
    const UserPattern pattern("REGEX", request.pattern);
    for (const auto& key : store.series()) {
        metrics.insert(key.metric);
        matched = matched || pattern.found_in(key.benchmark);
    }
    if (!matched)
        throw UsageError(fmt::format(
            "REGEX '{}' matches no stored benchmark (perfgauge history show lists them)",
            request.pattern));
    for (const auto& m : request.metrics)
        if (!metrics.count(m))
            throw UsageError(fmt::format("--metric {}: no stored series has it (stored: {})", m,
                                         fmt::join(metrics, ", ")));
}

int accept(const std::vector<std::string>& args) {
    const auto request = parse_history_accept(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store, StoreUse::write);
    harness::CommitRun run;
    try {
        run = store->first_run_of_commit(request->revision);
    } catch (const std::invalid_argument& e) {
        throw UsageError(
            fmt::format("REV '{}': {}", harness::store_text(request->revision), e.what()));
    }
    check_accepted_series(*store, *request);
    std::vector<std::string> metrics = request->metrics;
    if (metrics.empty())
        metrics.push_back("");  // every metric
    std::string out;
    for (const auto& metric : metrics) {
        harness::Acceptance a{0,      run.run_id,      run.commit, request->pattern,
                              metric, request->reason, ""};
        a.id = store->accept(a);
        out +=
            fmt::format("acceptance {}: from run {} (commit {}) for {}, {}: {}\n", a.id, run.run_id,
                        short_commit(run.commit),
                        request->pattern.empty() ? "every benchmark"
                                                 : "benchmarks matching '" + request->pattern + "'",
                        metric.empty() ? "every metric" : "metric " + metric,
                        harness::store_text(request->reason));
    }
    write_output(out, "");
    return kExitOk;
}

}  // namespace

int history_command(const std::vector<std::string>& args) {
    if (args.empty())
        throw UsageError(
            "which subcommand? add, list, show, check, plot, report, compare, export, accept or "
            "forget");
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
        return history_check(rest);
    if (sub == "export")
        return export_history(rest);
    if (sub == "report")
        return history_report(rest);
    if (sub == "plot")
        return plot(rest);
    if (sub == "compare")
        return compare(rest);
    if (sub == "forget")
        return forget(rest);
    if (sub == "accept")
        return accept(rest);
    throw UsageError(fmt::format(
        "unknown subcommand '{}': add, list, show, check, plot, report, compare, export, accept "
        "or forget",
        sub));
}

}  // namespace perfgauge::cli
