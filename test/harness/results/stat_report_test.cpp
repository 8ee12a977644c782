#include "perfgauge/harness/stat_report.hpp"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

StatEventResult counted(const std::string& name, std::vector<double> samples, double running = 1.0,
                        const std::string& unit = "") {
    StatEventResult e;
    e.name = name;
    e.kind = name == "task-clock" ? pmu::EventKind::software : pmu::EventKind::hardware;
    e.source = native_source(e.kind);
    e.samples = std::move(samples);
    e.running_fraction = running;
    e.unit = unit;
    return e;
}

StatResult sample_result() {
    StatResult r;
    r.command = {"/bin/true"};
    r.repetitions = 3;
    r.elapsed_seconds = {0.002, 0.001, 0.003};
    r.events.push_back(counted("cycles", {1000, 1100, 900}, 0.5));
    r.events.push_back(counted("instructions", {2000, 2200, 1800}, 0.5));
    r.events.push_back(counted("branches", {400, 400, 400}));
    r.events.push_back(counted("branch-misses", {4, 4, 4}));
    r.events.push_back(counted("task-clock", {1e6, 1e6, 1e6}, 1.0, "ns"));
    StatEventResult missing;
    missing.name = "ref-cycles";
    missing.kind = pmu::EventKind::hardware;
    missing.source = EventSource::hardware;
    missing.counted = false;
    missing.refusal = {"not supported", "no PMU, really", "get one"};
    r.events.push_back(missing);
    return r;
}

TEST(StatMetrics, DerivedFromMedians) {
    const auto metrics = derive_metrics(sample_result());
    std::map<std::string, double> by_name;
    for (const auto& m : metrics)
        by_name[m.name] = m.value;
    EXPECT_DOUBLE_EQ(by_name.at("IPC (instructions per cycle)"), 2.0);
    EXPECT_DOUBLE_EQ(by_name.at("branch-miss rate (% of branches)"), 1.0);
    EXPECT_DOUBLE_EQ(by_name.at("branch-misses per 1k instructions"), 2.0);
    EXPECT_DOUBLE_EQ(by_name.at("CPUs utilized"), 0.5);  // 1 ms CPU in 2 ms (median) elapsed
    EXPECT_EQ(by_name.count("cache-misses per 1k instructions"), 0u) << "no input, no metric";
}

TEST(StatReport, CsvHasOneRowPerEventWithStableColumns) {
    const std::string csv = render_stat(sample_result(), OutputFormat::csv);
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t nl; (nl = csv.find('\n', start)) != std::string::npos; start = nl + 1) {
        lines.push_back(csv.substr(start, nl - start));
    }
    // Header, 6 events, elapsed, 4 derived ratios.
    ASSERT_EQ(lines.size(), 12u) << csv;
    EXPECT_EQ(lines[0], kStatCsvHeader);
    EXPECT_EQ(lines[1], "cycles,1000,,0.5000,counted,hardware,3,900,1100,100,,hw");
    EXPECT_EQ(lines[5], "task-clock,1000000,ns,1.0000,counted,software,3,1000000,1000000,0,,sw");
    EXPECT_EQ(lines[6], "ref-cycles,,,,not supported,hardware,0,,,,\"no PMU, really\",hw");
    // Elapsed and the derived ratios, in the same columns, after every event.
    EXPECT_EQ(lines[7].rfind("elapsed,0.002,s,,measured,elapsed,3,0.001,0.003,", 0), 0u)
        << lines[7];
    EXPECT_EQ(lines[7].substr(lines[7].size() - 2), ",,") << "no reason, no source";
    EXPECT_EQ(lines[8], "IPC (instructions per cycle),2,ratio,,derived,derived,3,,,,,hw");
    EXPECT_EQ(lines[11], "CPUs utilized,0.5,CPUs,,derived,derived,3,,,,,sw");
}

TEST(StatMetrics, SayWhereTheirInputsCameFrom) {
    auto r = sample_result();
    r.events[0].source = EventSource::simulated;  // cycles, say
    std::map<std::string, std::string> source;
    for (const auto& m : derive_metrics(r))
        source[m.name] = m.source;
    EXPECT_EQ(source.at("IPC (instructions per cycle)"), "hw+sim");
    EXPECT_EQ(source.at("branch-miss rate (% of branches)"), "hw");
    EXPECT_EQ(source.at("CPUs utilized"), "sw");
}

TEST(StatReport, JsonCarriesTheSameFacts) {
    const auto j = nlohmann::json::parse(render_stat(sample_result(), OutputFormat::json));
    EXPECT_EQ(j["repetitions"], 3);
    EXPECT_EQ(j["read_path"], "read()");
    ASSERT_EQ(j["events"].size(), 6u);
    EXPECT_EQ(j["events"][0]["event"], "cycles");
    EXPECT_EQ(j["events"][0]["value"], 1000.0);
    EXPECT_EQ(j["events"][0]["running_fraction"], 0.5);
    EXPECT_EQ(j["events"][0]["samples"].size(), 3u);
    EXPECT_EQ(j["events"][5]["status"], "not supported");
    EXPECT_TRUE(j["events"][5]["value"].is_null());
    EXPECT_EQ(j["events"][5]["fix"], "get one");
    EXPECT_FALSE(j["derived"].empty());
}

TEST(StatReport, JsonRecordsTheMachineAsARunResultDoes) {
    // CPU, host and the facts a history's fingerprint reads, written and read back into the
    // result model, so that a stat result is filed under its machine.
    StatResult r = sample_result();
    r.system.host_name = "build-7";
    r.system.cpu.vendor = "AuthenticAMD";
    r.system.cpu.model_name = "AMD EPYC 9R14";
    r.system.cpu.family = 25;
    r.system.cpu.model = 17;
    r.system.cpu.microcode = "0xa101148";
    r.system.cpu.cores = 2;
    r.system.cpu.logical_cpus = 2;
    r.system.kernel = "6.1.0-28-amd64";
    r.system.governor = "performance";
    r.system.hypervisor = "KVMKVMKVM";
    r.system.mitigations = {{"spectre_v2", "Mitigation: Retpolines"}};
    r.system.caches = {{1, "Data", 32768, 64, 2, 8}, {3, "Unified", 33554432, 64, 2, 16}};
    const std::string text = render_stat(r, OutputFormat::json);
    const auto j = nlohmann::json::parse(text);
    EXPECT_EQ(j["system"]["cpu"], "AMD EPYC 9R14");
    EXPECT_EQ(j["system"]["host_name"], "build-7");
    EXPECT_EQ(j["system"]["caches"].size(), 2u);
    const RunResult back = parse_result_json(text, "stat.json");
    EXPECT_EQ(back.kind, ResultKind::stat);
    EXPECT_EQ(back.system.host_name, "build-7");
    EXPECT_EQ(back.system.cpu.vendor, "AuthenticAMD");
    EXPECT_EQ(back.system.cpu.model_name, "AMD EPYC 9R14");
    EXPECT_EQ(back.system.cpu.family, 25u);
    EXPECT_EQ(back.system.cpu.model, 17u);
    EXPECT_EQ(back.system.cpu.microcode, "0xa101148");
    EXPECT_EQ(back.system.cpu.cores, 2u);
    EXPECT_EQ(back.system.cpu.logical_cpus, 2u);
    EXPECT_EQ(back.system.kernel, "6.1.0-28-amd64");
    EXPECT_EQ(back.system.governor, "performance");
    EXPECT_EQ(back.system.hypervisor, "KVMKVMKVM");
    EXPECT_EQ(back.system.mitigations, r.system.mitigations);
    ASSERT_EQ(back.system.caches.size(), 2u);
    EXPECT_EQ(back.system.caches[1].size_bytes, 33554432u);
    EXPECT_EQ(back.system.caches[1].shared_by, 2u);
    // A file of an older version has none: read as unknown, not refused.
    auto old = j;
    old.erase("system");
    EXPECT_TRUE(parse_result_json(old.dump(), "old.json").system.host_name.empty());
}

TEST(StatReport, TableShowsRunningFractionSpreadAndReasons) {
    const std::string table = render_stat(sample_result(), OutputFormat::table);
    EXPECT_NE(table.find("(3 runs)"), std::string::npos) << table;
    EXPECT_NE(table.find("50.0%"), std::string::npos) << table;    // running fraction
    EXPECT_NE(table.find("+-10.0%"), std::string::npos) << table;  // MAD 100 / median 1000
    EXPECT_NE(table.find("<not supported>"), std::string::npos) << table;
    EXPECT_NE(table.find("ref-cycles: not supported: no PMU, really"), std::string::npos) << table;
    EXPECT_NE(table.find("fix: get one"), std::string::npos) << table;
    EXPECT_NE(table.find("1.00  msec  task-clock"), std::string::npos) << table;
}

TEST(StatReport, MarkdownIsATable) {
    const std::string md = render_stat(sample_result(), OutputFormat::markdown);
    EXPECT_NE(md.find("| event | value |"), std::string::npos) << md;
    EXPECT_NE(md.find("| `cycles` | 1000 |"), std::string::npos) << md;
    // Elapsed time and the derived ratios, as the console table shows them.
    EXPECT_NE(md.find("Elapsed: 0.002000 s (median of 3 runs, min 0.001000, max 0.003000)"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| metric | value | unit | source |"), std::string::npos) << md;
    EXPECT_NE(md.find("| IPC (instructions per cycle) | 2.000 | ratio | hw |"), std::string::npos)
        << md;
    EXPECT_NE(md.find("| CPUs utilized | 0.500 | CPUs | sw |"), std::string::npos) << md;
}

TEST(StatReport, FormatNames) {
    EXPECT_EQ(parse_output_format("md"), OutputFormat::markdown);
    EXPECT_EQ(parse_output_format("json"), OutputFormat::json);
    EXPECT_THROW(parse_output_format("xml"), std::invalid_argument);
}

}  // namespace
}  // namespace perfgauge::harness
