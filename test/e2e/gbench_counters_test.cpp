// End-to-end: the Google Benchmark adapter's per-item counters, counted by perf and simulated
// under callgrind (--perfgauge_backend), with ->Threads(N).
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "../support/cli.hpp"

namespace perfgauge::test {
namespace {

// Why the simulated backend cannot run here, or "" when it can.
std::string simulation_unavailable() {
    if (PERFGAUGE_SANITIZED_BUILD)
        return "AddressSanitizer builds cannot run under valgrind";
    if (::access("/usr/bin/valgrind", X_OK) != 0 && ::access("/bin/valgrind", X_OK) != 0)
        return "valgrind is not installed (apt-get install valgrind)";
    return "";
}

// Google Benchmark's JSON output, per benchmark name (iterations only).
std::map<std::string, nlohmann::json> gbench_json(std::vector<std::string> args) {
    args.push_back("--benchmark_format=json");
    const auto r = run_process(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, nlohmann::json> out;
    if (r.exit_code != 0)
        return out;
    const auto j = nlohmann::json::parse(r.out);
    for (const auto& b : j["benchmarks"])
        out[b["name"].get<std::string>()] = b;
    out["(context)"] = j["context"];
    return out;
}

TEST(GbenchCounters, PerItemCountersArePerItemAcrossThreads) {
    const auto b = gbench_json({PERFGAUGE_GBENCH_THREADS_PATH, "--perfgauge_events=page-faults",
                                "--perfgauge_backend=perf", "--benchmark_filter=^pages",
                                "--benchmark_min_time=0.02"});
    for (const char* name : {"pages/threads:1", "pages/threads:2"}) {
        ASSERT_TRUE(b.count(name) && b.at(name).contains("PAGE-FAULTS")) << name;
        // One fault per page touched, whatever the threads: not one per thread and item.
        EXPECT_NEAR(b.at(name)["PAGE-FAULTS"].get<double>(), 1.0, 0.2) << b.at(name).dump();
    }
}

TEST(GbenchCounters, SimulatedCountersAreDeterministicAndPerItemAcrossThreads) {
    if (const auto why = simulation_unavailable(); !why.empty())
        GTEST_SKIP() << why;
    const std::vector<std::string> args = {
        PERFGAUGE_GBENCH_THREADS_PATH, "--perfgauge_events=instructions",
        "--perfgauge_backend=sim",     "--perfgauge_sim_items=2000",
        "--benchmark_filter=^sum",     "--benchmark_min_time=0.01"};
    const auto first = gbench_json(args);
    const auto second = gbench_json(args);
    ASSERT_TRUE(first.count("sum/threads:1") && first.count("sum/threads:2"));
    const double one = first.at("sum/threads:1")["INSTRUCTIONS[sim]"].get<double>();
    const double two = first.at("sum/threads:2")["INSTRUCTIONS[sim]"].get<double>();
    EXPECT_EQ(one, second.at("sum/threads:1")["INSTRUCTIONS[sim]"].get<double>());
    // 1000 multiply-adds per item, kept in memory: several thousand instructions per item.
    EXPECT_GT(one, 2000);
    EXPECT_LT(one, 20000);
    // Per item across the threads, not the sum of each thread's per-item value (2x), and every
    // thread's work counted (zeroing and dumping from different threads once lost 5%).
    EXPECT_NEAR(two / one, 1.0, 0.01) << "threads:2 " << two << " threads:1 " << one;
    EXPECT_NE(first.at("(context)").value("perfgauge_sim", "").find("callgrind"), std::string::npos)
        << first.at("(context)").dump();
    // Simulated counts are never given a hardware counter's name.
    EXPECT_FALSE(first.at("sum/threads:1").contains("INSTRUCTIONS"));
}

TEST(GbenchCounters, SimulatedInstructionsMatchPerfgaugeRun) {
    if (const auto why = simulation_unavailable(); !why.empty())
        GTEST_SKIP() << why;
    const std::string name = "varint/bmi2/log-uniform/end-on-end/hot/262144";
    const auto gb = gbench_json({PERFGAUGE_BENCH_VARINT_PATH, "--perfgauge_events=instructions",
                                 "--perfgauge_backend=sim", "--benchmark_filter=" + name + "$",
                                 "--benchmark_min_time=0.01"});
    ASSERT_TRUE(gb.count(name));
    if (gb.at(name).contains("error_message"))
        GTEST_SKIP() << gb.at(name).dump();  // no BMI2 here
    const double adapter = gb.at(name)["INSTRUCTIONS[sim]"].get<double>();

    const auto r =
        perfgauge({"run",      "--backend", "sim",          "--workload", "varint",     "--variant",
                   "bmi2",     "--dist",    "log-uniform",  "--cache",    "hot",        "--sizes",
                   "256K",     "-e",        "instructions", "--format",   "json",       "--json",
                   "none",     "-q",        "-r",           "3",          "--min-time", "0.0002",
                   "--warmup", "0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    double run = 0;  // the same simulated value in every sample
    const auto result = nlohmann::json::parse(r.out);
    for (const auto& b : result["benchmarks"]) {
        if (b.contains("instructions"))
            run = b["instructions"].get<double>();
    }
    ASSERT_GT(run, 0) << r.out << r.err;
    EXPECT_NEAR(adapter / run, 1.0, 0.01) << "adapter " << adapter << " run " << run;
}

TEST(GbenchCounters, HelpNamesPerfgaugeFlags) {
    const auto r = run_process({PERFGAUGE_GBENCH_THREADS_PATH, "--help"});
    for (const char* flag :
         {"--perfgauge_events", "--perfgauge_backend", "--perfgauge_sim_items", "benchmark_filter"})
        EXPECT_NE(r.out.find(flag), std::string::npos) << flag << "\n" << r.out;
}

TEST(GbenchCounters, BadBackendIsRefused) {
    const auto r = run_process({PERFGAUGE_GBENCH_THREADS_PATH, "--perfgauge_events=instructions",
                                "--perfgauge_backend=simulated"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--perfgauge_backend"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace perfgauge::test
