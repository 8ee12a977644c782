// End-to-end: simulated counters (--backend sim/auto/perf) through valgrind's callgrind.
// Counts are asserted exactly where the simulation is deterministic, and structurally
// (branchy mispredicts, bmi2 does not) where they depend on the workload.
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"
#include "../support/tools.hpp"

namespace perfgauge::test {
namespace {

#define SKIP_WITHOUT_SIMULATION()                                                   \
    do {                                                                            \
        if (PERFGAUGE_SANITIZED_BUILD)                                              \
            GTEST_SKIP() << "AddressSanitizer builds cannot run under valgrind";    \
        if (!valgrind_installed())                                                  \
            GTEST_SKIP() << "valgrind is not installed (apt-get install valgrind)"; \
    } while (false)

// Per benchmark name: the "median" aggregate entry of a perfgauge JSON result.
std::map<std::string, nlohmann::json> aggregates(const nlohmann::json& j) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& b : j["benchmarks"]) {
        if (b["run_type"] == "aggregate")
            out[b["run_name"].get<std::string>()] = b;
    }
    return out;
}

nlohmann::json run_json(std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    for (const char* a : {"--format", "json", "--json", "none", "-q", "-r", "3", "--min-time",
                          "0.0002", "--warmup", "0"})
        args.emplace_back(a);
    const auto r = perfgauge(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

const std::vector<std::string> kMustShow = {"--backend",  "sim",
                                            "--workload", "varint",
                                            "--variant",  "branchy,bmi2",
                                            "--dist",     "log-uniform",
                                            "--cache",    "hot",
                                            "--sizes",    "256K",
                                            "-e",         "instructions,branch-misses"};

TEST(CliSim, TwoRunsGiveIdenticalCountsWithTheExpectedStructure) {
    SKIP_WITHOUT_SIMULATION();
    const auto first = aggregates(run_json(kMustShow));
    const auto second = aggregates(run_json(kMustShow));
    const std::string branchy = "varint/branchy/log-uniform/end-on-end/hot/256K";
    const std::string bmi2 = "varint/bmi2/log-uniform/end-on-end/hot/256K";
    ASSERT_TRUE(first.count(branchy) && first.count(bmi2));
    for (const auto& name : {branchy, bmi2}) {
        for (const char* key : {"instructions", "branch-misses", "perfgauge_raw_instructions",
                                "perfgauge_raw_branch-misses"}) {
            EXPECT_EQ(first.at(name)[key].get<double>(), second.at(name)[key].get<double>())
                << name << " " << key;
        }
        EXPECT_EQ(first.at(name)["perfgauge_sources"]["instructions"], "sim");
        EXPECT_EQ(first.at(name)["perfgauge_sources"]["branch-misses"], "sim");
    }
    const auto& b = first.at(branchy);
    const auto& m = first.at(bmi2);
    EXPECT_GE(b["branch-misses"].get<double>(), 0.3) << b.dump();
    EXPECT_LE(m["branch-misses"].get<double>(), 0.01) << m.dump();
    EXPECT_LT(m["instructions"].get<double>(), b["instructions"].get<double>());
    EXPECT_GT(m["instructions"].get<double>(), 5);  // a decode is never nearly free
}

// valgrind decodes AVX2 (VEX) but not AVX-512 (EVEX): avx2 is simulated, avx512 is skipped
// with the reason instead of killing valgrind with SIGILL.
TEST(CliSim, Avx2IsSimulatedAndAvx512SkippedWithTheReason) {
    SKIP_WITHOUT_SIMULATION();
    auto args = kMustShow;
    args[5] = "bmi2,avx2,avx512";
    args.insert(args.begin(), "run");
    for (const char* a : {"--format", "json", "--json", "none", "-q", "-r", "3", "--min-time",
                          "0.0002", "--warmup", "0"})
        args.emplace_back(a);
    const auto r = perfgauge(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto all = aggregates(nlohmann::json::parse(r.out));
    EXPECT_EQ(all.count("varint/avx512/log-uniform/end-on-end/hot/256K"), 0u);
    EXPECT_NE(r.err.find("avx512"), std::string::npos) << r.err;
    const std::string avx2 = "varint/avx2/log-uniform/end-on-end/hot/256K";
    const std::string bmi2 = "varint/bmi2/log-uniform/end-on-end/hot/256K";
    if (!all.count(avx2))
        GTEST_SKIP() << "this CPU has no AVX2: " << r.err;
    // A block of ~4 varints per step needs fewer instructions per varint than bmi2's one.
    EXPECT_LT(all.at(avx2)["instructions"].get<double>(),
              0.75 * all.at(bmi2)["instructions"].get<double>());
    EXPECT_LT(all.at(avx2)["branch-misses"].get<double>(), 0.2);
}

TEST(CliSim, CountsArePerItemWhateverTheBatchAndPausesAreNotCounted) {
    SKIP_WITHOUT_SIMULATION();
    const std::vector<std::string> base = {
        "--backend", "sim",     "--workload", "varint", "--variant", "branchy", "--cache",
        "hot,flush", "--sizes", "4K",         "--l3",   "64K",       "-e",      "instructions"};
    auto with_items = [&](const char* items) {
        auto args = base;
        args.insert(args.end(), {"--sim-items", items});
        return aggregates(run_json(args));
    };
    const auto small = with_items("20000");
    const auto large = with_items("200000");
    const std::string hot = "varint/branchy/log-uniform/end-on-end/hot/4K";
    const std::string flush = "varint/branchy/log-uniform/end-on-end/flush/4K";
    ASSERT_TRUE(small.count(hot) && large.count(flush));
    const double per_item = large.at(hot)["instructions"].get<double>();
    // 10x the items per batch: the same instructions per item (the batch cost is calibrated
    // away and what is left is divided by the items).
    EXPECT_NEAR(small.at(hot)["instructions"].get<double>(), per_item, 0.005 * per_item);
    // flush clflushes the window inside pause()/resume() before every iteration; none of that
    // is counted, so the decoding costs the same instructions as hot.
    EXPECT_NEAR(large.at(flush)["instructions"].get<double>(), per_item, 0.01 * per_item);
}

// Every benchmark is simulated in a process forked for it from the same state, so running
// them three at a time gives exactly the counts of running them one after another: caches,
// predictor and all, for whole iterations (4K) and for cut ones (1M, beyond --sim-items).
TEST(CliSim, ParallelSimulationCountsEqualTheSerialOnes) {
    SKIP_WITHOUT_SIMULATION();
    const std::vector<std::string> selection = {
        "--backend",   "sim",
        "--workload",  "varint,memcpy",
        "--variant",   "branchy,bmi2",
        "--cache",     "hot,cold",
        "--sizes",     "4K,1M",
        "--l3",        "256K",
        "-e",          "instructions,branch-misses,LLC-misses,est-cycles",
        "--sim-items", "20000"};
    auto with_jobs = [&](const char* jobs) {
        auto args = selection;
        args.insert(args.end(), {"--sim-jobs", jobs});
        return run_json(args);
    };
    const auto serial_json = with_jobs("1");
    const auto parallel_json = with_jobs("3");
    const auto serial = aggregates(serial_json);
    const auto parallel = aggregates(parallel_json);
    ASSERT_EQ(serial.size(), 12u);
    std::size_t compared = 0;
    for (const auto& [name, s] : serial) {
        ASSERT_TRUE(parallel.count(name)) << name;
        const auto& p = parallel.at(name);
        // A benchmark whose every native sample was disturbed has no samples to carry them.
        if (!s.contains("instructions") || !p.contains("instructions"))
            continue;
        ++compared;
        for (const char* event : {"instructions", "branch-misses", "LLC-misses", "est-cycles"}) {
            EXPECT_EQ(s[event].get<double>(), p[event].get<double>()) << name << " " << event;
            const std::string raw = std::string("perfgauge_raw_") + event;
            EXPECT_EQ(s[raw].get<double>(), p[raw].get<double>()) << name << " " << raw;
        }
    }
    EXPECT_GE(compared, 6u);
    // The time breakdown: how many processes, and each benchmark's simulation time.
    const auto& context = parallel_json["context"]["perfgauge"]["simulation"];
    EXPECT_EQ(context["simulation_jobs"], "3") << context.dump();
    EXPECT_EQ(serial_json["context"]["perfgauge"]["simulation"]["simulation_jobs"], "1");
    const auto by_benchmark = context["simulation_seconds_by_benchmark"].get<std::string>();
    for (const auto& [name, s] : serial)
        EXPECT_NE(by_benchmark.find(name + " "), std::string::npos) << name;
    EXPECT_NE(context["time"].get<std::string>().find("native measurement"), std::string::npos);
}

// est-cycles is an estimate made from simulated cache hits and mispredictions, labelled as one,
// with its formula in the result; cycles stays not simulated beside it.
TEST(CliSim, EstimatedCyclesComeWithTheirFormulaAndCyclesStayUnsimulated) {
    SKIP_WITHOUT_SIMULATION();
    const auto j =
        run_json({"--backend", "sim", "--workload", "varint", "--variant", "branchy,bmi2",
                  "--cache", "hot", "--sizes", "4K", "-e", "cycles,instructions,est-cycles"});
    const auto a = aggregates(j);
    const auto& branchy = a.at("varint/branchy/log-uniform/end-on-end/hot/4K");
    const auto& bmi2 = a.at("varint/bmi2/log-uniform/end-on-end/hot/4K");
    EXPECT_FALSE(branchy.contains("cycles")) << "cycles is never simulated";
    EXPECT_EQ(branchy["perfgauge_sources"]["est-cycles"], "sim");
    // Every instruction is at least one L1 access; ~0.9 mispredictions per varint cost branchy
    // ~14 more estimated cycles than bmi2, which has about as many accesses.
    EXPECT_GE(branchy["est-cycles"].get<double>(), branchy["instructions"].get<double>());
    EXPECT_GT(branchy["est-cycles"].get<double>(), bmi2["est-cycles"].get<double>() + 10);
    const auto& sim = j["context"]["perfgauge"]["simulation"];
    EXPECT_NE(sim["est_cycles"].get<std::string>().find("35*memory accesses"), std::string::npos)
        << sim.dump();
    EXPECT_EQ(sim["caches"].get<std::string>().find("not simulated"), std::string::npos)
        << "est-cycles needs the cache simulation: " << sim.dump();
}

TEST(CliSim, SimulatedCachesTellHotFromCold) {
    SKIP_WITHOUT_SIMULATION();
    const auto r = aggregates(run_json({"--backend", "sim", "--workload", "varint", "--variant",
                                        "bmi2", "--cache", "hot,cold", "--sizes", "4K", "--l3",
                                        "64K", "-e", "L1-dcache-misses,LLC-misses"}));
    const auto& hot = r.at("varint/bmi2/log-uniform/end-on-end/hot/4K");
    const auto& cold = r.at("varint/bmi2/log-uniform/end-on-end/cold/4K");
    // A 4K window stays in the simulated L1 after the warm-up; cold windows are new lines: one
    // miss per 64-byte line, ~2.76 bytes per varint.
    EXPECT_LT(hot["L1-dcache-misses"].get<double>(), 0.001) << hot.dump();
    EXPECT_GT(cold["L1-dcache-misses"].get<double>(), 0.02) << cold.dump();
    EXPECT_GT(cold["LLC-misses"].get<double>(), 0.02) << cold.dump();
}

TEST(CliSim, NativeAndSimulatedInstructionsAgreeWhereThereIsAPmu) {
    SKIP_WITHOUT_SIMULATION();
    if (!hardware_pmu_present())
        GTEST_SKIP() << "no hardware PMU here: native instructions cannot be counted";
    const std::vector<std::string> selection = {"--workload", "varint",      "--variant", "bmi2",
                                                "--cache",    "hot",         "--sizes",   "256K",
                                                "-e",         "instructions"};
    auto with_backend = [&](const char* backend) {
        auto args = selection;
        args.insert(args.end(), {"--backend", backend});
        return aggregates(run_json(args));
    };
    const auto hw = with_backend("perf");
    const auto sim = with_backend("sim");
    const std::string name = "varint/bmi2/log-uniform/end-on-end/hot/256K";
    const double native = hw.at(name)["instructions"].get<double>();
    EXPECT_NEAR(sim.at(name)["instructions"].get<double>(), native, 0.03 * native);
}

TEST(CliSim, AutoSimulatesOnlyWhatThePmuCannotCount) {
    SKIP_WITHOUT_SIMULATION();
    if (hardware_pmu_present())
        GTEST_SKIP() << "a hardware PMU is present: auto counts instructions natively";
    const auto r = perfgauge({"run",
                              "--workload",
                              "varint",
                              "--variant",
                              "bmi2",
                              "--cache",
                              "hot",
                              "--sizes",
                              "4K",
                              "--l3",
                              "64K",
                              "-e",
                              "instructions,task-clock",
                              "-r",
                              "3",
                              "--min-time",
                              "0.0002",
                              "--format",
                              "json",
                              "--json",
                              "none",
                              "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("instructions: simulated with valgrind's callgrind (not countable here"),
              std::string::npos)
        << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& events = j["context"]["perfgauge"]["events"];
    EXPECT_EQ(events[0]["name"], "instructions");
    EXPECT_EQ(events[0]["source"], "sim");
    EXPECT_EQ(events[1]["source"], "sw");
    EXPECT_TRUE(j["context"]["perfgauge"].contains("simulation"));
}

TEST(CliSim, PerfBackendNeverSimulates) {
    // branchy: a variant that runs on every CPU (this test runs in the arm64 guest too).
    const auto j =
        run_json({"--backend", "perf", "--workload", "varint", "--variant", "branchy", "--cache",
                  "hot", "--sizes", "4K", "--l3", "64K", "-e", "instructions,task-clock"});
    const auto& p = j["context"]["perfgauge"];
    EXPECT_FALSE(p.contains("simulation"));
    EXPECT_EQ(p["events"][0]["source"], "hw");
    EXPECT_EQ(p["events"][0]["counted"].get<bool>(), hardware_pmu_present());
}

TEST(CliSim, EventsTheSimulationCannotCountAreReported) {
    SKIP_WITHOUT_SIMULATION();
    const auto r =
        perfgauge({"run",       "--backend", "sim",        "--workload", "varint",
                   "--variant", "branchy",   "--cache",    "hot",        "--sizes",
                   "1K",        "--l3",      "64K",        "-e",         "cycles,instructions",
                   "-r",        "3",         "--min-time", "0.0002",     "--json",
                   "none",      "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("instructions/ITEM [sim]"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("cycles/ITEM"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("not counted: cycles: not simulated: callgrind does not simulate time"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("[sim] instructions: simulated"), std::string::npos) << r.out;
}

TEST(CliSim, BadBackendInputsAreRefusedBeforeMeasuring) {
    auto bogus = perfgauge({"run", "--backend", "callgrind", "--json", "none"});
    EXPECT_EQ(bogus.exit_code, 2);
    EXPECT_NE(bogus.err.find("choose auto, perf or sim"), std::string::npos) << bogus.err;
    auto sim_only = perfgauge({"run", "--backend", "perf", "-e", "LLC-misses", "--json", "none"});
    EXPECT_EQ(sim_only.exit_code, 2);
    EXPECT_NE(sim_only.err.find("exists only as a simulated event"), std::string::npos)
        << sim_only.err;
    auto zero = perfgauge({"run", "--backend", "sim", "--sim-items", "0", "--json", "none"});
    EXPECT_EQ(zero.exit_code, 2) << zero.err;
    auto missing = run_process({"/usr/bin/env", "PERFGAUGE_VALGRIND=/nonexistent/valgrind",
                                PERFGAUGE_CLI_PATH, "run", "--backend", "sim", "--json", "none"});
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_NE(missing.err.find(PERFGAUGE_SANITIZED_BUILD ? "AddressSanitizer" : "needs valgrind"),
              std::string::npos)
        << missing.err;
    auto internal = perfgauge({"run", "--internal-sim-child=/tmp/x.json"});
    EXPECT_EQ(internal.exit_code, 2);
    EXPECT_NE(internal.err.find("use --backend sim"), std::string::npos) << internal.err;
}

}  // namespace
}  // namespace perfgauge::test

namespace perfgauge::test {
namespace {

const std::string kStatWorkload = PERFGAUGE_STAT_WORKLOAD_PATH;

nlohmann::json stat_json(std::vector<std::string> args, int expected_exit = 0) {
    args.insert(args.begin(), {"stat", "--format", "json"});
    const auto r = perfgauge(args);
    EXPECT_EQ(r.exit_code, expected_exit) << r.err;
    const auto report = r.err.substr(r.err.find('{'));  // after the notice line
    return nlohmann::json::parse(report, nullptr, false);
}

nlohmann::json report_json(const std::string& path) {
    return nlohmann::json::parse(read_file(path), nullptr, false);
}

std::map<std::string, nlohmann::json> by_event(const nlohmann::json& j) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& e : j["events"])
        out[e["event"].get<std::string>()] = e;
    return out;
}

TEST(CliStatSim, SimulatesTheWholeCommandDeterministically) {
    SKIP_WITHOUT_SIMULATION();
    auto run = [](const char* writes) {
        return by_event(stat_json({"--backend", "sim", "-e", "instructions,branches,task-clock",
                                   "--", kStatWorkload, "write", writes}));
    };
    const auto few = run("1000");
    const auto again = run("1000");
    const auto many = run("21000");
    ASSERT_TRUE(few.count("instructions")) << few.size();
    EXPECT_EQ(few.at("instructions")["source"], "sim");
    EXPECT_EQ(few.at("task-clock")["source"], "sw");
    EXPECT_EQ(few.at("instructions")["status"], "counted");
    EXPECT_EQ(few.at("instructions")["value"], again.at("instructions")["value"]);
    EXPECT_EQ(few.at("branches")["value"], again.at("branches")["value"]);
    // 20000 more write() calls: at least a loop iteration and a syscall wrapper's instructions
    // each, and no more than a few hundred (user space only: callgrind never sees the kernel).
    const double extra = many.at("instructions")["value"].get<double>() -
                         few.at("instructions")["value"].get<double>();
    EXPECT_GT(extra, 20000 * 5.0);
    EXPECT_LT(extra, 20000 * 300.0);
}

TEST(CliStatSim, FollowsChildrenAndKeepsTheExitStatus) {
    SKIP_WITHOUT_SIMULATION();
    const auto j = stat_json(
        {"--backend", "sim", "-e", "instructions", "--", kStatWorkload, "fork-write", "10"});
    bool two_processes = false;
    for (const auto& n : j["notes"])
        two_processes |= n.get<std::string>().find("2 processes") != std::string::npos;
    EXPECT_TRUE(two_processes) << j["notes"].dump();
    const auto failing =
        stat_json({"--backend", "sim", "-e", "instructions", "--", kStatWorkload, "exit", "3"}, 3);
    EXPECT_EQ(by_event(failing).at("instructions")["status"], "counted");
}

TEST(CliStatSim, PrepareRunsBeforeTheRunUnderCallgrindToo) {
    SKIP_WITHOUT_SIMULATION();
    TempDir dir;
    const std::string log = (dir.path() / "log").string();
    // Two counted runs and the run under callgrind: --prepare before each of the three.
    auto j = stat_json({"-r", "2", "--backend", "sim", "-e", "instructions", "--prepare",
                        "echo P >> " + log, "--", kStatWorkload, "write", "10"});
    EXPECT_EQ(by_event(j).at("instructions")["status"], "counted") << j.dump();
    EXPECT_EQ(read_file(log), "P\nP\nP\n");
    // A --prepare that fails only the third time, before the run under callgrind: the native
    // runs stand, the simulated event says why it has no count, the command's status is kept.
    const std::string counter = (dir.path() / "count").string();
    j = stat_json({"-r", "2", "--backend", "sim", "-e", "instructions,task-clock", "--prepare",
                   "touch " + counter + "; n=$(wc -l < " + counter + "); echo x >> " + counter +
                       "; [ $n -lt 2 ]",
                   "--", kStatWorkload, "write", "10"});
    const auto events = by_event(j);
    EXPECT_EQ(events.at("task-clock")["status"], "counted") << j.dump();
    EXPECT_EQ(events.at("instructions")["status"], "not counted") << j.dump();
    EXPECT_NE(events.at("instructions").dump().find("exited with 1 before the run under callgrind"),
              std::string::npos)
        << j.dump();

    // An interrupt during that --prepare: the simulation is marked interrupted, saying where.
    const std::string again = (dir.path() / "again").string();
    j = stat_json({"-r", "1", "--backend", "sim", "-e", "instructions", "--prepare",
                   "touch " + again + "; n=$(wc -l < " + again + "); echo x >> " + again +
                       "; if [ $n -ge 1 ]; then kill -INT $PPID; sleep 0.2; fi",
                   "--", kStatWorkload, "write", "10"},
                  130);
    EXPECT_NE(by_event(j).at("instructions").dump().find("interrupted by SIGINT during --prepare"),
              std::string::npos)
        << j.dump();
}

TEST(CliStatSim, PerfBackendReportsWhyInsteadOfSimulating) {
    const auto j = by_event(stat_json({"--backend", "perf", "-e", "instructions,task-clock", "--",
                                       kStatWorkload, "write", "10"}));
    EXPECT_EQ(j.at("instructions")["source"], "hw");
    EXPECT_EQ(j.at("instructions")["status"] == "counted", hardware_pmu_present());
    EXPECT_EQ(j.at("task-clock")["source"], "sw");
}

// The run under callgrind repeats none of the command's output: stdout and stderr come once
// per counted run, and the note says where the simulated run's went.
TEST(CliStatSim, TheRunUnderCallgrindKeepsItsOutputApart) {
    SKIP_WITHOUT_SIMULATION();
    TempDir dir;
    const auto report = dir.path() / "r.json";
    const auto r = perfgauge({"stat", "-r", "3", "--backend", "sim", "-e", "instructions",
                              "--format", "json", "-o", report.string(), "--", "/bin/sh", "-c",
                              "echo OUT-MARK; echo ERR-MARK >&2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto count = [](const std::string& text, const std::string& what) {
        std::size_t n = 0;
        for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
            ++n;
        return n;
    };
    EXPECT_EQ(count(r.out, "OUT-MARK"), 3u) << r.out;
    EXPECT_EQ(count(r.err, "ERR-MARK"), 3u) << r.err;
    const auto j = report_json(report.string());
    EXPECT_EQ(by_event(j).at("instructions")["status"], "counted") << j.dump();
    EXPECT_NE(j["notes"].dump().find("stdout to /dev/null"), std::string::npos) << j["notes"];
    // A command that fails only under callgrind: its stderr there is said, not passed through.
    const auto flag = dir.path() / "ran";
    const auto failing = perfgauge(
        {"stat", "-r", "1", "--backend", "sim", "-e", "instructions", "--format", "json", "-o",
         report.string(), "--", "/bin/sh", "-c",
         "if [ -e '" + flag.string() + "' ]; then echo SECOND-TIME >&2; exit 4; fi; touch '" +
             flag.string() + "'"});
    EXPECT_EQ(failing.exit_code, 0) << failing.err;
    EXPECT_EQ(failing.err.find("SECOND-TIME"), std::string::npos) << failing.err;
    EXPECT_NE(report_json(report.string())["notes"].dump().find("its stderr ended: SECOND-TIME"),
              std::string::npos);
}

// A budget too small for callgrind: nothing is simulated, one line says what was left out and
// the flag that asks for it, and the events say why they have no value.
TEST(CliStatSim, ATinyBudgetLeavesTheSimulationOutAndNamesTheFlag) {
    SKIP_WITHOUT_SIMULATION();
    TempDir dir;
    const auto report = dir.path() / "r.json";
    // Its output once per counted run (A B, then B A), never once more.
    const auto r = perfgauge({"stat", "-r", "2", "--backend", "sim", "--sim-budget", "0.001", "-e",
                              "instructions,task-clock", "--format", "json", "-o", report.string(),
                              "--", "/bin/echo", "A-OUT", ":::", "/bin/echo", "B-OUT"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "A-OUT\nB-OUT\nB-OUT\nA-OUT\n");
    EXPECT_NE(r.err.find("perfgauge stat: not simulated: instructions (callgrind would take about"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("over the 0 s budget; --sim-budget 5 or none asks for them)"),
              std::string::npos)
        << r.err;
    const auto j = report_json(report.string());
    for (const auto& command : j["commands"]) {
        const auto events = by_event(command);
        EXPECT_EQ(events.at("instructions")["status"], "not simulated") << command.dump();
        EXPECT_EQ(events.at("task-clock")["status"], "counted") << command.dump();
    }
    const auto none = perfgauge({"stat", "--backend", "sim", "--sim-budget", "0", "-e",
                                 "instructions", "--", kStatWorkload, "write", "10"});
    EXPECT_EQ(none.exit_code, 0) << none.err;
    EXPECT_NE(none.err.find("left out: --sim-budget 0"), std::string::npos) << none.err;
}

TEST(CliStatSim, BadBudgetsAreRefused) {
    for (const char* bad : {"-1", "soon", "1e999", "", "5s"}) {
        const auto r = perfgauge({"stat", "--sim-budget", bad, "--", "true"});
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_NE(r.err.find("--sim-budget must be seconds (0 or more; 0 simulates nothing) or "
                             "none (no limit), not '" +
                             std::string(bad) + "'"),
                  std::string::npos)
            << r.err;
    }
    const auto perf = perfgauge({"stat", "--backend", "perf", "--sim-budget", "5", "--", "true"});
    EXPECT_EQ(perf.exit_code, 2);
    EXPECT_NE(perf.err.find("--backend perf never simulates"), std::string::npos) << perf.err;
}

// What `dir` holds, for a failure message ("" when empty).
std::string entries_of(const std::filesystem::path& dir) {
    std::string out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec))
        out += " " + entry.path().lexically_relative(dir).string();
    return out;
}

// A valgrind killed as it starts (Ctrl-C reaches the whole group) leaves its stand-ins for
// /proc/self/cmdline and auxv in $TMPDIR: the command's $TMPDIR under stat, which stat keeps
// as the user's. Once the simulation ends they are removed, those of any valgrind gone (as one
// killed before would have left them), never those of a valgrind still running.
TEST(CliStatSim, LeavesNoValgrindStartUpFileBehind) {
    SKIP_WITHOUT_SIMULATION();
    TempDir dir;
    const auto tmp = dir.path() / "tmp";
    std::filesystem::create_directory(tmp);
    // pid 2^22 + 1: above any pid_max, so certainly no process's.
    const auto stale = tmp / "valgrind_proc_4194305_cmdline_0123abcd";
    const auto running = tmp / ("valgrind_proc_" + std::to_string(::getpid()) + "_auxv_0123abcd");
    for (const auto& file : {stale, running})
        std::ofstream(file) << "x";
    const auto r =
        run_process({"/usr/bin/env", "TMPDIR=" + tmp.string(), PERFGAUGE_CLI_PATH, "stat",
                     "--backend", "sim", "-e", "instructions", "--", kStatWorkload, "write", "10"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(std::filesystem::exists(stale)) << entries_of(tmp);
    EXPECT_TRUE(std::filesystem::exists(running)) << "its pid runs: this test";
    std::filesystem::remove(running);
    EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "left behind:" << entries_of(tmp);
}

// Ctrl-C while valgrind simulates: the native measurement, finished before, is saved; the
// simulated counters say they were interrupted; valgrind's scratch directory goes too. The
// signal goes to the whole group as the scratch directory appears, so it reaches valgrind at
// any moment of its start-up too: what valgrind makes in $TMPDIR then (its stand-ins for
// /proc/self/cmdline and auxv, removed a moment later: 1 run in 12 left one behind when that
// was perfgauge's $TMPDIR) must go as well.
TEST(CliSim, CtrlCDuringSimulationKeepsTheNativeResult) {
    SKIP_WITHOUT_SIMULATION();
    TempDir dir;
    const auto tmp = dir.path() / "tmp";
    std::filesystem::create_directory(tmp);
    const auto saved = dir.path() / "r.json";
    ProcessOptions options;
    options.signal = SIGINT;
    // Once the simulation has begun (its scratch directory is there), not after a time: on a
    // loaded machine the native part could still be running.
    options.signal_when = [tmp] {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(tmp, ec))
            if (entry.path().filename().string().rfind("perfgauge-sim", 0) == 0)
                return true;
        return false;
    };
    // Far more simulated items than the test waits for, after a native part of well under a
    // second.
    const auto r = run_process({"/usr/bin/env",
                                "TMPDIR=" + tmp.string(),
                                PERFGAUGE_CLI_PATH,
                                "run",
                                "--workload",
                                "varint",
                                "--variant",
                                "branchy",
                                "--sizes",
                                "4K",
                                "--cache",
                                "hot",
                                "-r",
                                "3",
                                "--processes",
                                "1",
                                "--precision",
                                "0",
                                "--min-time",
                                "0.001",
                                "--warmup",
                                "0",
                                "--backend",
                                "sim",
                                "-e",
                                "instructions,task-clock",
                                "--sim-items",
                                "2000000000",
                                "-q",
                                "--json",
                                saved.string()},
                               options);
    EXPECT_EQ(r.exit_code, 130) << r.err;
    const auto j = nlohmann::json::parse(read_file(saved));
    EXPECT_EQ(j["context"]["perfgauge"]["interrupted"], "SIGINT");
    ASSERT_EQ(aggregates(j).size(), 1u);
    // The native part is kept: every sample taken, either among the samples (each with its
    // task-clock) or set aside as disturbed, with why, in the aggregate. Not how many of them
    // a machine kept clean: beside four busy loops every one was disturbed (2026-12-01, twice
    // in a row), which leaves no iteration entry and the aggregate's value null.
    std::size_t native_samples = 0;
    for (const auto& entry : j["benchmarks"])
        if (entry.value("run_type", "") == "iteration" && entry["task-clock"].is_number() &&
            entry["task-clock"].get<double>() > 0)
            ++native_samples;
    const auto set_aside = aggregates(j).begin()->second.value("perfgauge_disturbed_samples", 0);
    EXPECT_GE(native_samples + static_cast<std::size_t>(set_aside), 1u)
        << "the native part is kept";
    EXPECT_NE(r.out.find("interrupted by SIGINT while simulated"), std::string::npos) << r.out;
    EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "left behind:" << entries_of(tmp);
}

}  // namespace
}  // namespace perfgauge::test
