// The simulated backend's pure parts: which events are simulated, counts per item from
// callgrind dumps, merging into a native result, labels in every output format.
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "../../support/temp_dir.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "simulated_run_fixtures.hpp"

namespace perfgauge::harness {
namespace {

// A machine whose PMU refuses every hardware event (a VM), or accepts them all.
NativeProber fake_prober(bool pmu) {
    return [pmu](const pmu::EventTerm& term) {
        NativeProbe p;
        p.spec.name = pmu::term_text(term);
        static const std::map<std::string, pmu::EventKind> kinds = {
            {"instructions", pmu::EventKind::hardware},
            {"branch-misses", pmu::EventKind::hardware},
            {"cycles", pmu::EventKind::hardware},
            {"L1-dcache-load-misses", pmu::EventKind::hw_cache},
            {"task-clock", pmu::EventKind::software},
            {"page-faults", pmu::EventKind::software}};
        const auto it = kinds.find(term.name);
        if (it == kinds.end()) {
            p.known = false;
            p.opened = false;
            return p;
        }
        p.kind = it->second;
        p.opened = pmu || !pmu::needs_hardware_pmu(p.kind);
        if (!p.opened)
            p.reason = "not supported: this machine exposes no hardware PMU";
        return p;
    };
}

EventPlan plan(const std::string& list, Backend backend, bool valgrind, bool pmu) {
    return plan_events(pmu::parse_event_list(list), backend, valgrind, fake_prober(pmu));
}

TEST(EventPlan, AutoSimulatesWhatTheKernelRefused) {
    const auto p =
        plan("cycles,instructions,branch-misses,task-clock", Backend::automatic, true, false);
    EXPECT_EQ(p.events,
              (std::vector<std::string>{"cycles", "instructions", "branch-misses", "task-clock"}));
    EXPECT_EQ(p.simulated, (std::vector<bool>{false, true, true, false}));
    // cycles stays native, so the run reports why the kernel refused it.
    EXPECT_EQ(p.native_list_text(), "cycles,task-clock");
    EXPECT_TRUE(p.unsupported().empty());
    EXPECT_NE(p.notice.find("instructions, branch-misses: simulated"), std::string::npos)
        << p.notice;
    EXPECT_NE(p.notice.find("no hardware PMU"), std::string::npos) << p.notice;
}

TEST(EventPlan, AutoCountsNativelyWhereThePmuWorks) {
    const auto p = plan("instructions,branch-misses,task-clock", Backend::automatic, true, true);
    EXPECT_FALSE(p.any_simulated());
    EXPECT_EQ(p.native_list_text(), "instructions,branch-misses,task-clock");
    EXPECT_TRUE(p.notice.empty());
}

TEST(EventPlan, AutoWithoutValgrindLeavesRefusalsToTheNativeRun) {
    const auto p = plan("instructions,task-clock", Backend::automatic, false, false);
    EXPECT_FALSE(p.any_simulated());
    EXPECT_EQ(p.native_list_text(), "instructions,task-clock");
    // A simulation-only name cannot fall back on anything.
    const auto only = plan("LLC-misses,task-clock", Backend::automatic, false, false);
    EXPECT_EQ(only.native_list_text(), "task-clock");
    ASSERT_EQ(only.unsupported().size(), 1u);
    EXPECT_NE(only.unsupported()[0].find("apt-get install valgrind"), std::string::npos);
}

TEST(EventPlan, PerfNeverSimulates) {
    const auto p = plan("instructions,task-clock", Backend::perf, true, false);
    EXPECT_FALSE(p.any_simulated());
    EXPECT_EQ(p.native_list_text(), "instructions,task-clock");
    try {
        plan("LLC-misses", Backend::perf, true, false);
        FAIL() << "a simulation-only name under --backend perf";
    } catch (const pmu::EventError& e) {
        EXPECT_NE(std::string(e.what()).find("--backend sim"), std::string::npos) << e.what();
    }
}

TEST(EventPlan, SimSimulatesEveryHardwareEventEvenWithAPmu) {
    const auto p = plan("cycles,instructions:u,instructions:k,L1-dcache-misses,page-faults",
                        Backend::sim, true, true);
    EXPECT_EQ(p.simulated, (std::vector<bool>{false, true, false, true, false}));
    EXPECT_EQ(p.native_list_text(), "page-faults");
    ASSERT_EQ(p.unsupported().size(), 2u);
    EXPECT_NE(p.unsupported()[0].find("cycles: not simulated"), std::string::npos);
    EXPECT_NE(p.unsupported()[1].find("user space only"), std::string::npos);
    EXPECT_EQ(p.simulated_events(),
              (std::vector<std::string>{"instructions:u", "L1-dcache-misses"}));
    EXPECT_NE(p.notice.find("--backend sim"), std::string::npos);
}

TEST(EventPlan, ExplicitGroupsKeepTheirNativeMembersTogether) {
    const auto p = plan("{instructions,task-clock,page-faults},cycles", Backend::sim, true, false);
    EXPECT_EQ(p.native_list_text(), "{task-clock,page-faults}");
}

TEST(EventPlan, BackendNames) {
    EXPECT_EQ(parse_backend("auto"), Backend::automatic);
    EXPECT_EQ(parse_backend("perf"), Backend::perf);
    EXPECT_EQ(parse_backend("sim"), Backend::sim);
    EXPECT_THROW(parse_backend("callgrind"), std::invalid_argument);
    EXPECT_STREQ(backend_name(Backend::automatic), "auto");
}

pmu::CallgrindDump dump(const std::string& reason, std::uint64_t ir, std::uint64_t bcm) {
    return pmu::parse_callgrind_dump(fmt::format(
        "# callgrind format\ndesc: Trigger: Client Request: {}\nevents: Ir Bc Bcm Bi Bim\n"
        "summary: {} 0 {} 0 0\n",
        reason, ir, bcm));
}

SimulationManifest manifest() {
    SimulationManifest m;
    m.empty = {"(empty)", "perfgauge:empty", 0, 1, 1, 0};
    m.pauses = {"(pauses)", "perfgauge:pauses", 0, 1, 1, kCalibrationPauses};
    m.batches = {{"a", "perfgauge:0", 3, 3, 1000, 5}, {"b", "perfgauge:1", 0, 2, 500, 0}};
    return m;
}

TEST(SimulatedCounts, SubtractTheCalibratedCostsAndDivideByItems) {
    // Calibration: a batch costs 100 instructions, a pause/resume pair 10.
    const std::vector<pmu::CallgrindDump> dumps = {
        dump("perfgauge:empty", 100, 1), dump("perfgauge:pauses", 100 + 16 * 10, 1),
        dump("perfgauge:0", 100 + 5 * 10 + 3000 * 7, 1 + 3000),
        dump("perfgauge:1", 100 + 1000 * 30, 1)};
    const auto counts = simulated_counts(manifest(), dumps, {"instructions", "branch-misses:u"});
    ASSERT_EQ(counts.size(), 2u);
    EXPECT_EQ(counts[0].name, "a");
    EXPECT_DOUBLE_EQ(counts[0].items, 3000);
    EXPECT_DOUBLE_EQ(counts[0].per_item[0], 7.0);
    EXPECT_DOUBLE_EQ(counts[0].raw_per_item[0], (100 + 50 + 21000) / 3000.0);
    EXPECT_DOUBLE_EQ(counts[0].per_item[1], 1.0);
    EXPECT_DOUBLE_EQ(counts[1].per_item[0], 30.0);
    EXPECT_DOUBLE_EQ(counts[1].per_item[1], 0.0);
}

TEST(SimulatedCounts, MissingDumpsAndUnknownEventsAreErrors) {
    const std::vector<pmu::CallgrindDump> partial = {
        dump("perfgauge:empty", 1, 0), dump("perfgauge:pauses", 1, 0), dump("perfgauge:0", 1, 0)};
    EXPECT_THROW(simulated_counts(manifest(), partial, {"instructions"}), pmu::SimulationError);
    const std::vector<pmu::CallgrindDump> all = {
        dump("perfgauge:empty", 1, 0), dump("perfgauge:pauses", 1, 0), dump("perfgauge:0", 1, 0),
        dump("perfgauge:1", 1, 0)};
    EXPECT_THROW(simulated_counts(manifest(), all, {"cycles"}), pmu::SimulationError);
}

TEST(SimulationManifest, RoundTripsThroughJson) {
    const auto m = manifest();
    const auto back = manifest_from_json(manifest_to_json(m));
    ASSERT_EQ(back.batches.size(), 2u);
    EXPECT_EQ(back.batches[0].name, "a");
    EXPECT_EQ(back.batches[0].warmup_iterations, 3u);
    EXPECT_EQ(back.batches[0].pauses, 5u);
    EXPECT_DOUBLE_EQ(back.batches[1].items_per_iteration, 500);
    EXPECT_EQ(back.pauses.pauses, kCalibrationPauses);
    EXPECT_THROW(manifest_from_json("{\"batches\": []}"), pmu::SimulationError);
    EXPECT_THROW(manifest_from_json("not json"), pmu::SimulationError);
}

TEST(SimulatedCaches, FromSysfsLevels) {
    const std::vector<CacheLevel> zen3 = {{1, "Data", 32768, 64, 2, 8},
                                          {1, "Instruction", 32768, 64, 2, 8},
                                          {2, "Unified", 524288, 64, 2, 8},
                                          {3, "Unified", 33554432, 64, 16, 16}};
    const auto c = simulated_caches(zen3);
    ASSERT_TRUE(c.i1 && c.d1 && c.ll);
    EXPECT_EQ(*c.d1, (pmu::SimCache{32768, 8, 64}));
    EXPECT_EQ(*c.ll, (pmu::SimCache{33554432, 16, 64}));  // the last level, not L2
    EXPECT_TRUE(c.notes.empty());
    const auto bare = simulated_caches({{1, "Data", 32768, 64, 1, 0}});
    EXPECT_FALSE(bare.d1);  // unknown associativity: valgrind's own detection
    EXPECT_FALSE(bare.i1);
    EXPECT_EQ(bare.notes.size(), 3u);
    // Sizes the user gave (--l1d/--l3) are simulated even when sysfs has no cache at all.
    const auto given = simulated_caches({}, 32768, 65536);
    EXPECT_FALSE(given.i1);
    EXPECT_EQ(*given.d1, (pmu::SimCache{32768, 8, 64}));
    EXPECT_EQ(*given.ll, (pmu::SimCache{65536, 8, 64}));
}

using test_fixtures::native_run;
using test_fixtures::simulated;

TEST(MergeSimulated, PlacesEveryEventInListOrderWithItsSource) {
    const auto p = plan("instructions,task-clock,cycles", Backend::sim, true, false);
    auto r = native_run();
    merge_simulated(r, p, simulated());
    ASSERT_EQ(r.events.size(), 3u);
    EXPECT_EQ(r.events[0].name, "instructions");
    EXPECT_EQ(r.events[1].name, "task-clock");
    EXPECT_EQ(r.events[2].name, "cycles");
    EXPECT_EQ(r.events[0].source, EventSource::simulated);
    EXPECT_EQ(r.events[1].source, EventSource::software);
    EXPECT_EQ(r.events[2].source, EventSource::simulated);
    EXPECT_TRUE(r.events[0].counted);
    EXPECT_TRUE(r.events[1].counted);
    EXPECT_FALSE(r.events[2].counted);
    EXPECT_EQ(r.events[0].kind, pmu::EventKind::hardware);
    const auto& a = r.benchmarks[0];
    EXPECT_EQ(a.counters_per_item[0], (std::vector<double>{7, 7, 7}));
    EXPECT_EQ(a.raw_counters_per_item[0], (std::vector<double>{7.05, 7.05, 7.05}));
    EXPECT_EQ(a.counters_per_item[1], (std::vector<double>{2, 3, 4}));  // native, untouched
    EXPECT_EQ(r.benchmarks[1].counters_per_item[0], (std::vector<double>{30, 30, 30}));
    EXPECT_EQ(a.ns_per_item, (std::vector<double>{2, 3, 4}));  // time is never simulated
    const auto refused = refusal_lines(r);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_NE(refused[0].find("cycles: not simulated"), std::string::npos);
}

TEST(MergeSimulated, ABenchmarkWithoutCountsIsAnError) {
    const auto p = plan("instructions,task-clock", Backend::sim, true, false);
    auto r = native_run();
    auto s = simulated();
    s.benchmarks.pop_back();
    EXPECT_THROW(merge_simulated(r, p, s), pmu::SimulationError);
}

// A simulation that failed (valgrind missing, failing, killed, a full TMPDIR) keeps the native
// columns as measured and marks the simulated ones not counted, saying why.
TEST(MergeSimulated, AFailedSimulationKeepsTheNativeColumnsAndSaysWhy) {
    const auto p = plan("instructions,task-clock,cycles", Backend::sim, true, false);
    auto r = native_run();
    const auto failed = failed_simulation("valgrind exited with 1", 2.5);
    ASSERT_TRUE(failed.failure.has_value());
    EXPECT_DOUBLE_EQ(failed.wall_seconds, 2.5);
    merge_simulated(r, p, failed);
    ASSERT_EQ(r.events.size(), 3u);
    EXPECT_EQ(r.events[0].name, "instructions");
    EXPECT_FALSE(r.events[0].counted);
    EXPECT_EQ(r.events[0].refusal.status, "not counted");
    EXPECT_EQ(r.events[0].refusal.reason,
              "the simulation under callgrind failed: valgrind exited with 1; the native "
              "measurement is kept");
    EXPECT_NE(r.events[0].refusal.fix.find("--backend perf"), std::string::npos);
    EXPECT_EQ(r.events[1].name, "task-clock");
    EXPECT_TRUE(r.events[1].counted);
    EXPECT_FALSE(r.events[2].counted);
    for (const auto& b : r.benchmarks) {
        ASSERT_EQ(b.counters_per_item.size(), 3u);
        EXPECT_EQ(b.counters_per_item[0], (std::vector<double>{0, 0, 0}));  // no count: zeros
        EXPECT_EQ(b.counters_per_item[1], (std::vector<double>{2, 3, 4}));  // native, untouched
        EXPECT_EQ(b.ns_per_item, (std::vector<double>{2, 3, 4}));
    }
}

RunResult merged_run() {
    const auto p = plan("instructions,task-clock", Backend::sim, true, false);
    auto r = native_run();
    merge_simulated(r, p, simulated());
    r.simulation = {{"notice", p.notice},
                    {"simulator", "callgrind-3.19.0"},
                    {"caches", "--D1=32768,8,64"},
                    {"min_items", "100000"}};
    return r;
}

TEST(SimulatedReport, EveryFormatLabelsTheSource) {
    const auto r = merged_run();
    const auto table = render_run(r, OutputFormat::table);
    EXPECT_NE(table.find("instructions/ITEM [sim]"), std::string::npos) << table;
    EXPECT_NE(table.find("task-clock/ITEM [sw]"), std::string::npos) << table;
    EXPECT_NE(table.find("[sim] instructions: simulated"), std::string::npos) << table;
    const auto md = render_run(r, OutputFormat::markdown);
    EXPECT_NE(md.find("instructions/ITEM [sim]"), std::string::npos) << md;
    EXPECT_NE(md.find("- [sim] "), std::string::npos) << md;

    const auto csv = render_run(r, OutputFormat::csv);
    const auto header = csv.substr(0, csv.find('\n'));
    EXPECT_NE(header.find(",instructions_per_item,task-clock_per_item,instructions_source,"
                          "task-clock_source"),
              std::string::npos)
        << header;
    EXPECT_NE(csv.find(",7,3,sim,sw\n"), std::string::npos) << csv;

    const auto j = nlohmann::json::parse(render_run(r, OutputFormat::json));
    const auto& events = j["context"]["perfgauge"]["events"];
    EXPECT_EQ(events[0]["source"], "sim");
    EXPECT_EQ(events[1]["source"], "sw");
    EXPECT_EQ(j["context"]["perfgauge"]["simulation"]["simulator"], "callgrind-3.19.0");
    for (const auto& b : j["benchmarks"]) {
        EXPECT_EQ(b["perfgauge_sources"]["instructions"], "sim") << b.dump();
        EXPECT_EQ(b["perfgauge_sources"]["task-clock"], "sw") << b.dump();
    }
}

TEST(SimulatedReport, SourcesSurviveAResultFile) {
    const auto back = parse_run_json(render_run(merged_run(), OutputFormat::json), "merged.json");
    ASSERT_EQ(back.events.size(), 2u);
    EXPECT_EQ(back.events[0].source, EventSource::simulated);
    EXPECT_EQ(back.events[1].source, EventSource::software);
    ASSERT_FALSE(back.simulation.empty());
    EXPECT_EQ(render_run(back, OutputFormat::csv), render_run(merged_run(), OutputFormat::csv));
}

TEST(ValgrindLeftovers, OnlyItsStartUpFilesNameAnOwner) {
    EXPECT_EQ(valgrind_temp_owner("valgrind_proc_16740_cmdline_6302d960"), 16740);
    EXPECT_EQ(valgrind_temp_owner("valgrind_proc_7_auxv_f6c66827"), 7);
    for (const char* other :
         {"valgrind_proc__cmdline_6302d960", "valgrind_proc_12_cmdline_6302d96",
          "valgrind_proc_12_cmdline_6302d96z", "valgrind_proc_12_environ_6302d960",
          "valgrind_proc_1234567890_auxv_6302d960", "valgrind_proc_12a_auxv_6302d960",
          "vgdb-pipe-from-vgdb-to-12", "perfgauge-sim.pid12-abcdef", ""})
        EXPECT_EQ(valgrind_temp_owner(other), 0) << other;
}

// Above any pid_max (at most 2^22): certainly no process's pid.
constexpr pid_t kNoProcess = 4194305;

TEST(ValgrindLeftovers, OnlyThoseOfEndedProcessesAreRemoved) {
    test::TempDir root;
    const auto file = [&root](const std::string& name) {
        std::ofstream(root.path() / name) << "x";
        return root.path() / name;
    };
    const auto dead = file(fmt::format("valgrind_proc_{}_cmdline_0123abcd", kNoProcess));
    const auto live = file(fmt::format("valgrind_proc_{}_auxv_0123abcd", ::getpid()));
    const auto other = file(fmt::format("valgrind_proc_{}_notes_0123abcd", kNoProcess));
    const auto directory = root.path() / fmt::format("valgrind_proc_{}_auxv_89abcdef", kNoProcess);
    std::filesystem::create_directory(directory);
    remove_valgrind_leftovers(root.path());
    EXPECT_FALSE(std::filesystem::exists(dead)) << "its valgrind is gone";
    EXPECT_TRUE(std::filesystem::exists(live)) << "its valgrind runs";
    EXPECT_TRUE(std::filesystem::exists(other));
    EXPECT_TRUE(std::filesystem::exists(directory))
        << "valgrind makes files there, not directories";
}

}  // namespace
}  // namespace perfgauge::harness
