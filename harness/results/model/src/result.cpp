#include "perfgauge/harness/result.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

namespace {

// One past the highest round any sample or disturbed sample of `r` was taken in.
std::size_t rounds_used(const RunResult& r) {
    std::size_t end = 0;
    for (const auto& b : r.benchmarks) {
        for (std::size_t k = 0; k < b.ns_per_item.size(); ++k)
            end = std::max(end, (k < b.rounds.size() ? b.rounds[k] : k) + 1);
        for (const auto& d : b.disturbed)
            end = std::max(end, d.round + 1);
    }
    return end;
}

void append_samples(BenchmarkResult& into, const BenchmarkResult& from, std::size_t process,
                    std::size_t round_offset) {
    // What an item is, from the first part with samples: a part without any (every sample
    // disturbed) may come from a file that did not say (its aggregate carried it only later).
    if (into.ns_per_item.empty() && !from.ns_per_item.empty()) {
        into.items_per_iteration = from.items_per_iteration;
        into.bytes_per_iteration = from.bytes_per_iteration;
    }
    // One value per sample once any part has them: a part timed with its snapshots (an older
    // file, or a machine where they are no system call) has none to give.
    if (!from.snapshot_pause_ns.empty() || !into.snapshot_pause_ns.empty()) {
        into.snapshot_pause_ns.resize(into.ns_per_item.size(), std::nan(""));
        for (std::size_t k = 0; k < from.ns_per_item.size(); ++k)
            into.snapshot_pause_ns.push_back(
                k < from.snapshot_pause_ns.size() ? from.snapshot_pause_ns[k] : std::nan(""));
    }
    for (std::size_t k = 0; k < from.ns_per_item.size(); ++k) {
        into.ns_per_item.push_back(from.ns_per_item[k]);
        into.raw_ns_per_item.push_back(from.raw_ns_per_item[k]);
        into.rounds.push_back(round_of(from, k) + round_offset);
        into.processes.push_back(process);
        if (k < from.cpu_ns_per_item.size())
            into.cpu_ns_per_item.push_back(from.cpu_ns_per_item[k]);
    }
    for (std::size_t e = 0; e < from.counters_per_item.size(); ++e) {
        auto& counters = into.counters_per_item[e];
        counters.insert(counters.end(), from.counters_per_item[e].begin(),
                        from.counters_per_item[e].end());
        auto& raw = into.raw_counters_per_item[e];
        raw.insert(raw.end(), from.raw_counters_per_item[e].begin(),
                   from.raw_counters_per_item[e].end());
        into.running_fraction[e] = std::min(into.running_fraction[e], from.running_fraction[e]);
    }
    for (auto d : from.disturbed) {
        d.round += round_offset;
        into.disturbed.push_back(d);
    }
}

bool same_event_names(const RunResult& a, const RunResult& b) {
    return std::equal(a.events.begin(), a.events.end(), b.events.begin(), b.events.end(),
                      [](const EventColumn& x, const EventColumn& y) { return x.name == y.name; });
}

// Whether a warning is about `topic` (it starts "topic: ").
auto about(std::string_view topic) {
    return [prefix = std::string(topic) + ": "](const std::string& warning) {
        return warning.rfind(prefix, 0) == 0;
    };
}

// What a run that combines `part` keeps of its facts: an interruption, the fastest chain probe
// (the machine at its best), the largest drift since a pair calibration, every warning once.
void absorb_run_facts(RunResult& into, const RunResult& part) {
    if (!part.interrupted_by.empty())
        into.interrupted_by = part.interrupted_by;
    if (part.machine_probe_ns > 0 &&
        (into.machine_probe_ns <= 0 || part.machine_probe_ns < into.machine_probe_ns))
        into.machine_probe_ns = part.machine_probe_ns;
    if (part.pause_calibration_drift &&
        (!into.pause_calibration_drift ||
         std::abs(*part.pause_calibration_drift) > std::abs(*into.pause_calibration_drift)))
        into.pause_calibration_drift = part.pause_calibration_drift;
    // Each process spun for its own gaps: the run keeps the part that lost most, and its one
    // warning about them, not one per process.
    const auto lost = [](const RunResult& r) {
        return r.system.cpu_gaps ? r.system.cpu_gaps->lost_share : -1.0;
    };
    const bool part_lost_more = lost(part) > lost(into);
    if (part_lost_more)
        into.system.cpu_gaps = part.system.cpu_gaps;
    const auto about_gaps = about(kCpuGapsTopic);
    const auto about_load = about(kLoadTopic);
    for (const auto& w : part.warnings) {
        if (about_gaps(w)) {
            const auto it = std::find_if(into.warnings.begin(), into.warnings.end(), about_gaps);
            if (it == into.warnings.end())
                into.warnings.push_back(w);
            else if (part_lost_more)
                *it = w;
            continue;
        }
        // The load average, read by each process a few seconds apart, once (the first's).
        if (about_load(w) && std::any_of(into.warnings.begin(), into.warnings.end(), about_load))
            continue;
        if (std::find(into.warnings.begin(), into.warnings.end(), w) == into.warnings.end())
            into.warnings.push_back(w);
    }
}

// A warning that only some of the parts gave (most often about one benchmark's samples) says
// which: the merged benchmark counts every part's samples, so one process's "only 4 of 5
// samples undisturbed" read as the benchmark's would contradict the table beside it. The
// machine-wide warnings (the load, the gaps: one kept of all) are left as they are.
void name_partial_warnings(RunResult& merged, const std::vector<RunResult>& parts,
                           const std::function<std::string(std::size_t)>& origin) {
    const auto about_gaps = about(kCpuGapsTopic);
    const auto about_load = about(kLoadTopic);
    for (auto& w : merged.warnings) {
        if (about_gaps(w) || about_load(w))
            continue;
        std::vector<std::string> from;
        for (std::size_t p = 0; p < parts.size(); ++p) {
            const auto& ws = parts[p].warnings;
            if (std::find(ws.begin(), ws.end(), w) != ws.end())
                from.push_back(origin(p));
        }
        if (!from.empty() && from.size() < parts.size())
            w += fmt::format(" (in {})", fmt::join(from, ", "));
    }
}

// The parts' copy-probe medians, averaged (RunResult::machine_copy_probe_ns of a combined run).
void average_copy_probes(RunResult& into, const std::vector<RunResult>& parts) {
    double sum = 0;
    for (const auto& part : parts)
        sum += part.machine_copy_probe_ns;
    into.machine_copy_probe_ns = sum / static_cast<double>(parts.size());
}

}  // namespace

std::string_view kind_description(ResultKind kind) {
    switch (kind) {
        case ResultKind::run:
            return "a perfgauge run result";
        case ResultKind::stat:
            return "a perfgauge stat result";
        case ResultKind::google_benchmark:
            return "a Google Benchmark result";
    }
    return "a result";
}

std::string_view sample_unit(ResultKind kind) {
    switch (kind) {
        case ResultKind::run:
            return "item";
        case ResultKind::stat:
            return "run";
        case ResultKind::google_benchmark:
            return "iteration";
    }
    return "item";
}

RunResult merge_processes(std::vector<RunResult> parts, std::span<const std::string> labels) {
    if (parts.empty())
        throw std::invalid_argument("no measuring process produced a result");
    RunResult merged = parts.front();
    for (auto& b : merged.benchmarks) {
        b.ns_per_item.clear();
        b.raw_ns_per_item.clear();
        b.rounds.clear();
        b.processes.clear();
        b.cpu_ns_per_item.clear();
        b.snapshot_pause_ns.clear();
        b.disturbed.clear();
        for (auto& c : b.counters_per_item)
            c.clear();
        for (auto& c : b.raw_counters_per_item)
            c.clear();
    }
    // What the errors call part p: its label, else its place among the measuring processes.
    const auto name = [&](std::size_t p) {
        if (p < labels.size())
            return labels[p];
        return p == 0 ? std::string("the first measuring process")
                      : fmt::format("measuring process {} of {}", p + 1, parts.size());
    };
    merged.repetitions = 0;
    merged.processes = parts.size();
    std::size_t round_offset = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const RunResult& part = parts[p];
        if (!same_event_names(part, merged) || part.benchmarks.size() != merged.benchmarks.size()) {
            throw std::invalid_argument(fmt::format(
                "{} did not measure the same benchmarks and events as {}", name(p), name(0)));
        }
        for (std::size_t i = 0; i < part.benchmarks.size(); ++i) {
            if (part.benchmarks[i].name != merged.benchmarks[i].name) {
                throw std::invalid_argument(fmt::format("{} measured '{}' where {} measured '{}'",
                                                        name(p), part.benchmarks[i].name, name(0),
                                                        merged.benchmarks[i].name));
            }
            append_samples(merged.benchmarks[i], part.benchmarks[i], p, round_offset);
        }
        round_offset += rounds_used(part);
        merged.repetitions += part.repetitions;
        absorb_run_facts(merged, part);
    }
    average_copy_probes(merged, parts);
    if (parts.size() > 1) {
        name_partial_warnings(merged, parts, [&](std::size_t p) {
            return p < labels.size()
                       ? labels[p]
                       : fmt::format("measuring process {} of {}", p + 1, parts.size());
        });
    }
    return merged;
}

RunResult join_benchmarks(std::vector<RunResult> parts) {
    if (parts.empty())
        throw std::invalid_argument("no benchmark was measured");
    RunResult joined = parts.front();
    joined.benchmarks.clear();
    joined.repetitions = 0;
    std::size_t round_offset = 0;
    for (const RunResult& part : parts) {
        if (!same_event_names(part, joined))
            throw std::invalid_argument("the benchmarks were not measured with the same events");
        for (const BenchmarkResult& b : part.benchmarks) {
            for (const BenchmarkResult& earlier : joined.benchmarks) {
                if (earlier.name == b.name)
                    throw std::invalid_argument(fmt::format("'{}' was measured twice", b.name));
            }
            joined.benchmarks.push_back(b);
            BenchmarkResult& moved = joined.benchmarks.back();
            moved.rounds.clear();
            for (std::size_t k = 0; k < b.ns_per_item.size(); ++k)
                moved.rounds.push_back(round_of(b, k) + round_offset);
            for (auto& d : moved.disturbed)
                d.round += round_offset;
        }
        round_offset += rounds_used(part);
        joined.repetitions = std::max(joined.repetitions, part.repetitions);
        // A benchmark may take more processes than another (run --against adds pairs until its
        // interval is narrow enough): one with fewer simply has no samples from the later ones.
        joined.processes = std::max(joined.processes, part.processes);
        absorb_run_facts(joined, part);
    }
    average_copy_probes(joined, parts);
    return joined;
}

double median_snapshot_pause_ns(const BenchmarkResult& b) {
    std::vector<double> paused;
    std::copy_if(b.snapshot_pause_ns.begin(), b.snapshot_pause_ns.end(), std::back_inserter(paused),
                 [](double v) { return std::isfinite(v); });
    return paused.empty() ? std::nan("") : median(paused);
}

std::vector<std::vector<std::size_t>> samples_by_process(const BenchmarkResult& b) {
    const auto process_of = [&](std::size_t i) {
        return i < b.processes.size() ? b.processes[i] : 0;
    };
    std::map<std::size_t, std::vector<std::size_t>> by_process;
    for (std::size_t i = 0; i < b.ns_per_item.size(); ++i)
        by_process[process_of(i)].push_back(i);
    std::vector<std::vector<std::size_t>> out;
    for (auto& [process, samples] : by_process) {
        std::stable_sort(samples.begin(), samples.end(), [&](std::size_t x, std::size_t y) {
            return round_of(b, x) < round_of(b, y);
        });
        out.push_back(std::move(samples));
    }
    return out;
}

std::vector<std::vector<double>> time_series_by_process(const BenchmarkResult& b) {
    std::vector<std::vector<double>> out;
    for (const auto& samples : samples_by_process(b)) {
        out.emplace_back();
        for (const std::size_t i : samples)
            out.back().push_back(b.ns_per_item[i]);
    }
    return out;
}

std::vector<std::size_t> time_blocks(const BenchmarkResult& b, std::size_t max_per_process,
                                     std::size_t min_size) {
    std::vector<std::size_t> block(b.ns_per_item.size(), 0);
    std::size_t next = 0;
    for (const auto& samples : samples_by_process(b)) {
        const std::size_t count =
            std::clamp<std::size_t>(samples.size() / std::max<std::size_t>(min_size, 1), 1,
                                    std::max<std::size_t>(max_per_process, 1));
        for (std::size_t k = 0; k < samples.size(); ++k)
            block[samples[k]] = next + k * count / samples.size();
        next += count;
    }
    return block;
}

std::vector<std::string> refusal_lines(const RunResult& result) {
    std::vector<std::string> out;
    for (const auto& e : result.events) {
        if (!e.counted)
            out.push_back(refusal_line(e));
    }
    return out;
}

}  // namespace perfgauge::harness
