#include "perfgauge/harness/result_file.hpp"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/event_plan.hpp"

namespace perfgauge::harness {

namespace {

using nlohmann::json;

template <class T>
T get_or(const json& j, const char* key, T fallback) {
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

void read_context(const json& context, RunResult& r) {
    const json& p = context.at("perfgauge");
    r.date = get_or<std::string>(context, "date", "");
    r.clock = get_or<std::string>(p, "clock", "");
    r.batch_overhead_ns = get_or<double>(p, "batch_overhead_ns", 0);
    r.pause_overhead_ns = get_or<double>(p, "pause_overhead_ns", 0);
    r.seed = get_or<std::uint64_t>(p, "seed", 0);
    r.repetitions = get_or<std::size_t>(p, "repetitions", 0);
    for (const auto& e : p.at("events")) {
        r.events.push_back(e.at("name").get<std::string>());
        r.event_kinds.push_back(get_or<std::string>(e, "kind", "software"));
        r.event_sources.push_back(
            get_or<std::string>(e, "source", native_source(r.event_kinds.back())));
        r.event_counted.push_back(get_or<bool>(e, "counted", true));
    }
    r.unsupported = get_or<std::vector<std::string>>(p, "unsupported", {});
    r.warnings = get_or<std::vector<std::string>>(p, "warnings", {});
    if (const auto it = p.find("workload_context"); it != p.end()) {
        for (const auto& [key, value] : it->items())
            r.context.emplace_back(key, value.get<std::string>());
    }
    if (const auto it = p.find("simulation"); it != p.end()) {
        for (const auto& [key, value] : it->items())
            r.simulation.emplace_back(key, value.get<std::string>());
    }
    if (const auto it = p.find("system"); it != p.end()) {
        r.system.cpu.model_name = get_or<std::string>(*it, "cpu", "");
        r.system.cpu.vendor = get_or<std::string>(*it, "vendor", "");
        r.system.cpu.family = get_or<unsigned>(*it, "family", 0);
        r.system.cpu.model = get_or<unsigned>(*it, "model", 0);
        r.system.cpu.bmi2 = get_or<bool>(*it, "bmi2", false);
        r.system.kernel = get_or<std::string>(*it, "kernel", "");
    }
    const json caches = get_or<json>(context, "caches", json::array());
    for (const auto& c : caches) {
        r.system.caches.push_back({get_or<int>(c, "level", 0), get_or<std::string>(c, "type", ""),
                                   get_or<std::uint64_t>(c, "size", 0), 0,
                                   get_or<unsigned>(c, "num_sharing", 0), 0});
    }
}

// Samples of one benchmark, in repetition order, from its "iteration" entries.
void add_sample(const json& e, const RunResult& r, BenchmarkResult& b) {
    if (b.ns_per_item.empty()) {
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
    }
    const double ns = e.at("perfgauge_ns_per_item").get<double>();
    b.ns_per_item.push_back(ns);
    b.raw_ns_per_item.push_back(get_or<double>(e, "perfgauge_raw_ns_per_item", ns));
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        const double value = r.event_counted[i] ? get_or<double>(e, r.events[i].c_str(), 0) : 0;
        b.counters_per_item[i].push_back(value);
        b.raw_counters_per_item[i].push_back(
            get_or<double>(e, ("perfgauge_raw_" + r.events[i]).c_str(), value));
    }
}

}  // namespace

RunResult parse_run_json(const std::string& text, const std::string& origin) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw ResultFileError(fmt::format("{}: not JSON ({})", origin, e.what()));
    }
    if (!j.is_object() || !j.contains("benchmarks") || !j.contains("context")) {
        throw ResultFileError(fmt::format(
            "{}: not a benchmark result (expected an object with 'context' and 'benchmarks', as "
            "perfgauge run --format json writes)",
            origin));
    }
    if (!j["context"].contains("perfgauge")) {
        throw ResultFileError(fmt::format(
            "{}: a Google Benchmark result without perfgauge's samples ('context.perfgauge' is "
            "missing); compare it with Google Benchmark's compare.py, or produce it with "
            "perfgauge run",
            origin));
    }
    RunResult r;
    try {
        read_context(j["context"], r);
        std::map<std::string, std::size_t> index;
        for (const auto& e : j["benchmarks"]) {
            if (get_or<std::string>(e, "run_type", "") != "iteration")
                continue;
            const auto name = e.at("run_name").get<std::string>();
            const auto [it, inserted] = index.emplace(name, r.benchmarks.size());
            if (inserted)
                r.benchmarks.emplace_back();
            add_sample(e, r, r.benchmarks[it->second]);
        }
        // Running fractions are per benchmark, in the median aggregate.
        for (const auto& e : j["benchmarks"]) {
            const auto it = index.find(get_or<std::string>(e, "run_name", ""));
            if (get_or<std::string>(e, "run_type", "") != "aggregate" || it == index.end())
                continue;
            for (std::size_t i = 0; i < r.events.size(); ++i) {
                r.benchmarks[it->second].running_fraction[i] =
                    get_or<double>(e, ("perfgauge_running_fraction_" + r.events[i]).c_str(), 1.0);
            }
        }
    } catch (const json::exception& e) {
        throw ResultFileError(fmt::format("{}: malformed perfgauge result: {}", origin, e.what()));
    }
    if (r.repetitions == 0 && !r.benchmarks.empty())
        r.repetitions = r.benchmarks.front().ns_per_item.size();
    return r;
}

}  // namespace perfgauge::harness
