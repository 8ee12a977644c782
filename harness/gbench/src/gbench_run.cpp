// Running the selected benchmarks: in the parent, first under callgrind (when events are
// simulated), then natively with the simulated per-item counts added to each run's counters;
// in the simulation child, recording which dump belongs to which benchmark.
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "gbench_flags.hpp"
#include "gbench_state.hpp"
#include "perfgauge/harness/gbench_counters.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/simulation_valgrind.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/callgrind_output.hpp"

namespace perfgauge::gbench {

namespace {

// Simulation child: prints nothing (the parent reports) and gives each benchmark the dumps of
// its last counted run (one per thread), the one that reached the requested items.
class RecordingReporter final : public benchmark::BenchmarkReporter {
  public:
    explicit RecordingReporter(harness::SimulationManifest& manifest) : manifest_(manifest) {}
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
        AdapterState& s = adapter_state();
        for (const auto& run : runs) {
            if (run.run_type != Run::RT_Iteration || s.pending.empty())
                continue;
            const std::uint64_t last = s.pending.back().run;
            for (const auto& d : s.pending) {
                if (d.run == last)
                    manifest_.batches.push_back({run.run_name.str(), d.trigger, 0, d.items, 1, 0});
            }
            s.pending.clear();
        }
    }

  private:
    harness::SimulationManifest& manifest_;
};

std::size_t run_child() {
    const AdapterState& s = adapter_state();
    // The calibration batches (an empty region, pause/resume pairs) of perfgauge run's child:
    // their counts are subtracted the same way.
    harness::SimulationManifest manifest = harness::run_simulated_batches({}, 0, 0);
    RecordingReporter reporter(manifest);
    const std::size_t n = benchmark::RunSpecifiedBenchmarks(&reporter);
    harness::write_output_file(*s.flags.sim_child_manifest, harness::manifest_to_json(manifest));
    return n;
}

// Parent: the selected benchmarks under callgrind, per-item counts by run name.
void simulate_selected(AdapterState& s) {
    const auto caches = harness::simulated_caches(harness::collect_system_info().caches);
    harness::SimulationRequest request;
    request.setup.valgrind = *s.valgrind;
    request.setup.i1 = caches.i1;
    request.setup.d1 = caches.d1;
    request.setup.ll = caches.ll;
    request.setup.separate_threads = true;  // ->Threads(N): each thread dumps its own counts
    request.program = {harness::own_executable()};
    for (auto& a : simulation_child_arguments(s.user_args))
        request.program.push_back(std::move(a));
    request.program.push_back(fmt::format("--perfgauge_sim_items={}", s.flags.sim_items));
    request.events = s.simulated_events;
    fmt::print(stderr, "perfgauge: simulating the selected benchmarks under callgrind ...\n");
    const auto result = harness::simulate(request);
    // One batch per thread of a benchmark: per item across them = sum of counts / sum of items.
    std::map<std::string, std::pair<std::vector<double>, double>> totals;
    for (const auto& b : result.benchmarks) {
        auto& [counts, items] = totals[b.name];
        counts.resize(b.per_item.size(), 0.0);
        for (std::size_t e = 0; e < b.per_item.size(); ++e)
            counts[e] += b.per_item[e] * b.items;
        items += b.items;
    }
    for (auto& [name, t] : totals) {
        for (auto& c : t.first)
            c = t.second > 0 ? c / t.second : 0;
        s.simulated[name] = t.first;
    }
    benchmark::AddCustomContext(
        "perfgauge_sim",
        fmt::format("counters marked [sim] are per item, simulated by {} under callgrind over at "
                    "least {} items per benchmark (a run of 1, 10, 100... iterations), "
                    "deterministic; not hardware counts",
                    result.creator, s.flags.sim_items));
}

// Forwards to Google Benchmark's own reporter, adding the simulated per-item counters to every
// run (and to the mean and median of repetitions: the simulated count is the same each time).
class SimulatedCountersReporter final : public benchmark::BenchmarkReporter {
  public:
    explicit SimulatedCountersReporter(benchmark::BenchmarkReporter* inner) : inner_(inner) {}
    bool ReportContext(const Context& context) override {
        // Google Benchmark points this reporter at its streams; the inner one writes there.
        inner_->SetOutputStream(&GetOutputStream());
        inner_->SetErrorStream(&GetErrorStream());
        return inner_->ReportContext(context);
    }
    void ReportRuns(const std::vector<Run>& runs) override {
        const AdapterState& s = adapter_state();
        std::vector<Run> out = runs;
        for (auto& run : out) {
            const bool central = run.run_type == Run::RT_Iteration ||
                                 run.aggregate_name == "mean" || run.aggregate_name == "median";
            const auto it = s.simulated.find(run.run_name.str());
            if (!central || run.error_occurred || it == s.simulated.end())
                continue;
            for (std::size_t e = 0; e < s.simulated_events.size(); ++e)
                run.counters[counter_name(s.simulated_events[e], true)] = it->second[e];
        }
        inner_->ReportRuns(out);
    }
    void Finalize() override { inner_->Finalize(); }

  private:
    benchmark::BenchmarkReporter* inner_;
};

std::unique_ptr<benchmark::BenchmarkReporter> file_reporter(const std::string& format) {
    if (format == "console")
        return std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
    if (format == "csv") {
        // Deprecated, yet --benchmark_out_format=csv is still Google Benchmark's own option.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
    }
    return std::make_unique<benchmark::JSONReporter>();
}

}  // namespace

std::size_t run_specified_benchmarks() {
    AdapterState& s = adapter_state();
    if (is_simulation_child())
        return run_child();
    if (!s.simulated_events.empty() && !lists_tests_only(s.user_args)) {
        try {
            simulate_selected(s);
        } catch (const std::exception& e) {
            fmt::print(stderr, "perfgauge: simulation failed, no [sim] counters: {}\n", e.what());
        }
    }
    SimulatedCountersReporter display(benchmark::CreateDefaultDisplayReporter());
    if (!flag_value(s.user_args, "benchmark_out"))
        return benchmark::RunSpecifiedBenchmarks(&display);
    const auto inner =
        file_reporter(flag_value(s.user_args, "benchmark_out_format").value_or("json"));
    SimulatedCountersReporter file(inner.get());
    return benchmark::RunSpecifiedBenchmarks(&display, &file);
}

int run_main(int argc, char** argv, bool caller_optimized) {
    if (!initialize(&argc, argv, caller_optimized))
        return 2;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 2;
    run_specified_benchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace perfgauge::gbench
