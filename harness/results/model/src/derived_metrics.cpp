#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>

#include "perfgauge/harness/stat_result.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/pmu/event_name.hpp"

namespace perfgauge::harness {

namespace {

// "task-clock:u" -> "task-clock"; "perf::cycles" -> "cycles".
std::string base_name(const std::string& name) {
    std::string out(pmu::without_modifiers(name));
    if (const auto sep = out.find("::"); sep != std::string::npos)
        out = out.substr(sep + 2);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace

std::vector<DerivedMetric> derive_metrics(const StatResult& result) {
    std::map<std::string, double> medians;
    std::map<std::string, EventSource> sources;
    for (const auto& e : result.events) {
        if (e.counted && !e.samples.empty()) {
            medians.emplace(base_name(e.name), median(e.samples));
            sources.emplace(base_name(e.name), e.source);
        }
    }
    // "hw", or "hw+sim" when the inputs come from different sources.
    const auto from = [&](std::initializer_list<const char*> inputs) {
        std::string out;
        for (const char* input : inputs) {
            const std::string name(source_name(sources.at(input)));
            if (out.find(name) == std::string::npos)
                out += (out.empty() ? "" : "+") + name;
        }
        return out;
    };
    auto has = [&](const char* name) { return medians.count(name) > 0; };
    std::vector<DerivedMetric> out;
    if (has("instructions") && has("cycles") && medians["cycles"] > 0) {
        out.push_back({"IPC (instructions per cycle)", medians["instructions"] / medians["cycles"],
                       "ratio", from({"instructions", "cycles"})});
    }
    if (has("branch-misses") && has("branches") && medians["branches"] > 0) {
        out.push_back({"branch-miss rate (% of branches)",
                       100.0 * medians["branch-misses"] / medians["branches"], "%",
                       from({"branch-misses", "branches"})});
    }
    if (has("instructions") && medians["instructions"] > 0) {
        for (const char* misses : {"branch-misses", "cache-misses"}) {
            if (has(misses)) {
                out.push_back({std::string(misses) + " per 1k instructions",
                               1000.0 * medians[misses] / medians["instructions"], "MPKI",
                               from({misses, "instructions"})});
            }
        }
    }
    // The elapsed time is the whole command's: with --markers or --delay task-clock covers only
    // part of it, and their ratio would understate the CPUs used.
    if (has("task-clock") && !result.elapsed_seconds.empty() && !result.markers &&
        result.delay_ms == 0) {
        const double elapsed = median(result.elapsed_seconds);
        if (elapsed > 0)
            out.push_back({"CPUs utilized", medians["task-clock"] / 1e9 / elapsed, "CPUs",
                           from({"task-clock"})});
    }
    return out;
}

}  // namespace perfgauge::harness
