// history's texts for machines and its short lines: list, add, accept, forget, export, plot;
// and how a stored metric's value reads.
#include "perfgauge/harness/history_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_text.hpp"

namespace perfgauge::harness {
namespace {

// The SI prefix (or time unit) a value is shown with: the largest not above its magnitude.
struct Prefix {
    double scale;
    const char* symbol;  ///< "ms", "k", "" ...
    const char* word;    ///< for an axis: "ms", "thousands", "count" ...
};

Prefix prefix_for(double value, MetricPolicy::Quantity quantity) {
    constexpr std::array<Prefix, 4> kTimes{
        {{1e9, "s", "s"}, {1e6, "ms", "ms"}, {1e3, "us", "us"}, {1, "ns", "ns"}}};
    constexpr std::array<Prefix, 5> kCounts{{{1e12, "T", "trillions"},
                                             {1e9, "G", "billions"},
                                             {1e6, "M", "millions"},
                                             {1e3, "k", "thousands"},
                                             {1, "", "count"}}};
    const auto pick = [&](const auto& table) {
        for (const auto& p : table)
            if (std::abs(value) >= p.scale)
                return p;
        return table.back();
    };
    return quantity == MetricPolicy::Quantity::time ? pick(kTimes) : pick(kCounts);
}

// Where a run came from, as its user knows it: the file's absolute path (the name given to
// add in runs stored before perfgauge recorded it), the command that made it, the labels.
std::string source_text(const StoredRun& r) {
    std::string out = r.path.empty() ? r.source : r.path;
    if (!r.command.empty())
        out += " (command: " + r.command + ")";
    return out + (r.labels.empty() ? "" : ", " + r.labels);
}

// The acceptances after the runs: what was accepted, where, for which series, why and when.
std::string acceptances_text(const std::vector<Acceptance>& acceptances) {
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

std::string csv_quoted(const std::string& s) {
    std::string q = "\"";
    for (const char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

// One series as history_plot.py draws it. Values stay raw (as stored); `scale` and
// `unit_label` make the axis read plain numbers in its unit ("ms per run"): the script draws
// value * scale.
nlohmann::json plot_series(const PlottedSeries& s) {
    double typical = 0;
    for (const auto& e : s.entries)
        typical = std::max(typical, std::abs(e.point.value));
    const auto axis = axis_scale(typical, s.policy);
    nlohmann::json series = {{"benchmark", s.key.benchmark},
                             {"metric", s.key.metric},
                             {"machine", s.machine},
                             {"unit", s.unit},
                             {"unit_label", axis.label},
                             {"scale", axis.scale},
                             {"runs", nlohmann::json::array()},
                             {"changes", nlohmann::json::array()},
                             {"accepted", nlohmann::json::array()}};
    for (const auto& e : s.entries)
        series["runs"].push_back({{"run", e.run_id},
                                  {"commit", e.commit},
                                  {"median", e.point.value},
                                  {"spread", e.point.spread}});
    for (const auto& a : s.accepted)
        series["accepted"].push_back(
            {{"index", a.index}, {"commit", a.commit}, {"reason", a.reason}});
    for (const auto& c : s.changes)
        series["changes"].push_back({{"index", c.index},
                                     {"size", c.size},
                                     {"low", c.size_low},
                                     {"high", c.size_high},
                                     {"regression", c.regression}});
    return series;
}

}  // namespace

std::string format_metric_value(double value, const MetricPolicy& policy) {
    const std::string per = policy.per.empty() ? "" : "/" + policy.per;
    if (!std::isfinite(value))
        return fmt::format("{}{}", value, per);
    const Prefix p = prefix_for(value, policy.quantity);
    const char* space = policy.quantity == MetricPolicy::Quantity::time ? " " : "";
    return fmt::format("{:.4g}{}{}{}", value / p.scale, space, p.symbol, per);
}

AxisScale axis_scale(double typical, const MetricPolicy& policy) {
    const Prefix p = prefix_for(std::isfinite(typical) ? typical : 0, policy.quantity);
    const std::string per = policy.quantity == MetricPolicy::Quantity::rate ? "second" : policy.per;
    return {1 / p.scale, per.empty() ? std::string(p.word) : fmt::format("{} per {}", p.word, per)};
}

std::string short_commit(const std::string& commit) {
    return commit.empty() ? "-" : commit.substr(0, 10);
}

std::string history_added_line(std::int64_t run, const std::string& source, std::size_t benchmarks,
                               const std::string& commit) {
    return fmt::format("added run {}: {} ({} benchmarks, commit {})\n", run, source, benchmarks,
                       short_commit(commit));
}

std::string history_escaped_note(std::int64_t run, const std::string& what) {
    return fmt::format(
        "perfgauge history add: note: run {}: {}: stored with \\xNN "
        "for bytes that are not UTF-8 and for NULs\n",
        run, what);
}

std::string history_list_text(const std::vector<StoredRun>& runs,
                              const std::vector<Acceptance>& acceptances) {
    std::string out = fmt::format("{:>5}  {:<20}  {:<10}  {:>10}  {:>12}  {:<16}  {}\n", "run",
                                  "added (UTC)", "commit", "benchmarks", "sample bytes",
                                  "machine class", "source (command), labels");
    for (const auto& r : runs) {
        out += fmt::format("{:>5}  {:<20}  {:<10}  {:>10}  {:>12}  {:<16}  {}\n", r.id, r.added_at,
                           short_commit(r.commit), r.benchmarks, r.sample_bytes, r.machine_class,
                           source_text(r));
    }
    return out + acceptances_text(acceptances);
}

std::string history_export_csv(const std::vector<StoredMeasurement>& measurements) {
    std::string text =
        "run,commit,measured_at,machine_class,benchmark,metric,unit,source,median,spread,"
        "samples\n";
    for (const auto& m : measurements)
        text += fmt::format("{},{},{},{},{},{},{},{},{},{},\"{}\"\n", m.run_id,
                            csv_quoted(m.commit), csv_quoted(m.measured_at), m.machine_class,
                            csv_quoted(m.benchmark), csv_quoted(m.metric), m.unit, m.source,
                            m.median, m.spread, fmt::join(m.samples, ";"));
    return text;
}

std::string history_export_json(const std::vector<StoredMeasurement>& measurements) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& m : measurements)
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
    return json_text(array);
}

std::string history_export_text(const std::vector<StoredMeasurement>& measurements,
                                OutputFormat format) {
    switch (format) {  // no default: a format added to the enum must be said here
        case OutputFormat::csv:
            return history_export_csv(measurements);
        case OutputFormat::json:
            return history_export_json(measurements);
        case OutputFormat::table:
        case OutputFormat::markdown:
        case OutputFormat::bmf:
        case OutputFormat::answer:
            break;
    }
    no_writer("history export", format);
}

std::string history_plot_json(const std::vector<PlottedSeries>& series) {
    nlohmann::json data = {{"series", nlohmann::json::array()}};
    for (const auto& s : series)
        data["series"].push_back(plot_series(s));
    // json_text: a benchmark name or reason with bytes that are not UTF-8 never throws.
    return json_text(data);
}

std::string history_accepted_text(const std::vector<Acceptance>& recorded) {
    std::string out;
    for (const auto& a : recorded)
        out += fmt::format(
            "acceptance {}: from run {} (commit {}) for {}, {}: {}\n", a.id, a.run_id,
            short_commit(a.commit),
            a.pattern.empty() ? "every benchmark" : "benchmarks matching '" + a.pattern + "'",
            a.metric.empty() ? "every metric" : "metric " + a.metric, a.reason);
    return out;
}

std::string history_forgot_text(std::size_t existed) {
    return fmt::format("forgot {} run{}\n", existed, existed == 1 ? "" : "s");
}

}  // namespace perfgauge::harness
