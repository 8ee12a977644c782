#include "perfgauge/harness/simulation.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/overhead.hpp"
#include "perfgauge/pmu/event_name.hpp"

namespace perfgauge::harness {

namespace {

using nlohmann::json;

// Event `e` of the plan as the simulation reports it: counted when simulated, else refused with
// the plan's reason.
EventColumn simulated_column(const EventPlan& plan, std::size_t e) {
    EventColumn c{plan.events[e], plan.kinds[e], EventSource::simulated, plan.simulated[e], {}};
    if (!c.counted) {
        c.refusal = plan.refusals[e].status.empty() ? EventRefusal{"not simulated", "", ""}
                                                    : plan.refusals[e];
    }
    return c;
}

json batch_json(const SimulatedBatch& b) {
    return {{"name", b.name},
            {"dump", b.dump},
            {"warmup_iterations", b.warmup_iterations},
            {"iterations", b.iterations},
            {"items_per_iteration", b.items_per_iteration},
            {"pauses", b.pauses}};
}

SimulatedBatch batch_from(const json& j) {
    SimulatedBatch b;
    b.name = j.at("name").get<std::string>();
    b.dump = j.at("dump").get<std::string>();
    b.warmup_iterations = j.at("warmup_iterations").get<std::uint64_t>();
    b.iterations = j.at("iterations").get<std::uint64_t>();
    b.items_per_iteration = j.at("items_per_iteration").get<double>();
    b.pauses = j.at("pauses").get<std::uint64_t>();
    return b;
}

// The simulated event behind a name as written ("instructions:u" -> instructions).
const pmu::SimulatedEvent& simulated_event_of(const std::string& written) {
    const auto* event = pmu::find_simulated_event(std::string(pmu::without_modifiers(written)));
    if (event == nullptr)
        throw pmu::SimulationError(fmt::format("'{}' is not a simulated event", written));
    return *event;
}

// A private directory for callgrind's files, removed with everything in it.
class ScratchDir {
  public:
    ScratchDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/perfgauge-sim-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw pmu::SimulationError(
                fmt::format("cannot create a directory for callgrind's output ({}): {}", pattern,
                            std::strerror(errno)));
        }
        path_ = pattern;
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw pmu::SimulationError(fmt::format("cannot read {}", path.string()));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Last level: the highest level that holds data.
const CacheLevel* find_cache(const std::vector<CacheLevel>& caches, int level, bool instruction) {
    const CacheLevel* found = nullptr;
    for (const auto& c : caches) {
        const bool is_instruction = c.type == "Instruction";
        if (is_instruction != instruction)
            continue;
        if (level > 0 ? c.level == level : (found == nullptr || c.level > found->level))
            found = &c;
    }
    return found;
}

}  // namespace

std::string manifest_to_json(const SimulationManifest& m) {
    json j;
    j["empty"] = batch_json(m.empty);
    j["pauses"] = batch_json(m.pauses);
    j["batches"] = json::array();
    for (const auto& b : m.batches)
        j["batches"].push_back(batch_json(b));
    return j.dump(1) + "\n";
}

SimulationManifest manifest_from_json(const std::string& text) {
    try {
        const json j = json::parse(text);
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
                                         std::uint64_t min_items, std::uint64_t ll_bytes) {
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
        batch.pauses =
            run_simulated_batch(b, batch.warmup_iterations, batch.iterations, batch.dump);
        m.batches.push_back(batch);
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
        return static_cast<double>(pmu::simulated_count(*mapped[e], dump_of(b)));
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

SimulatedCaches simulated_caches(const std::vector<CacheLevel>& caches,
                                 std::optional<std::uint64_t> l1d_bytes,
                                 std::optional<std::uint64_t> ll_bytes) {
    SimulatedCaches out;
    auto fit = [&](const CacheLevel* c, const char* which,
                   std::optional<std::uint64_t> size) -> std::optional<pmu::SimCache> {
        if (c == nullptr && !size) {
            out.notes.push_back(fmt::format("{}: not found in sysfs; valgrind detects it", which));
            return std::nullopt;
        }
        // A size the user chose (--l1d/--l3) must reach the simulation even where sysfs has no
        // cache directory (some VMs): otherwise "cold" would be evicted from the user's cache
        // size but simulated in valgrind's CPUID-detected one. Geometry is then assumed.
        constexpr unsigned kAssumedWays = 8;
        constexpr unsigned kAssumedLine = 64;
        if (c == nullptr) {
            out.notes.push_back(
                fmt::format("{}: not found in sysfs; simulated with the size given, {}-way, {} B "
                            "lines (assumed)",
                            which, kAssumedWays, kAssumedLine));
        }
        const pmu::SimCache detected =
            c == nullptr ? pmu::SimCache{*size, kAssumedWays, kAssumedLine}
                         : pmu::SimCache{size.value_or(c->size_bytes), c->ways, c->line_size};
        const auto fitted = pmu::fit_cache_for_valgrind(detected);
        if (!fitted) {
            out.notes.push_back(
                fmt::format("{}: {} B {}-way, line {} B cannot be simulated; valgrind detects it",
                            which, detected.size, detected.ways, detected.line));
            return std::nullopt;
        }
        if (!fitted->note.empty())
            out.notes.push_back(fmt::format("{}: {}", which, fitted->note));
        return fitted->cache;
    };
    out.i1 = fit(find_cache(caches, 1, true), "I1", std::nullopt);
    out.d1 = fit(find_cache(caches, 1, false), "D1", l1d_bytes);
    out.ll = fit(find_cache(caches, 0, false), "LL", ll_bytes);
    return out;
}

namespace {

std::string read_log_quietly(const std::filesystem::path& path) {
    try {
        return read_text(path);
    } catch (const pmu::SimulationError&) {
        return "";
    }
}

std::vector<pmu::CallgrindDump> read_dumps(const std::filesystem::path& dir) {
    std::vector<pmu::CallgrindDump> dumps;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().filename().string().rfind("callgrind.out", 0) == 0)
            dumps.push_back(pmu::parse_callgrind_dump(read_text(entry.path())));
    }
    return dumps;
}

}  // namespace

CommandSimulation simulate_command(pmu::CallgrindSetup setup,
                                   const std::vector<std::string>& command,
                                   const std::vector<std::string>& events) {
    const ScratchDir dir;
    setup.out_file = (dir.path() / "callgrind.out.%p").string();
    setup.log_file = (dir.path() / "valgrind.log").string();
    setup.instrument_from_start = true;
    setup.trace_children = true;
    const auto start = std::chrono::steady_clock::now();
    PendingChild child(pmu::callgrind_command(setup, command));
    child.start();
    CommandSimulation sim;
    sim.exit = child.wait();
    sim.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto dumps = read_dumps(dir.path());
    if (sim.exit.exec_failed || dumps.empty()) {
        throw pmu::SimulationError(
            fmt::format("valgrind could not run '{}' under callgrind ({}){}{}", command.front(),
                        sim.exit.describe(), dumps.empty() ? ", no output" : "", [&] {
                            const auto log = read_log_quietly(setup.log_file);
                            return log.empty() ? std::string() : "; valgrind said:\n" + log;
                        }()));
    }
    sim.processes = dumps.size();
    sim.creator = dumps.front().creator;
    for (const auto& e : events) {
        const auto& event = simulated_event_of(e);
        double total = 0;
        for (const auto& d : dumps)
            total += static_cast<double>(pmu::simulated_count(event, d));
        sim.totals.push_back(total);
    }
    return sim;
}

void merge_simulated(StatResult& r, const EventPlan& plan, const CommandSimulation& sim) {
    std::vector<StatEventResult> events;
    std::size_t next_sim = 0;  // sim.totals follows plan.simulated_events()
    for (std::size_t e = 0; e < plan.events.size(); ++e) {
        const auto native = std::find_if(r.events.begin(), r.events.end(),
                                         [&](const auto& n) { return n.name == plan.events[e]; });
        if (!plan.simulated[e] && native != r.events.end()) {
            events.push_back(*native);
            continue;
        }
        StatEventResult out;
        static_cast<EventColumn&>(out) = simulated_column(plan, e);
        if (out.counted && next_sim < sim.totals.size())
            out.samples = {sim.totals[next_sim++]};
        events.push_back(std::move(out));
    }
    r.events = std::move(events);
}

SimulationResult simulate(const SimulationRequest& request) {
    const ScratchDir dir;
    const auto manifest_path = dir.path() / "manifest.json";
    pmu::CallgrindSetup setup = request.setup;
    setup.out_file = (dir.path() / "callgrind.out.%p").string();
    // valgrind's own chatter ("L3 cache found, using its data...") stays out of the way and
    // is shown only when the run fails.
    const auto log_path = dir.path() / "valgrind.log";
    setup.log_file = log_path.string();
    auto program = request.program;
    program.push_back("--internal-sim-child=" + manifest_path.string());

    const auto start = std::chrono::steady_clock::now();
    PendingChild child(pmu::callgrind_command(setup, program));
    child.start();
    const ExitStatus status = child.wait();
    SimulationResult result;
    result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status.exec_failed || status.signaled || status.code != 0) {
        const std::string log = read_log_quietly(log_path);
        throw pmu::SimulationError(fmt::format("the simulation run ({} under callgrind) {}{}{}",
                                               request.program.front(), status.describe(),
                                               log.empty() ? "" : "; valgrind said:\n", log));
    }
    const auto manifest = manifest_from_json(read_text(manifest_path));
    const auto dumps = read_dumps(dir.path());
    if (!dumps.empty())
        result.creator = dumps.front().creator;
    result.benchmarks = simulated_counts(manifest, dumps, request.events);
    return result;
}

void merge_simulated(RunResult& r, const EventPlan& plan, const SimulationResult& sim) {
    std::map<std::string, const SimulatedCounts*> counts;
    for (const auto& c : sim.benchmarks)
        counts[c.name] = &c;
    const auto simulated = plan.simulated_events();
    std::vector<EventColumn> events;
    std::vector<std::vector<std::vector<double>>> per_item(r.benchmarks.size()),
        raw_per_item(r.benchmarks.size());
    std::vector<std::vector<double>> running(r.benchmarks.size());
    for (std::size_t e = 0; e < plan.events.size(); ++e) {
        const std::string& name = plan.events[e];
        const auto native = std::find_if(r.events.begin(), r.events.end(),
                                         [&](const EventColumn& c) { return c.name == name; });
        const auto sim_index = static_cast<std::size_t>(
            std::find(simulated.begin(), simulated.end(), name) - simulated.begin());
        const bool is_sim = plan.simulated[e];
        // Not native and not simulated: neither backend counts it (zeros, marked not counted).
        const bool is_native = !is_sim && native != r.events.end();
        const auto n = static_cast<std::size_t>(native - r.events.begin());
        events.push_back(is_native ? r.events[n] : simulated_column(plan, e));
        for (std::size_t b = 0; b < r.benchmarks.size(); ++b) {
            const auto& bench = r.benchmarks[b];
            const std::size_t samples = bench.ns_per_item.size();
            if (is_native) {
                per_item[b].push_back(bench.counters_per_item[n]);
                raw_per_item[b].push_back(bench.raw_counters_per_item[n]);
                running[b].push_back(bench.running_fraction[n]);
                continue;
            }
            double value = 0, raw = 0;
            if (is_sim) {
                const auto it = counts.find(bench.name);
                if (it == counts.end()) {
                    throw pmu::SimulationError(
                        fmt::format("the simulation has no counts for {}", bench.name));
                }
                value = it->second->per_item[sim_index];
                raw = it->second->raw_per_item[sim_index];
            }
            per_item[b].push_back(std::vector<double>(samples, value));
            raw_per_item[b].push_back(std::vector<double>(samples, raw));
            running[b].push_back(1.0);
        }
    }
    r.events = std::move(events);
    for (std::size_t b = 0; b < r.benchmarks.size(); ++b) {
        r.benchmarks[b].counters_per_item = std::move(per_item[b]);
        r.benchmarks[b].raw_counters_per_item = std::move(raw_per_item[b]);
        r.benchmarks[b].running_fraction = std::move(running[b]);
    }
}

}  // namespace perfgauge::harness
