// The child side of the simulated backend (inside valgrind: each benchmark between client
// requests), the manifest it writes, and mapping the dumps back to counts per item.
#include "perfgauge/harness/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/forked_tasks.hpp"
#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/overhead.hpp"
#include "simulated_event.hpp"

namespace perfgauge::harness {

namespace {

using nlohmann::json;

json batch_json(const SimulatedBatch& b) {
    return {{"name", b.name},
            {"dump", b.dump},
            {"warmup_iterations", b.warmup_iterations},
            {"iterations", b.iterations},
            {"items_per_iteration", b.items_per_iteration},
            {"pauses", b.pauses},
            {"seconds", b.seconds}};
}

SimulatedBatch batch_from(const json& j) {
    SimulatedBatch b;
    b.name = j.at("name").get<std::string>();
    b.dump = j.at("dump").get<std::string>();
    b.warmup_iterations = j.at("warmup_iterations").get<std::uint64_t>();
    b.iterations = j.at("iterations").get<std::uint64_t>();
    b.items_per_iteration = j.at("items_per_iteration").get<double>();
    b.pauses = j.at("pauses").get<std::uint64_t>();
    b.seconds = j.value("seconds", 0.0);
    return b;
}

}  // namespace

std::string manifest_to_json(const SimulationManifest& m) {
    json j;
    j["empty"] = batch_json(m.empty);
    j["pauses"] = batch_json(m.pauses);
    j["batches"] = json::array();
    for (const auto& b : m.batches)
        j["batches"].push_back(batch_json(b));
    return json_text(j, 1);
}

SimulationManifest manifest_from_json(const std::string& text) {
    try {
        const json j = parse_json_bounded(text, "the simulation manifest");
        SimulationManifest m;
        m.empty = batch_from(j.at("empty"));
        m.pauses = batch_from(j.at("pauses"));
        for (const auto& b : j.at("batches"))
            m.batches.push_back(batch_from(b));
        return m;
    } catch (const json::exception& e) {
        throw pmu::SimulationError(fmt::format("malformed simulation manifest: {}", e.what()));
    }
}

namespace {

// The simulated BatchState: pause()/resume() turn callgrind's collection off and on, so paused
// set-up work (clflush, ...) is executed but not counted. No clock: counts are deterministic.
class CallgrindBatchState final : public BatchState {
  public:
    void pause() override { pmu::callgrind::toggle_collect(); }
    void resume() override {
        pmu::callgrind::toggle_collect();
        ++pauses_;
    }
    void reset(std::uint64_t iterations) {
        iterations_ = iterations;
        pauses_ = 0;
    }
    std::uint64_t pauses() const { return pauses_; }
};

// Runs `b` with instrumentation on: warm-up, zero, the counted iterations, dump. Returns the
// pause/resume pairs inside the counted iterations.
std::uint64_t run_simulated_batch(const Benchmark& b, std::uint64_t warmup,
                                  std::uint64_t iterations, const std::string& dump) {
    CallgrindBatchState state;
    pmu::callgrind::start_instrumentation();
    if (warmup > 0) {
        state.reset(warmup);
        b.run(state);
    }
    pmu::callgrind::zero_stats();
    state.reset(iterations);
    b.run(state);
    pmu::callgrind::dump_stats(dump.c_str());
    pmu::callgrind::stop_instrumentation();
    return state.pauses();
}

}  // namespace

SimulationManifest run_simulated_batches(const std::vector<Benchmark>& benchmarks,
                                         std::uint64_t min_items, std::uint64_t ll_bytes,
                                         unsigned jobs) {
    SimulationManifest m;
    const Benchmark empty{"(empty)", 1, 0, [](BatchState&) {}, {}};
    const Benchmark pauses{"(pauses)",
                           1,
                           0,
                           [](BatchState& s) {
                               for (std::uint64_t i = 0; i < kCalibrationPauses; ++i) {
                                   s.pause();
                                   s.resume();
                               }
                           },
                           {}};
    m.empty = {empty.name, "perfgauge:empty", 0, 1, 1, 0};
    m.empty.pauses = run_simulated_batch(empty, 0, 1, m.empty.dump);
    m.pauses = {pauses.name, "perfgauge:pauses", 0, 1, 1, 0};
    m.pauses.pauses = run_simulated_batch(pauses, 0, 1, m.pauses.dump);
    for (std::size_t i = 0; i < benchmarks.size(); ++i) {
        const Benchmark& b = benchmarks[i];
        SimulatedBatch batch;
        batch.name = b.name;
        batch.dump = fmt::format("perfgauge:{}", i);
        batch.items_per_iteration = b.items_per_iteration;
        batch.iterations = std::max<std::uint64_t>(
            1, static_cast<std::uint64_t>(
                   std::ceil(static_cast<double>(min_items) / b.items_per_iteration)));
        const bool cacheable = b.bytes_per_iteration <= static_cast<double>(ll_bytes);
        batch.warmup_iterations = cacheable ? batch.iterations : 0;
        m.batches.push_back(batch);
    }
    // Each benchmark in a process of its own, forked from this one as the calibration left
    // it: every benchmark starts from the same simulated caches and predictor, so its counts
    // are the same whichever benchmarks ran before it or beside it, and whatever `jobs` is.
    // The longest first, so that the last to finish is a short one.
    auto cost = [&](std::size_t i) {
        const auto& b = m.batches[i];
        return static_cast<double>(b.iterations + b.warmup_iterations) * b.items_per_iteration;
    };
    std::vector<std::size_t> order(m.batches.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return cost(a) > cost(b); });
    const auto outcomes = run_forked(
        order, jobs,
        [&](std::size_t i) {
            const auto& b = m.batches[i];
            return run_simulated_batch(benchmarks[i], b.warmup_iterations, b.iterations, b.dump);
        },
        [&](std::size_t i) { return m.batches[i].name; });
    for (std::size_t i = 0; i < m.batches.size(); ++i) {
        m.batches[i].pauses = outcomes[i].value;
        m.batches[i].seconds = outcomes[i].seconds;
    }
    return m;
}

std::vector<SimulatedCounts> simulated_counts(const SimulationManifest& manifest,
                                              const std::vector<pmu::CallgrindDump>& dumps,
                                              const std::vector<std::string>& events) {
    std::map<std::string, const pmu::CallgrindDump*> by_trigger;
    for (const auto& d : dumps)
        by_trigger[d.trigger] = &d;
    auto dump_of = [&](const SimulatedBatch& b) -> const pmu::CallgrindDump& {
        const auto it = by_trigger.find("Client Request: " + b.dump);
        if (it == by_trigger.end()) {
            throw pmu::SimulationError(
                fmt::format("callgrind wrote no dump for {} ('{}')", b.name, b.dump));
        }
        return *it->second;
    };
    std::vector<const pmu::SimulatedEvent*> mapped;
    for (const auto& e : events)
        mapped.push_back(&simulated_event_of(e));
    auto count = [&](const SimulatedBatch& b, std::size_t e) {
        return pmu::simulated_count(*mapped[e], dump_of(b));
    };

    // Simulated counts are deterministic: one calibration batch each is its own median.
    auto overhead_of = [&](const SimulatedBatch& b) {
        return calibrate_overhead(1, mapped.size(), [&](double&, std::vector<double>& counts) {
            for (std::size_t e = 0; e < mapped.size(); ++e)
                counts[e] = count(b, e);
        });
    };
    const Overhead empty = overhead_of(manifest.empty);
    const Overhead pause =
        per_pause(overhead_of(manifest.pauses), empty, static_cast<double>(manifest.pauses.pauses));

    std::vector<SimulatedCounts> out;
    for (const auto& b : manifest.batches) {
        SimulatedCounts c;
        c.name = b.name;
        c.items = static_cast<double>(b.iterations) * b.items_per_iteration;
        c.seconds = b.seconds;
        for (std::size_t e = 0; e < mapped.size(); ++e) {
            const double raw = count(b, e);
            c.raw_per_item.push_back(raw / c.items);
            // The calibration batch can miss where a long batch does not (its first lines after
            // instrumentation starts): a corrected count stops at zero.
            c.per_item.push_back(std::max(0.0, corrected(raw, empty.counts[e], pause.counts[e],
                                                         static_cast<double>(b.pauses))) /
                                 c.items);
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace perfgauge::harness
