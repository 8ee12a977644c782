#include "perfgauge/harness/run_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/bmf.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/text_table.hpp"
#include "system_json.hpp"

namespace perfgauge::harness {

namespace {

// A precision that is not known (too few samples) or has no samples: JSON null, not a number.
nlohmann::json finite_or_null(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// The same in a CSV cell: empty.
std::string precision_cell(double precision) {
    return std::isfinite(precision) ? fmt::format("{:.6f}", precision) : std::string();
}

// Entries are flagged "imprecise" beyond the run's target (1% when it sampled a fixed count).
double imprecise_beyond(const RunResult& r) {
    return r.precision_target > 0 ? r.precision_target : 0.01;
}

double items_per_second(double ns_per_item) {
    return ns_per_item > 0 ? 1e9 / ns_per_item : 0.0;
}

double bytes_per_second(const BenchmarkResult& b, double ns_per_item) {
    if (b.bytes_per_iteration <= 0 || ns_per_item <= 0)
        return 0.0;
    return b.bytes_per_iteration / b.items_per_iteration * 1e9 / ns_per_item;
}

// Every event, typed, with why it was not counted.
nlohmann::json events_json(const RunResult& r) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& e : r.events) {
        nlohmann::json event = {{"name", e.name},
                                {"kind", pmu::kind_name(e.kind)},
                                {"source", source_name(e.source)},
                                {"counted", e.counted}};
        if (!e.counted)
            event["refusal"] = {{"status", e.refusal.status},
                                {"reason", e.refusal.reason},
                                {"fix", e.refusal.fix},
                                {"hint", pmu::hint_name(e.refusal.hint)}};
        events.push_back(std::move(event));
    }
    return events;
}

// What perfgauge adds to Google Benchmark's context: how it measured, what, and where.
nlohmann::json perfgauge_json(const RunResult& r) {
    nlohmann::json p;
    // A result read back (another build's, perfgauge run --against) keeps its own.
    p["version"] = r.version.empty() ? PERFGAUGE_VERSION : r.version;
    p["compiler"] = r.compiler.empty() ? PERFGAUGE_COMPILER : r.compiler;
    p["compiler_flags"] = r.compiler_flags.empty() ? PERFGAUGE_CXX_FLAGS : r.compiler_flags;
    p["clock"] = r.clock;
    p["batch_overhead_ns"] = r.batch_overhead_ns;
    p["pause_overhead_ns"] = r.pause_overhead_ns;
    p["clock_pause_overhead_ns"] = r.clock_pause_overhead_ns;
    p["pause_overhead_spread_ns"] = r.pause_overhead_spread_ns;
    p["machine_probe_ns"] = r.machine_probe_ns;
    p["machine_copy_probe_ns"] = r.machine_copy_probe_ns;
    p["pause_calibration_drift"] = r.pause_calibration_drift
                                       ? nlohmann::json(*r.pause_calibration_drift)
                                       : nlohmann::json(nullptr);
    p["seed"] = r.seed;
    p["repetitions"] = r.repetitions;
    p["processes"] = r.processes;
    if (!r.in_turn_with.empty())
        p["in_turn_with"] = r.in_turn_with;
    p["precision_target"] = r.precision_target;
    p["interrupted"] =
        r.interrupted_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.interrupted_by);
    p["events"] = events_json(r);
    p["unsupported"] = refusal_lines(r);
    if (!r.simulation.empty()) {
        p["simulation"] = nlohmann::json::object();
        for (const auto& [key, value] : r.simulation)
            p["simulation"][key] = value;
    }
    p["workload_context"] = nlohmann::json::object();
    for (const auto& [key, value] : r.context)
        p["workload_context"][key] = value;
    p["warnings"] = r.warnings;
    p["system"] = detail::system_json(r.system);
    return p;
}

nlohmann::json context_json(const RunResult& r) {
    nlohmann::json c;
    c["date"] = r.date;
    c["executable"] = "perfgauge";
    detail::add_host_json(r.system, c);
    c["mhz_per_cpu"] = 0;
    c["cpu_scaling_enabled"] = r.system.governor.has_value() && *r.system.governor != "performance";
    c["load_avg"] = r.system.load_average;
    c["library_build_type"] = "release";

    c["perfgauge"] = perfgauge_json(r);
    return c;
}

nlohmann::json benchmark_entry(const RunResult& r, const BenchmarkResult& b, std::size_t family) {
    nlohmann::json e;
    e["name"] = b.name;
    e["family_index"] = family;
    e["per_family_instance_index"] = 0;
    e["run_name"] = b.name;
    e["repetitions"] = r.repetitions;
    e["threads"] = 1;
    e["iterations"] = b.iterations;
    e["time_unit"] = "ns";
    // On the aggregate too: a benchmark whose every sample was disturbed has no other entry,
    // and a reader (merging measuring processes) must still know what its item is.
    e["perfgauge_items_per_iteration"] = b.items_per_iteration;
    e["perfgauge_bytes_per_iteration"] = b.bytes_per_iteration;
    if (!b.params.empty()) {
        e["perfgauge_params"] = nlohmann::json::object();
        for (const auto& [key, value] : b.params)
            e["perfgauge_params"][key] = value;
    }
    // How many samples were left out because the thread lost the CPU (listed in the aggregate).
    e["perfgauge_disturbed_samples"] = b.disturbed.size();
    // Every counter value names where it came from: hw, sw or sim.
    e["perfgauge_sources"] = nlohmann::json::object();
    for (const auto& event : r.events) {
        if (event.counted)
            e["perfgauge_sources"][event.name] = source_name(event.source);
    }
    return e;
}

// Sample `s` of benchmark `b` (`bench`): one "iteration" entry, as Google Benchmark writes one
// per repetition.
nlohmann::json sample_entry(const RunResult& r, const BenchmarkResult& bench, std::size_t b,
                            std::size_t s) {
    auto e = benchmark_entry(r, bench, b);
    e["run_type"] = "iteration";
    e["repetition_index"] = s < bench.rounds.size() ? bench.rounds[s] : s;
    if (s < bench.processes.size())
        e["perfgauge_process"] = bench.processes[s];
    const double per_iteration = bench.ns_per_item[s] * bench.items_per_iteration;
    e["real_time"] = per_iteration;
    e["cpu_time"] = s < bench.cpu_ns_per_item.size()
                        ? bench.cpu_ns_per_item[s] * bench.items_per_iteration
                        : per_iteration;
    if (s < bench.cpu_ns_per_item.size())
        e["perfgauge_cpu_ns_per_item"] = bench.cpu_ns_per_item[s];
    if (s < bench.snapshot_pause_ns.size())
        e["perfgauge_snapshot_pause_ns"] = finite_or_null(bench.snapshot_pause_ns[s]);
    e["items_per_second"] = items_per_second(bench.ns_per_item[s]);
    if (bench.bytes_per_iteration > 0)
        e["bytes_per_second"] = bytes_per_second(bench, bench.ns_per_item[s]);
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        if (r.events[i].counted)
            e[r.events[i].name] = bench.counters_per_item[i][s];
    }
    e["perfgauge_ns_per_item"] = bench.ns_per_item[s];
    e["perfgauge_raw_ns_per_item"] = bench.raw_ns_per_item[s];
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        if (r.events[i].counted)
            e["perfgauge_raw_" + r.events[i].name] = bench.raw_counters_per_item[i][s];
    }
    return e;
}

// Benchmark `b` (`bench`) over its samples: the "median" aggregate, with perfgauge's summary,
// precision, drift and disturbed samples.
nlohmann::json median_entry(const RunResult& r, const BenchmarkResult& bench, std::size_t b) {
    const auto t = summarize(bench.ns_per_item);
    auto agg = benchmark_entry(r, bench, b);
    agg["name"] = bench.name + "_median";
    agg["run_type"] = "aggregate";
    agg["aggregate_name"] = "median";
    agg["aggregate_unit"] = "time";
    agg["real_time"] = t.median * bench.items_per_iteration;
    agg["cpu_time"] = t.median * bench.items_per_iteration;
    agg["items_per_second"] = items_per_second(t.median);
    if (bench.bytes_per_iteration > 0)
        agg["bytes_per_second"] = bytes_per_second(bench, t.median);
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        if (!r.events[i].counted)
            continue;
        const std::string& name = r.events[i].name;
        agg[name] = median(bench.counters_per_item[i]);
        agg["perfgauge_running_fraction_" + name] = bench.running_fraction[i];
        agg["perfgauge_raw_" + name] = median(bench.raw_counters_per_item[i]);
    }
    agg["perfgauge_ns_per_item"] = {{"min", t.min}, {"p25", t.p25},      {"median", t.median},
                                    {"p75", t.p75}, {"p90", t.p90},      {"p99.9", t.p999},
                                    {"max", t.max}, {"iqr", t.iqr},      {"mad", t.mad},
                                    {"cv", t.cv},   {"samples", t.count}};
    agg["perfgauge_raw_ns_per_item_median"] = median(bench.raw_ns_per_item);
    if (!bench.snapshot_pause_ns.empty())
        agg["perfgauge_snapshot_pause_ns"] = finite_or_null(median_snapshot_pause_ns(bench));
    agg["perfgauge_unstable"] = t.unstable;
    agg["perfgauge_precision"] = finite_or_null(median_precision(bench.ns_per_item));
    const auto drift = drift_over_time(time_series_by_process(bench));
    agg["perfgauge_drift"] = drift ? nlohmann::json{{"change", drift->change},
                                                    {"p_value", drift->p_value},
                                                    {"testable", drift->best_p_value < kDriftP},
                                                    {"flagged", drift_flagged(*drift)}}
                                   : nlohmann::json(nullptr);
    agg["perfgauge_disturbed"] = nlohmann::json::array();
    for (const auto& d : bench.disturbed) {
        agg["perfgauge_disturbed"].push_back({{"round", d.round},
                                              {"ns_per_item", d.ns_per_item},
                                              {"wall_ns", d.wall_ns},
                                              {"cpu_ns", d.cpu_ns},
                                              {"involuntary_switches", d.involuntary_switches},
                                              {"probe_slowdown", d.probe_slowdown},
                                              {"steal_ns", d.steal_ns}});
    }
    return agg;
}

std::string render_json(const RunResult& r) {
    nlohmann::json j;
    j[kSchemaVersionKey] = kResultSchemaVersion;
    j["context"] = context_json(r);
    j["benchmarks"] = nlohmann::json::array();
    for (std::size_t b = 0; b < r.benchmarks.size(); ++b) {
        const auto& bench = r.benchmarks[b];
        for (std::size_t s = 0; s < bench.ns_per_item.size(); ++s) {
            j["benchmarks"].push_back(sample_entry(r, bench, b, s));
        }
        j["benchmarks"].push_back(median_entry(r, bench, b));
    }
    return json_text(j);
}

std::string render_csv(const RunResult& r) {
    std::vector<std::string> header = csv_columns(kRunCsvFixedColumns);
    for (const auto& e : r.events)
        header.push_back(e.name + "_per_item");
    for (const auto& e : r.events)
        header.push_back(e.name + "_source");
    TextTable table(header);
    for (const auto& b : r.benchmarks) {
        const auto t = summarize(b.ns_per_item);
        std::vector<std::string> row = {b.name,
                                        std::to_string(t.count),
                                        std::to_string(b.iterations),
                                        fmt::format("{}", b.items_per_iteration),
                                        fmt::format("{}", t.median),
                                        fmt::format("{}", t.p25),
                                        fmt::format("{}", t.p75),
                                        fmt::format("{}", t.min),
                                        fmt::format("{}", t.max),
                                        fmt::format("{}", median(b.raw_ns_per_item)),
                                        fmt::format("{:.6f}", t.relative_spread),
                                        t.unstable ? "true" : "false",
                                        fmt::format("{}", items_per_second(t.median)),
                                        fmt::format("{}", bytes_per_second(b, t.median)),
                                        std::to_string(b.disturbed.size()),
                                        precision_cell(median_precision(b.ns_per_item))};
        const auto drift = drift_over_time(time_series_by_process(b));
        row.push_back(drift ? fmt::format("{:.6f}", drift->change) : std::string());
        row.push_back(drift ? fmt::format("{:.3g}", drift->p_value) : std::string());
        for (std::size_t i = 0; i < r.events.size(); ++i)
            row.push_back(r.events[i].counted ? fmt::format("{}", median(b.counters_per_item[i]))
                                              : "");
        for (const auto& e : r.events)
            row.push_back(e.counted ? std::string(source_name(e.source)) : "");
        table.add_row(std::move(row));
    }
    return table.render_csv();
}

std::vector<std::string> row_cells(const RunResult& r, const BenchmarkResult& b) {
    if (b.ns_per_item.empty()) {
        // Every sample was disturbed: nothing to summarise, and no number pretends otherwise.
        std::vector<std::string> cells(5, "-");
        cells[0] = b.name;
        for (const auto& e : r.events) {
            if (e.counted)
                cells.push_back("-");
        }
        cells.push_back(fmt::format("no undisturbed sample ({} disturbed)", b.disturbed.size()));
        return cells;
    }
    const auto t = summarize(b.ns_per_item);
    std::vector<std::string> cells = {
        b.name, format_duration_ns(t.median), fmt::format("{:.1f}%", 100 * t.relative_spread),
        format_si(items_per_second(t.median), "/s"),
        b.bytes_per_iteration > 0 ? format_si(bytes_per_second(b, t.median), "B/s") : "-"};
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        if (r.events[i].counted)  // refused events are listed under the table instead
            cells.push_back(format_si(median(b.counters_per_item[i])));
    }
    std::vector<std::string> flags;
    if (b.ns_per_item.empty())
        flags.push_back("no clean sample");
    else if (b.ns_per_item.size() < kFewestForPrecision)
        flags.push_back(fmt::format("imprecise: {} samples", b.ns_per_item.size()));
    else if (const double p = median_precision(b.ns_per_item); !(p <= imprecise_beyond(r)))
        flags.push_back(fmt::format("imprecise ±{:.2f}%", 100 * p));
    if (const auto drift = flagged_drift(b))
        flags.push_back(fmt::format("drifting {:+.0f}%", 100 * drift->change));
    if (!b.disturbed.empty())
        flags.push_back(fmt::format("{} disturbed", b.disturbed.size()));
    cells.push_back(fmt::format("{}", fmt::join(flags, ", ")));
    return cells;
}

bool any_drifting(const RunResult& r) {
    return std::any_of(r.benchmarks.begin(), r.benchmarks.end(),
                       [](const BenchmarkResult& b) { return flagged_drift(b).has_value(); });
}

// Under the table, when an entry is flagged: what "drifting" means and what to do about it.
std::string drift_legend() {
    return fmt::format(
        "drifting: the times moved steadily while they were taken (the last third of each "
        "process's samples against its first third; Mann-Kendall p < {:g}), so the median "
        "depends on when and how long it was measured - a branch predictor learning data the "
        "benchmark repeats (hot caches), memory settling, or the host changing speed; a longer "
        "--warmup, cold data, or more --processes show which\n",
        kDriftP);
}

// Under the table, when some pausing benchmark was timed apart from its counts: how many, and
// why (what the snapshots added is in the JSON, not here: see below).
std::string timed_apart_note(const RunResult& r) {
    const auto apart = std::count_if(r.benchmarks.begin(), r.benchmarks.end(),
                                     [](const auto& b) { return !b.snapshot_pause_ns.empty(); });
    if (apart == 0)
        return "";
    // No figure here: per pause it is the difference of two batches of the benchmark's own
    // work, as noisy as that work (JSON perfgauge_snapshot_pause_ns has it per benchmark).
    return fmt::format(
        "timed apart: {} pausing benchmark(s) timed in batches whose pauses read only the clock, "
        "counted in batches beside them: a counter snapshot was a system call, and what it cost "
        "the work after it (JSON: perfgauge_snapshot_pause_ns) is no constant to subtract; "
        "their counts (task-clock among them) still include it\n",
        apart);
}

// Under the table: what [sim] means for these numbers.
std::string simulation_footer(const RunResult& r, const char* bullet) {
    if (r.simulation.empty())
        return "";
    auto get = [&](const char* key) {
        for (const auto& [k, v] : r.simulation) {
            if (k == key)
                return v;
        }
        return std::string("?");
    };
    std::string out = fmt::format(
        "{}[sim] {}; {}, caches: {}; one batch of at least {} items per benchmark (deterministic: "
        "the same value in every sample)\n",
        bullet, get("notice"), get("simulator"), get("caches"), get("min_items"));
    // Results saved before the breakdown or the estimate existed have neither.
    for (const char* key : {"time", "est_cycles"}) {
        for (const auto& [k, v] : r.simulation) {
            if (k == key)
                out += fmt::format("{}[sim] {}\n", bullet, v);
        }
    }
    return out;
}

// What the medians rest on: the undisturbed samples every entry kept, or the fewest and most
// when they differ (disturbed samples are left out; an entry may keep none), and the plan.
std::string samples_text(const RunResult& r) {
    std::size_t fewest = 0, most = 0;
    for (std::size_t b = 0; b < r.benchmarks.size(); ++b) {
        const std::size_t kept = r.benchmarks[b].ns_per_item.size();
        fewest = b == 0 ? kept : std::min(fewest, kept);
        most = std::max(most, kept);
    }
    if (most == 0)
        return fmt::format("no undisturbed sample in any benchmark ({} planned)", r.repetitions);
    if (fewest == most && most == r.repetitions)
        return fmt::format("medians of {} undisturbed samples per benchmark", most);
    if (fewest == most)
        return fmt::format("medians of {} undisturbed samples per benchmark ({} planned)", most,
                           r.repetitions);
    return fmt::format("medians of {} to {} undisturbed samples per benchmark ({} planned)", fewest,
                       most, r.repetitions);
}

// The run's warnings, each said once: measuring processes may each give the same one.
std::vector<std::string> distinct_warnings(const RunResult& r) {
    std::vector<std::string> out;
    for (const auto& w : r.warnings) {
        if (std::find(out.begin(), out.end(), w) == out.end())
            out.push_back(w);
    }
    return out;
}

std::vector<std::string> headers(const RunResult& r) {
    std::vector<std::string> h = {"BENCHMARK", "TIME/ITEM", "IQR", "ITEMS/S", "BYTES/S"};
    for (const auto& e : r.events) {
        if (e.counted)
            h.push_back(fmt::format("{}/ITEM [{}]", e.name, source_name(e.source)));
    }
    h.push_back("");
    return h;
}

std::string render_table(const RunResult& r) {
    std::vector<TextTable::Align> align(headers(r).size(), TextTable::Align::right);
    align.front() = TextTable::Align::left;
    align.back() = TextTable::Align::left;
    TextTable table(headers(r), align);
    for (const auto& b : r.benchmarks)
        table.add_row(row_cells(r, b));
    std::string out = table.render();
    out += fmt::format(
        "{} (interleaved, seed {}{}); clock {}; overhead {:.1f} ns per sample subtracted; "
        "imprecise: the 95% interval of the median is wider than ±{:g}%, or there are fewer than 6 "
        "samples to bound it\n",
        samples_text(r), r.seed,
        r.processes > 1 ? fmt::format(", in {} processes", r.processes) : std::string(), r.clock,
        r.batch_overhead_ns, 100 * imprecise_beyond(r));
    if (any_drifting(r))
        out += drift_legend();
    out += timed_apart_note(r);
    out += simulation_footer(r, "");
    if (const std::string caveat = simulation_caveat(build_answer(r)); !caveat.empty())
        out += "[sim] " + caveat + "\n";
    for (const auto& u : refusal_lines(r))
        out += fmt::format("not counted: {}\n", u);
    for (const auto& w : distinct_warnings(r))
        out += fmt::format("warning: {}\n", w);
    return out;
}

std::string render_markdown(const RunResult& r) {
    auto h = headers(r);
    h.back() = "flags";
    std::vector<TextTable::Align> align(h.size(), TextTable::Align::right);
    align.front() = TextTable::Align::left;
    align.back() = TextTable::Align::left;
    TextTable table(h, align);
    for (const auto& b : r.benchmarks)
        table.add_row(row_cells(r, b));
    // The summary a reader opens: the answer first (when decoders were compared), then the table.
    const Answer answer = build_answer(r);
    std::string out = render_answer_markdown(answer);
    if (!out.empty())
        out += "## Every entry\n\n";
    // Said once: by the answer above the table when there is one.
    const std::string caveat = out.empty() ? simulation_caveat(answer) : "";
    out += table.render_markdown();
    const auto refused = refusal_lines(r);
    const bool drifting = any_drifting(r);
    const std::string apart = timed_apart_note(r);
    if (!refused.empty() || !r.simulation.empty() || drifting || !apart.empty())
        out += "\n";
    out += simulation_footer(r, "- ");
    if (!caveat.empty())
        out += "- [sim] " + caveat + "\n";
    if (drifting)
        out += "- " + drift_legend();
    if (!apart.empty())
        out += "- " + apart;
    for (const auto& u : refused)
        out += fmt::format("- not counted: {}\n", u);
    // The answer above says how many warnings are below the table: here they are.
    const auto warnings = distinct_warnings(r);
    if (!warnings.empty() && refused.empty() && r.simulation.empty() && !drifting && apart.empty())
        out += "\n";
    for (const auto& w : warnings)
        out += fmt::format("- warning: {}\n", w);
    return out;
}

}  // namespace

std::string render_run(const RunResult& result, OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
            return render_table(result);
        case OutputFormat::csv:
            return render_csv(result);
        case OutputFormat::json:
            return render_json(result);
        case OutputFormat::markdown:
            return render_markdown(result);
        case OutputFormat::bmf:
            return render_bmf(result);
        case OutputFormat::answer:  // needs the decoders' answer and the saved path: render_answer
            break;
    }
    no_writer("a run result", format);
}

}  // namespace perfgauge::harness
