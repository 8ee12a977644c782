#include "perfgauge/harness/bmf.hpp"

#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

// Bencher draws lower_value and upper_value as the band around value: the interval of the very
// median that value is, so the band says how precisely it is known.
nlohmann::json measure(const std::vector<double>& samples, double confidence) {
    const Interval ci = median_interval(samples, confidence);
    return {{"value", median(samples)}, {"lower_value", ci.low}, {"upper_value", ci.high}};
}

}  // namespace

std::string bmf_measure_name(const EventColumn& event) {
    return event.source == EventSource::simulated ? event.name + " [sim]" : event.name;
}

std::string render_bmf(const RunResult& result, double confidence) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& b : result.benchmarks) {
        if (b.ns_per_item.empty())
            continue;  // every sample disturbed: nothing to report
        nlohmann::json measures = nlohmann::json::object();
        measures["latency"] = measure(b.ns_per_item, confidence);
        for (std::size_t i = 0; i < result.events.size() && i < b.counters_per_item.size(); ++i) {
            // Not counted, or a Google Benchmark counter this benchmark does not report.
            if (!result.events[i].counted || b.counters_per_item[i].size() != b.ns_per_item.size())
                continue;
            measures[bmf_measure_name(result.events[i])] =
                measure(b.counters_per_item[i], confidence);
        }
        out[b.name] = std::move(measures);
    }
    return json_text(out);
}

}  // namespace perfgauge::harness
