#include "perfgauge/harness/stat_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/harness/text_table.hpp"
#include "stat_regions.hpp"
#include "stat_report_parts.hpp"
#include "system_json.hpp"

namespace perfgauge::harness {

namespace detail {

// The footer of an interrupted stat: what the numbers above rest on.
std::string interruption_text(const StatResult& r) {
    if (r.interrupted_run)
        return fmt::format("interrupted by {}: the command was stopped; counted until then",
                           r.interrupted_by);
    return fmt::format("interrupted by {}: {} completed run{} reported", r.interrupted_by,
                       r.repetitions, r.repetitions == 1 ? "" : "s");
}

// Seconds and ratios: the shortest text that reads back as the same double.
std::string exact_text(double v) {
    return fmt::format("{}", v);
}

// What the counts cover when the command did not count from exec on (--markers, --delay).
std::string counting_window_text(const StatResult& r) {
    std::string out;
    if (r.markers && !r.marked_intervals.empty()) {
        const auto [low, high] =
            std::minmax_element(r.marked_intervals.begin(), r.marked_intervals.end());
        if (*high == 0) {
            out +=
                "  0 marked intervals: the command never called perfgauge_marker_start(), so "
                "nothing was counted\n";
        } else {
            const std::string n =
                *low == *high ? std::to_string(*low) : fmt::format("{} to {}", *low, *high);
            out += fmt::format(
                "  {} marked interval{}{}: counted only between perfgauge_marker_start() and "
                "perfgauge_marker_stop()\n",
                n, *high == 1 ? "" : "s", r.marked_intervals.size() > 1 ? " per run" : "");
        }
    }
    if (r.delay_ms > 0)
        out += fmt::format("  --delay {} ms: counting began that long after exec\n", r.delay_ms);
    return out;
}

std::string number_text(double v) {
    if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15)
        return fmt::format("{:.0f}", v);
    return fmt::format("{:.2f}", v);
}

// Console value and unit: time events in msec like perf stat.
std::pair<std::string, std::string> display_value(const StatEventResult& e) {
    const double m = median(e.samples);
    if (e.unit == "ns")
        return {fmt::format("{:.2f}", m / 1e6), "msec"};
    return {number_text(m), ""};
}

std::string spread_text(const std::vector<double>& values) {
    if (values.size() < 2)
        return "";
    const double m = median(values);
    if (m == 0)
        return "";
    return fmt::format("+-{:.1f}%", 100.0 * median_absolute_deviation(values) / std::fabs(m));
}

std::string spread_text(const StatEventResult& e) {
    return spread_text(e.samples);
}

std::string refusals_text(const std::vector<const StatResult*>& results) {
    // One explanation per distinct reason, naming the events it covers (once, in first-seen
    // order, however many commands share it).
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> reasons;
    for (const StatResult* r : results) {
        for (const auto& e : r->events) {
            if (e.refusal.reason.empty())
                continue;
            auto& names = reasons[{refusal_text(e), e.refusal.fix}];
            if (std::find(names.begin(), names.end(), e.name) == names.end())
                names.push_back(e.name);
        }
    }
    std::string out;
    for (const auto& [why, names] : reasons) {
        out += fmt::format("\n  {}: {}\n", fmt::join(names, ", "), why.first);
        if (!why.second.empty())
            out += fmt::format("    fix: {}\n", why.second);
    }
    return out;
}

}  // namespace detail

namespace {

using namespace detail;

std::string render_table(const StatResult& r) {
    std::string out =
        fmt::format("\n Performance counter stats for '{}'{}:\n\n", command_text(r.command),
                    r.repetitions > 1 ? fmt::format(" ({} runs)", r.repetitions) : "");
    TextTable table({"VALUE", "UNIT", "EVENT", "SOURCE", "RUNNING", "SPREAD"},
                    {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left,
                     TextTable::Align::left, TextTable::Align::right, TextTable::Align::right});
    for (const auto& e : r.events) {
        if (!e.counted || e.samples.empty()) {
            table.add_row(
                {"<" + status_text(e) + ">", "", e.name, std::string(source_name(e.source))});
            continue;
        }
        const auto [value, unit] = display_value(e);
        table.add_row(
            {value, unit, e.name, std::string(source_name(e.source)),
             e.running_fraction < 1.0 ? fmt::format("{:.1f}%", 100.0 * e.running_fraction) : "",
             spread_text(e)});
    }
    out += table.render();
    const auto metrics = derive_metrics(r);
    if (!metrics.empty()) {
        out += "\n";
        for (const auto& m : metrics)
            out += fmt::format("  {:>10.3f}  {}\n", m.value, m.name);
    }
    if (!r.elapsed_seconds.empty()) {
        out += fmt::format("\n  {:.6f} seconds time elapsed{}\n", median(r.elapsed_seconds),
                           r.elapsed_seconds.size() > 1 ? " (median)" : "");
    }
    if (!r.user_seconds.empty()) {
        out += fmt::format("  {:.6f} seconds user\n  {:.6f} seconds sys\n", median(r.user_seconds),
                           median(r.system_seconds));
    }
    out += counting_window_text(r);
    out += regions_text(r, false);
    out += refusals_text({&r});
    for (const auto& note : r.notes)
        out += fmt::format("\n  note: {}\n", note);
    if (!r.interrupted_by.empty())
        out += fmt::format("\n  {}\n", interruption_text(r));
    out += fmt::format("  counters read with {}\n", r.read_path);
    return out;
}

std::string render_csv(const StatResult& r) {
    TextTable table(csv_columns(kStatCsvHeader));
    for (auto& row : stat_csv_rows(r))
        table.add_row(std::move(row));
    return table.render_csv();
}

}  // namespace

std::vector<std::vector<std::string>> detail::stat_csv_rows(const StatResult& r) {
    std::vector<std::vector<std::string>> table;
    for (const auto& e : r.events) {
        const bool has = e.counted && !e.samples.empty();
        table.push_back({e.name, has ? number_text(median(e.samples)) : "", e.unit,
                         has ? fmt::format("{:.4f}", e.running_fraction) : "", status_text(e),
                         std::string(pmu::kind_name(e.kind)), std::to_string(e.samples.size()),
                         has ? number_text(quantile(e.samples, 0)) : "",
                         has ? number_text(quantile(e.samples, 1)) : "",
                         has ? number_text(median_absolute_deviation(e.samples)) : "",
                         e.refusal.reason, std::string(source_name(e.source))});
    }
    // Below the events, in the same columns: the elapsed time (kind "elapsed"; no counter, so
    // no source), the CPU time in user and kernel mode (kind "cpu-time") and each derived ratio
    // (kind "derived"), as the table and JSON show them.
    if (!r.elapsed_seconds.empty()) {
        struct Time {
            const char* name;
            const char* kind;
            const std::vector<double>& values;
        };
        const Time times[] = {{"elapsed", "elapsed", r.elapsed_seconds},
                              {"user", "cpu-time", r.user_seconds},
                              {"sys", "cpu-time", r.system_seconds}};
        for (const auto& [name, kind, t] : times) {
            if (t.empty())
                continue;
            table.push_back({name, exact_text(median(t)), "s", "", "measured", kind,
                             std::to_string(t.size()), exact_text(quantile(t, 0)),
                             exact_text(quantile(t, 1)), exact_text(median_absolute_deviation(t)),
                             "", ""});
        }
    }
    for (const auto& m : derive_metrics(r)) {
        table.push_back({m.name, exact_text(m.value), m.unit, "", "derived", "derived",
                         std::to_string(r.elapsed_seconds.size()), "", "", "", "", m.source});
    }
    return table;
}

nlohmann::json detail::stat_json(const StatResult& r) {
    nlohmann::json j;
    j["command"] = r.command;
    j["date"] = r.date;
    j["repetitions"] = r.repetitions;
    j["exit_status"] = r.exit.shell_status();
    j["exit"] = r.exit.describe();
    j["read_path"] = r.read_path;
    j["elapsed_seconds"] = r.elapsed_seconds;
    j["user_seconds"] = r.user_seconds;
    j["system_seconds"] = r.system_seconds;
    j["events"] = nlohmann::json::array();
    for (const auto& e : r.events) {
        nlohmann::json ev;
        ev["event"] = e.name;
        ev["kind"] = pmu::kind_name(e.kind);
        ev["source"] = source_name(e.source);
        ev["status"] = status_text(e);
        ev["unit"] = e.unit;
        ev["samples"] = e.samples;
        if (e.counted && !e.samples.empty()) {
            ev["value"] = median(e.samples);
            ev["running_fraction"] = e.running_fraction;
            ev["min"] = quantile(e.samples, 0);
            ev["max"] = quantile(e.samples, 1);
            ev["mad"] = median_absolute_deviation(e.samples);
        } else {
            // Every field the schema names, null when there is nothing to say: a reader
            // tells "not counted" from the status, never from a missing key.
            for (const char* key : {"value", "running_fraction", "min", "max", "mad"})
                ev[key] = nullptr;
            ev["reason"] = e.refusal.reason;
            ev["fix"] = e.refusal.fix;
        }
        j["events"].push_back(ev);
    }
    j["derived"] = nlohmann::json::array();
    for (const auto& m : derive_metrics(r))
        j["derived"].push_back({{"name", m.name}, {"value", m.value}, {"unit", m.unit}});
    j["notes"] = r.notes;
    j["interrupted"] =
        r.interrupted_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.interrupted_by);
    j["interrupted_run"] = r.interrupted_run;  // the one run reported was cut short
    // null unless --markers: then the marked intervals of each run
    j["marked_intervals"] =
        r.markers ? nlohmann::json(r.marked_intervals) : nlohmann::json(nullptr);
    j["delay_ms"] = r.delay_ms > 0 ? nlohmann::json(r.delay_ms) : nlohmann::json(nullptr);
    if (!r.regions.empty())
        j["regions"] = regions_json(r);  // simulated counts per Session region
    // The machine, as a run result records it: what a history's fingerprint files it under.
    j["system"] = system_json(r.system);
    add_host_json(r.system, j["system"]);
    return j;
}

namespace {

std::string render_json(const StatResult& r) {
    nlohmann::json j = stat_json(r);  // also each command of a side by side, which has its own
    j[kSchemaVersionKey] = kResultSchemaVersion;
    return json_text(j);
}

std::string render_markdown(const StatResult& r) {
    std::string out =
        fmt::format("Performance counter stats for `{}`{}\n\n", command_text(r.command),
                    r.repetitions > 1 ? fmt::format(" ({} runs)", r.repetitions) : "");
    using Align = TextTable::Align;
    TextTable table({"event", "value", "unit", "source", "running", "spread", "status"},
                    {Align::left, Align::right, Align::left, Align::left, Align::right,
                     Align::right, Align::left});
    for (const auto& e : r.events) {
        const bool has = e.counted && !e.samples.empty();
        table.add_row({"`" + e.name + "`", has ? number_text(median(e.samples)) : "", e.unit,
                       std::string(source_name(e.source)),
                       has ? fmt::format("{:.1f}%", 100.0 * e.running_fraction) : "",
                       has ? spread_text(e) : "", status_text(e)});
    }
    out += table.render_markdown();
    if (!r.elapsed_seconds.empty()) {
        out +=
            fmt::format("\nElapsed: {:.6f} s{}\n", median(r.elapsed_seconds),
                        r.elapsed_seconds.size() > 1
                            ? fmt::format(" (median of {} runs, min {:.6f}, max {:.6f})",
                                          r.elapsed_seconds.size(), quantile(r.elapsed_seconds, 0),
                                          quantile(r.elapsed_seconds, 1))
                            : "");
        if (!r.user_seconds.empty())
            out += fmt::format("CPU: {:.6f} s user, {:.6f} s sys{}\n", median(r.user_seconds),
                               median(r.system_seconds),
                               r.user_seconds.size() > 1 ? " (medians)" : "");
    }
    if (const auto metrics = derive_metrics(r); !metrics.empty()) {
        TextTable derived({"metric", "value", "unit", "source"},
                          {Align::left, Align::right, Align::left, Align::left});
        for (const auto& m : metrics)
            derived.add_row({m.name, fmt::format("{:.3f}", m.value), m.unit, m.source});
        out += "\n" + derived.render_markdown();
    }
    out += regions_text(r, true);
    if (!r.interrupted_by.empty())
        out += fmt::format("\n{}\n", interruption_text(r));
    return out;
}

}  // namespace

std::string render_stat(const StatResult& result, OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::table:
        case OutputFormat::answer:  // one command's answer is its table (stat --help)
            return render_table(result);
        case OutputFormat::csv:
            return render_csv(result);
        case OutputFormat::json:
            return render_json(result);
        case OutputFormat::markdown:
            return render_markdown(result);
        case OutputFormat::bmf:  // export --format bmf, from the stat result's file
            break;
    }
    no_writer("a stat result", format);
}

}  // namespace perfgauge::harness
