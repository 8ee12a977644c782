#include "perfgauge/harness/result_file.hpp"

#include "result_file_json.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/json_text.hpp"

namespace perfgauge::harness {

namespace {

using nlohmann::json;

// A number as the type it is read into, refused (std::invalid_argument) when it does not fit:
// nlohmann would wrap -1 into 2^64-1 and truncate 1e30 when reading a count, and a literal
// beyond double's range (1e400) reads as infinity.
template <class T>
T checked(const json& value, const char* key) {
    if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
        if (!value.is_number_unsigned() ||
            value.get<std::uint64_t>() > std::numeric_limits<T>::max()) {
            throw std::invalid_argument(fmt::format(
                "'{}' is {}, not a count (a non-negative integer)", key, shown_value(value)));
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        if (value.is_number() && !std::isfinite(value.get<T>()))
            throw std::invalid_argument(
                fmt::format("'{}' is {}, not a finite number", key, shown_value(value)));
    }
    return value.get<T>();
}

template <class T>
T get_or(const json& j, const char* key, T fallback) {
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? fallback : checked<T>(*it, key);
}

// Values no measurement produces, each named with its benchmark and sample: a negative time or
// raw count, items per iteration not above 0, a running fraction outside [0, 1]. Corrected
// counts may dip below 0 by the calibration's noise (the overhead subtracted exceeds a tiny
// count), so only their finiteness is checked, when read.
void check_values(const RunResult& r, const std::string& origin) {
    const auto refuse = [&](const std::string& what, double value) {
        throw ResultFileError(fmt::format(
            "{}: impossible value in a perfgauge result: {} is {}; refusing to use the file",
            origin, what, value));
    };
    const auto at_least_zero = [&](const std::string& what, double value) {
        if (value < 0)
            refuse(what, value);
    };
    at_least_zero("batch_overhead_ns", r.batch_overhead_ns);
    at_least_zero("pause_overhead_ns", r.pause_overhead_ns);
    at_least_zero("clock_pause_overhead_ns", r.clock_pause_overhead_ns);
    at_least_zero("pause_overhead_spread_ns", r.pause_overhead_spread_ns);
    if (const auto& g = r.system.cpu_gaps) {
        at_least_zero("system.cpu_gaps.window_ns", g->window_ns);
        at_least_zero("system.cpu_gaps.typical_gap_ns", g->typical_gap_ns);
        at_least_zero("system.cpu_gaps.typical_period_ns", g->typical_period_ns);
        if (!(g->lost_share >= 0 && g->lost_share <= 1))
            refuse("system.cpu_gaps.lost_share", g->lost_share);
    }
    at_least_zero("machine_probe_ns", r.machine_probe_ns);
    at_least_zero("machine_copy_probe_ns", r.machine_copy_probe_ns);
    for (const auto& b : r.benchmarks) {
        if (!(b.items_per_iteration > 0))
            refuse(fmt::format("'{}': perfgauge_items_per_iteration", b.name),
                   b.items_per_iteration);
        at_least_zero(fmt::format("'{}': perfgauge_bytes_per_iteration", b.name),
                      b.bytes_per_iteration);
        for (std::size_t s = 0; s < b.ns_per_item.size(); ++s) {
            const auto sample = [&](std::string_view key) {
                return fmt::format("'{}' sample {}: {}", b.name, s, key);
            };
            at_least_zero(sample("perfgauge_ns_per_item"), b.ns_per_item[s]);
            at_least_zero(sample("perfgauge_raw_ns_per_item"), b.raw_ns_per_item[s]);
            at_least_zero(sample("perfgauge_cpu_ns_per_item"), b.cpu_ns_per_item[s]);
            for (std::size_t i = 0; i < r.events.size(); ++i)
                at_least_zero(sample("perfgauge_raw_" + r.events[i].name),
                              b.raw_counters_per_item[i][s]);
        }
        for (std::size_t i = 0; i < b.running_fraction.size(); ++i) {
            if (!(b.running_fraction[i] >= 0 && b.running_fraction[i] <= 1))
                refuse(fmt::format("'{}': perfgauge_running_fraction_{}", b.name, r.events[i].name),
                       b.running_fraction[i]);
        }
        for (const auto& d : b.disturbed) {
            const std::string what =
                fmt::format("'{}' disturbed sample of round {}", b.name, d.round);
            at_least_zero(what + ": ns_per_item", d.ns_per_item);
            at_least_zero(what + ": wall_ns", d.wall_ns);
            at_least_zero(what + ": cpu_ns", d.cpu_ns);
            at_least_zero(what + ": probe_slowdown", d.probe_slowdown);
            at_least_zero(what + ": steal_ns", d.steal_ns);
        }
    }
}

// Results written before refusals were stored as structs carry them only as
// "name: status: reason" lines.
EventRefusal refusal_from_line(const std::string& name, const std::vector<std::string>& lines) {
    const std::string prefix = name + ": ";
    for (const auto& line : lines) {
        if (line.rfind(prefix, 0) != 0)
            continue;
        const std::string rest = line.substr(prefix.size());
        const auto sep = rest.find(": ");
        if (sep == std::string::npos)
            return {rest, "", ""};
        return {rest.substr(0, sep), rest.substr(sep + 2), ""};
    }
    return {"not counted", "", ""};
}

EventColumn read_event(const json& e, const std::vector<std::string>& unsupported) {
    EventColumn c;
    c.name = e.at("name").get<std::string>();
    const auto kind_text = get_or<std::string>(e, "kind", "software");
    const auto kind = pmu::parse_kind(kind_text);
    if (!kind)
        throw std::invalid_argument(
            fmt::format("event '{}' has an unknown kind '{}'", c.name, kind_text));
    c.kind = *kind;
    c.source = native_source(c.kind);
    if (const auto it = e.find("source"); it != e.end() && !it->is_null()) {
        const auto source = parse_source(it->get<std::string>());
        if (!source) {
            throw std::invalid_argument(fmt::format("event '{}' has an unknown source '{}'", c.name,
                                                    it->get<std::string>()));
        }
        c.source = *source;
    }
    c.counted = get_or<bool>(e, "counted", true);
    if (!c.counted) {
        if (const auto it = e.find("refusal"); it != e.end()) {
            c.refusal = {get_or<std::string>(*it, "status", ""),
                         get_or<std::string>(*it, "reason", ""),
                         get_or<std::string>(*it, "fix", ""),
                         pmu::parse_hint(get_or<std::string>(*it, "hint", "none"))
                             .value_or(pmu::ToolHint::none)};
        } else {
            c.refusal = refusal_from_line(c.name, unsupported);
        }
    }
    return c;
}

}  // namespace

void read_system_facts(const json& facts, SystemInfo& s) {
    s.cpu.model_name = get_or<std::string>(facts, "cpu", "");
    s.cpu.vendor = get_or<std::string>(facts, "vendor", "");
    s.cpu.family = get_or<unsigned>(facts, "family", 0);
    s.cpu.model = get_or<unsigned>(facts, "model", 0);
    s.cpu.bmi2 = get_or<bool>(facts, "bmi2", false);
    s.cpu.stepping = get_or<unsigned>(facts, "stepping", 0);
    s.cpu.microcode = get_or<std::string>(facts, "microcode", "");
    s.cpu.cores = get_or<unsigned>(facts, "cores", 0);
    s.hypervisor = get_or<std::string>(facts, "hypervisor", "");
    if (const auto m = facts.find("mitigations"); m != facts.end() && m->is_object()) {
        for (const auto& [name, status] : m->items())
            s.mitigations.emplace_back(name, status.get<std::string>());
    }
    if (const auto g = facts.find("governor"); g != facts.end() && g->is_string())
        s.governor = g->get<std::string>();
    if (const auto b = facts.find("boost"); b != facts.end() && b->is_boolean())
        s.boost = b->get<bool>();
    if (const auto smt = facts.find("smt_active"); smt != facts.end() && smt->is_boolean())
        s.smt_active = smt->get<bool>();
    s.clocksource = get_or<std::string>(facts, "clocksource", "");
    s.kernel = get_or<std::string>(facts, "kernel", "");
    if (const auto paranoid = facts.find("perf_event_paranoid");
        paranoid != facts.end() && !paranoid->is_null())
        s.perf_event_paranoid = paranoid->get<int>();
    s.hardware_pmu = get_or<bool>(facts, "hardware_pmu", false);
    if (const auto gaps = facts.find("cpu_gaps"); gaps != facts.end() && gaps->is_object()) {
        CpuGaps g;
        g.window_ns = get_or<double>(*gaps, "window_ns", 0);
        g.threshold_ns = get_or<double>(*gaps, "threshold_ns", 0);
        g.count = get_or<std::size_t>(*gaps, "count", 0);
        g.lost_share = get_or<double>(*gaps, "lost_share", 0);
        g.typical_gap_ns = get_or<double>(*gaps, "typical_gap_ns", 0);
        g.typical_period_ns = get_or<double>(*gaps, "typical_period_ns", 0);
        s.cpu_gaps = g;
    }
}

void read_host_facts(const json& context, SystemInfo& s) {
    s.host_name = get_or<std::string>(context, "host_name", "");
    s.cpu.logical_cpus = get_or<unsigned>(context, "num_cpus", 0);
    const json caches = get_or<json>(context, "caches", json::array());
    for (const auto& c : caches) {
        s.caches.push_back({get_or<int>(c, "level", 0), get_or<std::string>(c, "type", ""),
                            get_or<std::uint64_t>(c, "size", 0), 0,
                            get_or<unsigned>(c, "num_sharing", 0), 0});
    }
}

namespace {

void read_context(const json& context, RunResult& r) {
    const json& p = context.at("perfgauge");
    r.date = get_or<std::string>(context, "date", "");
    r.clock = get_or<std::string>(p, "clock", "");
    r.version = get_or<std::string>(p, "version", "");
    r.compiler = get_or<std::string>(p, "compiler", "");
    r.compiler_flags = get_or<std::string>(p, "compiler_flags", "");
    r.batch_overhead_ns = get_or<double>(p, "batch_overhead_ns", 0);
    r.pause_overhead_ns = get_or<double>(p, "pause_overhead_ns", 0);
    r.clock_pause_overhead_ns = get_or<double>(p, "clock_pause_overhead_ns", 0);
    r.pause_overhead_spread_ns = get_or<double>(p, "pause_overhead_spread_ns", 0);
    r.machine_probe_ns = get_or<double>(p, "machine_probe_ns", 0);
    r.machine_copy_probe_ns = get_or<double>(p, "machine_copy_probe_ns", 0);
    if (const auto it = p.find("pause_calibration_drift"); it != p.end() && !it->is_null())
        r.pause_calibration_drift = checked<double>(*it, "pause_calibration_drift");
    r.seed = get_or<std::uint64_t>(p, "seed", 0);
    r.repetitions = get_or<std::size_t>(p, "repetitions", 0);
    r.processes = get_or<std::size_t>(p, "processes", 1);
    r.in_turn_with = get_or<std::string>(p, "in_turn_with", "");
    r.precision_target = get_or<double>(p, "precision_target", 0.01);
    if (const auto it = p.find("interrupted"); it != p.end() && it->is_string())
        r.interrupted_by = it->get<std::string>();
    const auto unsupported = get_or<std::vector<std::string>>(p, "unsupported", {});
    for (const auto& e : p.at("events"))
        r.events.push_back(read_event(e, unsupported));
    r.warnings = get_or<std::vector<std::string>>(p, "warnings", {});
    if (const auto it = p.find("workload_context"); it != p.end()) {
        for (const auto& [key, value] : it->items())
            r.context.emplace_back(key, value.get<std::string>());
    }
    if (const auto it = p.find("simulation"); it != p.end()) {
        for (const auto& [key, value] : it->items())
            r.simulation.emplace_back(key, value.get<std::string>());
    }
    if (const auto it = p.find("system"); it != p.end())
        read_system_facts(*it, r.system);
    read_host_facts(context, r.system);
}

// A benchmark as its first entry (iteration or aggregate) describes it, without samples.
BenchmarkResult benchmark_from(const json& e, const RunResult& r) {
    BenchmarkResult b;
    b.name = e.at("run_name").get<std::string>();
    b.iterations = get_or<std::uint64_t>(e, "iterations", 0);
    b.items_per_iteration = get_or<double>(e, "perfgauge_items_per_iteration", 1);
    b.bytes_per_iteration = get_or<double>(e, "perfgauge_bytes_per_iteration", 0);
    if (const auto it = e.find("perfgauge_params"); it != e.end()) {
        for (const auto& [key, value] : it->items())
            b.params.emplace_back(key, value.get<std::string>());
    }
    b.counters_per_item.resize(r.events.size());
    b.raw_counters_per_item.resize(r.events.size());
    b.running_fraction.assign(r.events.size(), 1.0);
    return b;
}

// Two benchmarks written under one name (a selection that named one twice) would have their
// samples merged into one series, silently; such a file is refused. Each benchmark's entries
// carry its own family_index and end with its one aggregate, so a name is used twice when
// its entries change family_index, or an entry follows its aggregate.
class NameCollisions {
  public:
    explicit NameCollisions(std::string origin) : origin_(std::move(origin)) {}

    void see(const json& entry, const std::string& name, bool aggregate) {
        auto& use = uses_[name];
        const auto family = entry.find("family_index");
        const bool other_family = family != entry.end() && use.family && *family != *use.family;
        if (use.aggregated || other_family) {
            throw ResultFileError(fmt::format(
                "{}: two benchmarks are named '{}': their samples cannot be told apart, so the "
                "file is refused rather than merged (measure them under different names)",
                origin_, name));
        }
        if (family != entry.end())
            use.family = *family;
        use.aggregated = aggregate;
    }

  private:
    struct Use {
        std::optional<json> family;
        bool aggregated = false;
    };
    std::string origin_;
    std::map<std::string, Use> uses_;
};

// Samples of one benchmark, in repetition order, from its "iteration" entries.
void add_sample(const json& e, const RunResult& r, BenchmarkResult& b) {
    const double ns = checked<double>(e.at("perfgauge_ns_per_item"), "perfgauge_ns_per_item");
    b.rounds.push_back(get_or<std::size_t>(e, "repetition_index", b.ns_per_item.size()));
    if (const auto it = e.find("perfgauge_process"); it != e.end())
        b.processes.push_back(checked<std::size_t>(*it, "perfgauge_process"));
    b.ns_per_item.push_back(ns);
    b.cpu_ns_per_item.push_back(get_or<double>(e, "perfgauge_cpu_ns_per_item", ns));
    b.raw_ns_per_item.push_back(get_or<double>(e, "perfgauge_raw_ns_per_item", ns));
    if (const auto it = e.find("perfgauge_snapshot_pause_ns"); it != e.end()) {
        b.snapshot_pause_ns.push_back(it->is_null()  // a sample that never paused
                                          ? std::nan("")
                                          : checked<double>(*it, "perfgauge_snapshot_pause_ns"));
    }
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        const double value =
            r.events[i].counted ? get_or<double>(e, r.events[i].name.c_str(), 0) : 0;
        b.counters_per_item[i].push_back(value);
        b.raw_counters_per_item[i].push_back(
            get_or<double>(e, ("perfgauge_raw_" + r.events[i].name).c_str(), value));
    }
}

// The "benchmarks" of a run result: iterating an object instead would read its values.
void require_array(const json& benchmarks, const std::string& origin) {
    if (!benchmarks.is_array()) {
        throw ResultFileError(
            fmt::format("{}: malformed perfgauge result: 'benchmarks' is {}, not an array", origin,
                        shown_value(benchmarks)));
    }
}

}  // namespace

RunResult parse_run_json(const std::string& text, const std::string& origin) {
    json j;
    try {
        j = parse_json_bounded(text, origin);
    } catch (const json::exception& e) {  // a syntax error, or a number beyond double (1e400)
        throw ResultFileError(fmt::format("{}: not JSON ({})", origin, json_error_text(e)));
    }
    return run_from_json(j, origin);
}

RunResult run_from_json(const nlohmann::json& j, const std::string& origin) {
    if (j.is_object())  // before the shape: a newer version may have another
        read_schema_version(j, origin);
    if (!j.is_object() || !j.contains("benchmarks") || !j.contains("context")) {
        throw ResultFileError(fmt::format(
            "{}: not a benchmark result (expected an object with 'context' and 'benchmarks', as "
            "perfgauge run --format json writes)",
            origin));
    }
    if (!j.at("context").contains("perfgauge")) {
        throw ResultFileError(fmt::format(
            "{}: a Google Benchmark result without perfgauge's samples ('context.perfgauge' is "
            "missing); compare it with Google Benchmark's compare.py, or produce it with "
            "perfgauge run",
            origin));
    }
    require_array(j.at("benchmarks"), origin);
    RunResult r;
    try {
        read_context(j.at("context"), r);
        std::map<std::string, std::size_t> index;
        NameCollisions names(origin);
        // Benchmarks keep the file's order, the one they were written (and measured) in: a
        // benchmark whose every sample was disturbed has only its aggregate entry, and must
        // not move to the end (merging measuring processes matches benchmarks by position).
        for (const auto& e : j.at("benchmarks")) {
            const auto type = get_or<std::string>(e, "run_type", "");
            if (type != "iteration" && type != "aggregate")
                continue;
            const auto name = e.at("run_name").get<std::string>();
            names.see(e, name, type == "aggregate");
            const auto [it, inserted] = index.emplace(name, r.benchmarks.size());
            if (inserted)  // every sample disturbed: no iteration entry, but it was measured
                r.benchmarks.push_back(benchmark_from(e, r));
            if (type == "iteration")
                add_sample(e, r, r.benchmarks[it->second]);
        }
        // Running fractions are per benchmark, in the median aggregate.
        for (const auto& e : j.at("benchmarks")) {
            if (get_or<std::string>(e, "run_type", "") != "aggregate")
                continue;
            const auto it = index.find(get_or<std::string>(e, "run_name", ""));
            auto& b = r.benchmarks[it->second];
            for (std::size_t i = 0; i < r.events.size(); ++i) {
                b.running_fraction[i] = get_or<double>(
                    e, ("perfgauge_running_fraction_" + r.events[i].name).c_str(), 1.0);
            }
            for (const auto& d : get_or<json>(e, "perfgauge_disturbed", json::array())) {
                b.disturbed.push_back(
                    {get_or<std::size_t>(d, "round", 0), get_or<double>(d, "ns_per_item", 0),
                     get_or<double>(d, "wall_ns", 0), get_or<double>(d, "cpu_ns", 0),
                     get_or<std::uint64_t>(d, "involuntary_switches", 0),
                     get_or<double>(d, "probe_slowdown", 1), get_or<double>(d, "steal_ns", 0)});
            }
        }
    } catch (const json::exception& e) {
        throw ResultFileError(
            fmt::format("{}: malformed perfgauge result: {}", origin, json_error_text(e)));
    } catch (const std::invalid_argument& e) {
        throw ResultFileError(fmt::format("{}: malformed perfgauge result: {}", origin, e.what()));
    }
    for (const auto& b : r.benchmarks) {
        if (!b.processes.empty() && b.processes.size() != b.ns_per_item.size())
            throw ResultFileError(fmt::format(
                "{}: malformed perfgauge result: '{}' tags only some samples with their process",
                origin, b.name));
        if (!b.snapshot_pause_ns.empty() && b.snapshot_pause_ns.size() != b.ns_per_item.size())
            throw ResultFileError(fmt::format(
                "{}: malformed perfgauge result: '{}' gives perfgauge_snapshot_pause_ns for only "
                "some samples",
                origin, b.name));
    }
    check_values(r, origin);
    if (r.repetitions == 0 && !r.benchmarks.empty())
        r.repetitions = r.benchmarks.front().ns_per_item.size();
    return r;
}

}  // namespace perfgauge::harness
