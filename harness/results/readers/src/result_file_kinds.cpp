// perfgauge stat's JSON and Google Benchmark's JSON, converted into the result model (RunResult)
// as they are read, so that compare and export treat every kind alike; and the dispatch that
// recognises which kind a file holds.
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/json_text.hpp"

#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/stat_as_run.hpp"
#include "result_file_json.hpp"

namespace perfgauge::harness {

namespace {

using nlohmann::json;

// A value no measurement produces: the file is refused, naming it, the place and the value.
[[noreturn]] void refuse(const std::string& origin, ResultKind kind, const std::string& what,
                         const std::string& value) {
    throw ResultFileError(
        fmt::format("{}: impossible value in {}: {} is {}; refusing to use the file", origin,
                    kind_description(kind), what, value));
}

[[noreturn]] void malformed(const std::string& origin, ResultKind kind, const std::string& why) {
    // "malformed perfgauge stat result", as the run reader says "malformed perfgauge result".
    throw ResultFileError(
        fmt::format("{}: malformed {}: {}", origin, kind_description(kind).substr(2), why));
}

// A sample's value: a finite number, at least 0 unless `negative_ok` (a user counter may be
// anything). Google Benchmark's NaN/Infinity (quoted by quote_non_finite_tokens) and negative
// times are refused as impossible, anything else that is not a number as malformed.
double sample_value(const json& v, const std::string& origin, ResultKind kind,
                    const std::string& what, bool negative_ok = false) {
    if (is_non_finite_token(v))
        refuse(origin, kind, what, v.get<std::string>());
    if (!v.is_number())
        malformed(origin, kind, fmt::format("{} is {}, not a number", what, shown_value(v)));
    const double value = v.get<double>();
    if (!std::isfinite(value) || (!negative_ok && value < 0))
        refuse(origin, kind, what, fmt::format("{}", value));
    return value;
}

// ---- perfgauge stat --------------------------------------------------------------------------

EventColumn stat_event_column(const json& e, const std::string& origin) {
    constexpr ResultKind kStat = ResultKind::stat;
    EventColumn c;
    c.name = e.at("event").get<std::string>();
    const auto kind_text = e.value("kind", std::string("software"));
    const auto kind = pmu::parse_kind(kind_text);
    if (!kind)
        malformed(origin, kStat,
                  fmt::format("event '{}' has an unknown kind '{}'", c.name, kind_text));
    c.kind = *kind;
    c.source = native_source(c.kind);
    if (const auto it = e.find("source"); it != e.end() && it->is_string()) {
        const auto source = parse_source(it->get<std::string>());
        if (!source) {
            malformed(origin, kStat,
                      fmt::format("event '{}' has an unknown source '{}'", c.name,
                                  it->get<std::string>()));
        }
        c.source = *source;
    }
    const auto status = e.value("status", std::string("counted"));
    c.counted = status == "counted";
    if (!c.counted) {
        const auto text = [&](const char* key) {
            const auto it = e.find(key);
            return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        c.refusal = {status, text("reason"), text("fix"), pmu::ToolHint::none};
    }
    return c;
}

}  // namespace

namespace {

// How the command ended, from the shell status and perfgauge's own description of it.
ExitStatus exit_from_json(const json& j) {
    ExitStatus exit;
    const auto it = j.find("exit_status");
    if (it == j.end() || !it->is_number_integer())
        return exit;
    const int status = it->get<int>();
    const std::string text = j.value("exit", std::string());
    if (text.starts_with("could not be executed")) {
        exit.exec_failed = true;
        // The errno is stored only as its description ("...: No such file or directory").
        const std::string_view prefix = "could not be executed: ";
        for (int e = 1; e < 256 && text.starts_with(prefix); ++e) {
            if (text.substr(prefix.size()) == std::strerror(e)) {
                exit.exec_error = e;
                break;
            }
        }
    } else if (text.starts_with("killed by") && status > 128) {
        exit.signaled = true;
        exit.code = status - 128;
    } else {
        exit.code = status;
    }
    return exit;
}

std::vector<double> seconds_list(const json& j, const char* key, const std::string& origin) {
    std::vector<double> out;
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return out;
    for (std::size_t s = 0; s < it->size(); ++s)
        out.push_back(
            sample_value((*it)[s], origin, ResultKind::stat, fmt::format("run {}: {}", s, key)));
    return out;
}

// One command's stat JSON, typed; stat_as_run_result turns it into the result model.
StatResult stat_result_from_json(const json& j, const std::string& origin) {
    constexpr ResultKind kStat = ResultKind::stat;
    StatResult s;
    s.command = j.at("command").get<std::vector<std::string>>();
    if (s.command.empty())
        malformed(origin, kStat, "'command' is empty");
    if (const auto date = j.find("date"); date != j.end() && date->is_string())
        s.date = date->get<std::string>();
    s.elapsed_seconds = seconds_list(j, "elapsed_seconds", origin);
    const std::size_t runs = s.elapsed_seconds.size();
    s.user_seconds = seconds_list(j, "user_seconds", origin);
    s.system_seconds = seconds_list(j, "system_seconds", origin);
    if ((!s.user_seconds.empty() && s.user_seconds.size() != runs) ||
        s.system_seconds.size() != s.user_seconds.size())
        malformed(origin, kStat, "user_seconds and system_seconds do not have one value per run");
    s.repetitions = static_cast<int>(runs);
    for (const auto& e : j.at("events")) {
        StatEventResult event;
        static_cast<EventColumn&>(event) = stat_event_column(e, origin);
        event.unit = e.value("unit", std::string());
        if (event.counted) {
            const json& samples = e.at("samples");
            // Simulated counts come from one run under callgrind: one value for every run.
            const bool one_simulated =
                event.source == EventSource::simulated && samples.size() == 1;
            if (samples.size() != runs && !one_simulated) {
                malformed(origin, kStat,
                          fmt::format("event '{}' has {} samples for {} runs", event.name,
                                      samples.size(), runs));
            }
            for (std::size_t k = 0; k < samples.size(); ++k) {
                event.samples.push_back(sample_value(samples[k], origin, kStat,
                                                     fmt::format("run {}: {}", k, event.name)));
            }
            if (const auto it = e.find("running_fraction"); it != e.end() && !it->is_null()) {
                event.running_fraction = sample_value(
                    *it, origin, kStat, fmt::format("{}: running_fraction", event.name));
                if (event.running_fraction > 1)
                    refuse(origin, kStat, fmt::format("{}: running_fraction", event.name),
                           fmt::format("{}", event.running_fraction));
            }
        }
        s.events.push_back(std::move(event));
    }
    s.exit = exit_from_json(j);
    if (const auto it = j.find("system"); it != j.end() && it->is_object()) {
        read_system_facts(*it, s.system);
        read_host_facts(*it, s.system);
    }
    if (const auto it = j.find("interrupted"); it != j.end() && it->is_string()) {
        s.interrupted_by = it->get<std::string>();
        s.interrupted_run = j.value("interrupted_run", false);
    }
    if (const auto it = j.find("notes"); it != j.end() && it->is_array()) {
        for (const auto& note : *it) {
            if (note.is_string())
                s.notes.push_back(note.get<std::string>());
        }
    }
    return s;
}

}  // namespace

RunResult stat_from_json(const json& j, const std::string& origin) {
    constexpr ResultKind kStat = ResultKind::stat;
    if (j.is_object())
        read_schema_version(j, origin);
    try {
        if (const auto it = j.find("commands"); it != j.end()) {
            // Side by side: every command's own stat JSON, in the order given; sample k of each
            // is round k.
            SideBySideResult side;
            std::vector<std::vector<std::string>> lines;
            for (const auto& command : *it) {
                side.commands.push_back(stat_result_from_json(command, origin));
                lines.push_back(side.commands.back().command);
            }
            if (side.commands.size() < 2)
                malformed(origin, kStat, "'commands' holds fewer than two commands");
            RunResult r = stat_as_run_result(side.commands, side_by_side_labels(lines));
            if (const auto notes = j.find("notes"); notes != j.end() && notes->is_array()) {
                for (const auto& note : *notes) {
                    if (note.is_string())
                        r.warnings.push_back(note.get<std::string>());
                }
            }
            return r;
        }
        const StatResult s = stat_result_from_json(j, origin);
        return stat_as_run_result({s}, {});
    } catch (const json::exception& e) {
        malformed(origin, kStat, json_error_text(e));
    }
}

// ---- Google Benchmark ------------------------------------------------------------------------

namespace {

// Keys of an entry that are not user counters: Google Benchmark's own fields (1.5 to 1.8), and
// the two rates it derives from the time (comparing them would count the time twice).
bool is_gbench_field(const std::string& key) {
    static const std::set<std::string> fields = {"name",
                                                 "family_index",
                                                 "per_family_instance_index",
                                                 "run_name",
                                                 "run_type",
                                                 "repetitions",
                                                 "repetition_index",
                                                 "threads",
                                                 "aggregate_name",
                                                 "aggregate_unit",
                                                 "error_occurred",
                                                 "error_message",
                                                 "skipped",
                                                 "skip_message",
                                                 "iterations",
                                                 "real_time",
                                                 "cpu_time",
                                                 "time_unit",
                                                 "label",
                                                 "cpu_coefficient",
                                                 "real_coefficient",
                                                 "big_o",
                                                 "rms",
                                                 "items_per_second",
                                                 "bytes_per_second"};
    return fields.count(key) > 0;
}

double ns_per_unit(const std::string& unit, const std::string& origin, const std::string& where) {
    if (unit == "ns")
        return 1;
    if (unit == "us")
        return 1e3;
    if (unit == "ms")
        return 1e6;
    if (unit == "s")
        return 1e9;
    malformed(origin, ResultKind::google_benchmark,
              fmt::format("{}: unknown time_unit '{}' (expected ns, us, ms or s)", where, unit));
}

// Left out of the samples: failed or skipped benchmarks (Google Benchmark still writes an entry).
std::string error_of(const json& e) {
    if (e.value("error_occurred", false))
        return e.value("error_message", std::string("an error"));
    if (const auto it = e.find("skipped"); it != e.end() && !it->is_null() &&
                                           !(it->is_boolean() && !it->get<bool>()) &&
                                           !(it->is_number() && it->get<double>() == 0)) {
        return e.value("skip_message", std::string("skipped"));
    }
    return {};
}

constexpr ResultKind kGb = ResultKind::google_benchmark;

// The fields of an "iteration" entry Google Benchmark writes as counts or booleans, and the
// name, checked before they are used: a wrong value there (a bare NaN reads as the string
// "NaN") is refused naming its field, never blamed on what it leads to (a NaN family_index
// would otherwise look like two benchmarks sharing a name, a NaN repetition_index pass).
void check_gbench_entry(const json& e, const std::string& origin) {
    const auto name_it = e.find(e.contains("run_name") ? "run_name" : "name");
    if (name_it == e.end() || !name_it->is_string()) {
        malformed(origin, kGb,
                  fmt::format("an iteration entry's {} is {}, not a benchmark name",
                              e.contains("run_name") ? "run_name" : "name",
                              name_it == e.end() ? "missing" : shown_value(*name_it)));
    }
    const std::string name = name_it->get<std::string>();
    for (const char* key : {"family_index", "per_family_instance_index", "repetition_index",
                            "repetitions", "threads"}) {
        if (const auto it = e.find(key); it != e.end() && !it->is_number_unsigned()) {
            malformed(origin, kGb,
                      fmt::format("'{}': {} is {}, not a count (a non-negative integer)", name, key,
                                  shown_value(*it)));
        }
    }
    if (const auto it = e.find("error_occurred"); it != e.end() && !it->is_boolean()) {
        malformed(
            origin, kGb,
            fmt::format("'{}': error_occurred is {}, not true or false", name, shown_value(*it)));
    }
}

// The file's context: when, and on which machine as Google Benchmark names it.
void read_gbench_context(const json& context, RunResult& r) {
    if (const auto it = context.find("date"); it != context.end() && it->is_string())
        r.date = it->get<std::string>();
    // The machine as Google Benchmark names it (the history store files its runs by it).
    if (const auto it = context.find("host_name"); it != context.end() && it->is_string())
        r.system.host_name = it->get<std::string>();
    if (const auto it = context.find("num_cpus"); it != context.end() && it->is_number_unsigned())
        r.system.cpu.logical_cpus = it->get<unsigned>();
}

// What reading a Google Benchmark file's entries gathers beyond the result itself.
struct GbenchEntries {
    // Counters in order of first appearance, over every benchmark.
    std::map<std::string, std::size_t> counter_index;
    std::map<std::string, std::size_t> bench_index;
    std::map<std::string, json> instances;              // per name: its family and instance
    std::map<std::string, std::set<json>> repetitions;  // per name: repetition_index seen
    // Per benchmark and counter: the samples that carry it (a counter every sample lacks
    // stays empty, and compare leaves it out for that benchmark).
    std::vector<std::map<std::size_t, std::vector<double>>> values;
};

// The benchmark entry `e` (named `name`) is a sample of, added on its first sample; refused when
// two benchmarks share the name.
std::size_t gbench_benchmark(const json& e, const std::string& name, const std::string& origin,
                             GbenchEntries& g, RunResult& r) {
    // Repetitions share a name and an instance, and number themselves: Google Benchmark
    // writes family_index and per_family_instance_index since 1.6, repetition_index
    // since 1.5. Two benchmarks registered under one name differ in the first, or
    // (1.5) repeat a repetition_index: refused rather than merged into one series.
    // Entries with neither are how Google Benchmark before 1.5 wrote repetitions (and
    // how its compare.py still reads them): one benchmark's samples.
    const json instance = {e.value("family_index", json()),
                           e.value("per_family_instance_index", json())};
    const auto [seen, first] = g.instances.emplace(name, instance);
    const auto repetition = e.find("repetition_index");
    if ((!first && seen->second != instance) ||
        (repetition != e.end() && !g.repetitions[name].insert(*repetition).second)) {
        throw ResultFileError(
            fmt::format("{}: two benchmarks are named '{}': their samples cannot be told apart, so "
                        "the file is refused rather than merged (give them different names)",
                        origin, name));
    }
    const auto [it, inserted] = g.bench_index.emplace(name, r.benchmarks.size());
    if (inserted) {
        r.benchmarks.emplace_back();
        r.benchmarks.back().name = name;
        r.benchmarks.back().items_per_iteration = 1;  // the item is one iteration
        g.values.emplace_back();
    }
    return it->second;
}

// One "iteration" entry: a sample of its benchmark, time and every user counter.
void read_gbench_sample(const json& e, const std::string& name, std::size_t index,
                        const std::string& origin, GbenchEntries& g, RunResult& r) {
    BenchmarkResult& b = r.benchmarks[index];
    const std::size_t s = b.ns_per_item.size();
    const auto where = [&](const std::string& key) {
        return fmt::format("'{}' sample {}: {}", name, s, key);
    };
    const json& iterations = e.at("iterations");
    if (!iterations.is_number_unsigned() || iterations.get<std::uint64_t>() == 0) {
        malformed(origin, kGb,
                  fmt::format("{} is {}, not a count above 0", where("iterations"),
                              shown_value(iterations)));
    }
    b.iterations = iterations.get<std::uint64_t>();
    const double unit =
        ns_per_unit(e.value("time_unit", std::string("ns")), origin, where("time_unit"));
    const double real = unit * sample_value(e.at("real_time"), origin, kGb, where("real_time"));
    b.ns_per_item.push_back(real);
    b.raw_ns_per_item.push_back(real);
    if (const auto cpu = e.find("cpu_time"); cpu != e.end())
        b.cpu_ns_per_item.push_back(unit * sample_value(*cpu, origin, kGb, where("cpu_time")));
    for (const auto& [key, value] : e.items()) {
        if (is_gbench_field(key) || !(value.is_number() || is_non_finite_token(value)))
            continue;
        const auto [c, added] = g.counter_index.emplace(key, r.events.size());
        if (added) {
            // Whatever counted it (perfgauge's adapter, the benchmark itself), perfgauge
            // compares it as the benchmark reported it.
            r.events.push_back({key, pmu::EventKind::software, EventSource::reported, true, {}});
        }
        g.values[index][c->second].push_back(
            sample_value(value, origin, kGb, where(key), /*negative_ok=*/true));
    }
}

// Every benchmark's counters, once every entry is read: a counter only some samples carry is
// refused, the rest become the benchmark's columns.
void finish_gbench_benchmarks(const std::string& origin, GbenchEntries& g, RunResult& r) {
    for (std::size_t i = 0; i < r.benchmarks.size(); ++i) {
        BenchmarkResult& b = r.benchmarks[i];
        const std::size_t n = b.ns_per_item.size();
        if (!b.cpu_ns_per_item.empty() && b.cpu_ns_per_item.size() != n)
            malformed(origin, kGb, fmt::format("'{}': only some samples have cpu_time", b.name));
        b.counters_per_item.resize(r.events.size());
        for (auto& [c, v] : g.values[i]) {
            if (v.size() != n) {
                malformed(origin, kGb,
                          fmt::format("'{}': counter '{}' in {} of {} samples", b.name,
                                      r.events[c].name, v.size(), n));
            }
            b.counters_per_item[c] = std::move(v);
        }
        b.raw_counters_per_item = b.counters_per_item;
        b.running_fraction.assign(r.events.size(), 1.0);
    }
}

}  // namespace

RunResult gbench_from_json(const json& j, const std::string& origin) {
    RunResult r;
    r.kind = kGb;
    r.precision_target = 0;
    try {
        if (!j.at("benchmarks").is_array()) {  // iterating an object would read its values
            malformed(
                origin, kGb,
                fmt::format("'benchmarks' is {}, not an array", shown_value(j.at("benchmarks"))));
        }
        read_gbench_context(j.at("context"), r);
        GbenchEntries g;
        for (const auto& e : j.at("benchmarks")) {
            if (e.value("run_type", std::string("iteration")) != "iteration")
                continue;  // aggregates: perfgauge computes its own from the samples
            check_gbench_entry(e, origin);
            const std::string name = e.contains("run_name") ? e.at("run_name").get<std::string>()
                                                            : e.at("name").get<std::string>();
            if (const auto error = error_of(e); !error.empty()) {
                r.warnings.push_back(
                    fmt::format("{}: left out: Google Benchmark reported {}", name, error));
                continue;
            }
            read_gbench_sample(e, name, gbench_benchmark(e, name, origin, g, r), origin, g, r);
        }
        finish_gbench_benchmarks(origin, g, r);
        r.repetitions = r.benchmarks.empty() ? 0 : r.benchmarks.front().ns_per_item.size();
    } catch (const json::exception& e) {
        malformed(origin, kGb, json_error_text(e));
    }
    return r;
}

std::string quote_non_finite_tokens(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (in_string) {
            out += ch;
            if (ch == '\\' && i + 1 < text.size())
                out += text[++i];  // an escaped character, a quote included
            else if (ch == '"')
                in_string = false;
            continue;
        }
        if (ch == '"') {
            in_string = true;
            out += ch;
            continue;
        }
        bool replaced = false;
        for (const std::string_view token : {"-Infinity", "Infinity", "-NaN", "NaN"}) {
            if (text.substr(i, token.size()) == token) {
                out += '"';
                out += token;
                out += '"';
                i += token.size() - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced)
            out += ch;
    }
    return out;
}

RunResult parse_result_json(const std::string& text, const std::string& origin) {
    json j;
    try {
        j = parse_json_bounded(text, origin);
    } catch (const json::exception& e) {
        // Google Benchmark's NaN and Infinity are not JSON; read them as quoted words and let
        // the Google Benchmark reader decide where they matter. Anything else stays "not JSON".
        json quoted;
        try {
            quoted = parse_json_bounded(quote_non_finite_tokens(text), origin);
        } catch (const json::exception&) {
        }
        const bool gbench = quoted.is_object() && quoted.contains("benchmarks") &&
                            quoted.contains("context") && quoted["context"].is_object() &&
                            !quoted["context"].contains("perfgauge");
        if (!gbench)
            throw ResultFileError(fmt::format("{}: not JSON ({})", origin, json_error_text(e)));
        return gbench_from_json(quoted, origin);
    }
    // Before recognising the kind: a file of a newer version is refused as that, whatever
    // shape it has.
    if (j.is_object())
        read_schema_version(j, origin);
    if (j.is_object() && j.contains("context") && j.contains("benchmarks")) {
        if (j["context"].is_object() && !j["context"].contains("perfgauge"))
            return gbench_from_json(j, origin);
        return run_from_json(j, origin);
    }
    if (j.is_object() &&
        ((j.contains("command") && j.contains("events") && j.contains("elapsed_seconds")) ||
         (j.contains("commands") && j.contains("side_by_side"))))
        return stat_from_json(j, origin);
    throw ResultFileError(fmt::format(
        "{}: not a benchmark result (expected the JSON of perfgauge run or perfgauge stat "
        "(--format json), or of Google Benchmark (--benchmark_out_format=json))",
        origin));
}

RunResult parse_stat_json(const std::string& text, const std::string& origin) {
    try {
        return stat_from_json(parse_json_bounded(text, origin), origin);
    } catch (const json::parse_error& e) {
        throw ResultFileError(fmt::format("{}: not JSON ({})", origin, json_error_text(e)));
    }
}

RunResult parse_gbench_json(const std::string& text, const std::string& origin) {
    json j;
    try {
        j = parse_json_bounded(quote_non_finite_tokens(text), origin);
    } catch (const json::parse_error& e) {
        throw ResultFileError(fmt::format("{}: not JSON ({})", origin, json_error_text(e)));
    }
    return gbench_from_json(j, origin);
}

}  // namespace perfgauge::harness
