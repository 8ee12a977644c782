// perfgauge history: results over time and across machines, in a SQLite file or on a
// PostgreSQL server; change points per series; `check` exits 3 on a regression.
#include <iostream>
#include <iterator>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "history/check.hpp"
#include "history/common.hpp"
#include "history/options.hpp"
#include "history/report.hpp"
#include "history/source.hpp"
#include "perfgauge/harness/git_head.hpp"
#include "perfgauge/harness/history_queries.hpp"
#include "perfgauge/harness/history_store.hpp"
#include "perfgauge/harness/history_text.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/machine_fingerprint.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
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
                     these in other letter case, is refused (exit 2); a
                     server that does not answer in 10 s per address (or
                     the URI's connect_timeout, or $PGCONNECT_TIMEOUT) is an
                     error

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
        out += harness::history_added_line(*id, harness::store_text(how.source),
                                           inputs[i].result.benchmarks.size(),
                                           harness::store_text(how.commit));
        for (const auto& e : escaped)
            notes += harness::history_escaped_note(*id, e);
    }
    progress.clear();
    write_output(out, "");
    say("{}", notes);
    return not_added_after_interrupt(request->results, i);
}

int list(const std::vector<std::string>& args) {
    const auto request = parse_history_list(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    const auto runs = store->runs();
    write_output(harness::history_list_text(runs, store->acceptances()), "");
    return kExitOk;
}

int show(const std::vector<std::string>& args) {
    const auto request = parse_history_show(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    const auto pattern = history_pattern(request->patterns);
    write_output(harness::history_show_text(
                     harness::show_series(*store, name_pattern(pattern), request->metric)),
                 "");
    return kExitOk;
}

int plot(const std::vector<std::string>& args) {
    const auto request = parse_history_plot(args);
    if (!request)
        return kExitOk;
    const std::string& output = request->output;
    refuse_output_over_store(output, request->series.store);
    auto store = open_store(request->series.store);
    const auto pattern = history_pattern(request->series.patterns);
    const auto series = harness::history_plot_json(harness::plotted_series(
        *store, name_pattern(pattern), request->series.metric, stored_pattern_match()));
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
    harness::write_output_file(series_file, series);
    if (const int signal = interrupted())
        return harness::interrupted_exit_status(signal);
    return draw_with_script(python, script, {series_file}, output, true);
}

int compare(const std::vector<std::string>& args) {
    const auto request = parse_history_compare(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store);
    const auto comparison =
        harness::compare_machines(*store, name_pattern(request->pattern),
                                  {request->metric, request->commit, request->reference});
    write_output(harness::history_compare_text(comparison), "");
    return kExitOk;
}

int export_history(const std::vector<std::string>& args) {
    const auto request = parse_history_export(args);
    if (!request)
        return kExitOk;
    refuse_output_over_store(request->output, request->store);
    auto store = open_store(request->store);
    const auto measurements =
        harness::exported_measurements(*store, name_pattern(request->pattern));
    const std::string text = harness::history_export_text(measurements, request->format);
    // A FIFO nobody reads blocks the write: an interrupt ends the wait and says so.
    const harness::InterruptHandling interrupts;
    write_output(text, request->output);
    return kExitOk;
}

int forget(const std::vector<std::string>& args) {
    const auto request = parse_history_forget(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store, StoreUse::write);
    const auto forgotten = harness::forget_runs(*store, request->runs);
    write_output(harness::history_forgot_text(forgotten.existed), "");
    if (forgotten.missing.empty())
        return kExitOk;
    say("perfgauge history forget: run{} {}: not in {} (history list shows the runs there){}\n",
        forgotten.missing.size() == 1 ? "" : "s", fmt::join(forgotten.missing, ", "),
        request->store.shown(), forgotten.existed ? "; the others were forgotten" : "");
    return kExitUsage;
}

int accept(const std::vector<std::string>& args) {
    const auto request = parse_history_accept(args);
    if (!request)
        return kExitOk;
    auto store = open_store(request->store, StoreUse::write);
    const UserPattern pattern("REGEX", request->pattern);
    auto recorded = harness::accept_change(
        *store, {request->revision, name_pattern(pattern), request->metrics, request->reason});
    for (auto& a : recorded)
        a.reason = harness::store_text(a.reason);  // as stored, and printable
    write_output(harness::history_accepted_text(recorded), "");
    return kExitOk;
}

// Every subcommand, in the order the usage messages name them.
struct Subcommand {
    std::string_view name;
    int (*run)(const std::vector<std::string>& args);
};
constexpr Subcommand kSubcommands[] = {{"add", add},         {"list", list},
                                       {"show", show},       {"check", history_check},
                                       {"plot", plot},       {"report", history_report},
                                       {"compare", compare}, {"export", export_history},
                                       {"accept", accept},   {"forget", forget}};

// "add, list, ..., accept or forget"
std::string subcommand_names() {
    std::string names;
    for (std::size_t i = 0; i < std::size(kSubcommands); ++i) {
        const bool last = i + 1 == std::size(kSubcommands);
        names += fmt::format("{}{}", i == 0 ? "" : last ? " or " : ", ", kSubcommands[i].name);
    }
    return names;
}

int subcommand(const std::string& sub, const std::vector<std::string>& rest) {
    for (const auto& s : kSubcommands) {
        if (s.name == sub)
            return s.run(rest);
    }
    throw UsageError(fmt::format("unknown subcommand '{}': {}", sub, subcommand_names()));
}

}  // namespace

int history_command(const std::vector<std::string>& args) {
    if (args.empty())
        throw UsageError("which subcommand? " + subcommand_names());
    if (args[0] == "--help" || args[0] == "-h") {
        std::cout << kOverview;
        return kExitOk;
    }
    try {
        return subcommand(args[0], std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const harness::HistoryInputError& e) {
        throw UsageError(e.what());  // bad input a query found: exit 2, its message as it is
    }
}

}  // namespace perfgauge::cli
