// End-to-end: what a hostile or careless user gives (issue 38). User patterns run in linear
// time, an output never names an input, inputs are bounded and read once, bytes that are not
// UTF-8 never break a JSON output, ignored signals stay ignored, children are reaped and counted
// honestly.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
    const auto path = dir.path() / name;
    std::ofstream(path) << text;
    return path.string();
}

// A Google Benchmark result with one sample per name.
std::string gbench_json(const std::vector<std::string>& names) {
    nlohmann::json j;
    j["context"] = {{"date", "2026-11-27T00:00:00+00:00"}, {"num_cpus", 2}};
    j["benchmarks"] = nlohmann::json::array();
    for (const auto& name : names) {
        j["benchmarks"].push_back({{"name", name},
                                   {"run_type", "iteration"},
                                   {"iterations", 1000},
                                   {"real_time", 2.0},
                                   {"cpu_time", 2.0},
                                   {"time_unit", "ns"}});
    }
    return j.dump();
}

// The benchmark names `export --format bmf --filter pattern` keeps.
std::vector<std::string> kept(const std::string& file, const std::string& pattern) {
    const auto r = perfgauge({"export", file, "--format", "bmf", "--filter", pattern});
    EXPECT_EQ(r.exit_code, 0) << pattern << ": " << r.err.substr(0, 500);
    std::vector<std::string> names;
    if (r.exit_code == 0) {
        for (const auto& [name, measures] : nlohmann::json::parse(r.out).items())
            names.push_back(name);
    }
    return names;
}

// std::regex overflowed the stack on a 50k-character name and never finished `(a|a)*b`.
TEST(CliHostileInputs, PatternsMatchLongNamesInLinearTime) {
    TempDir dir;
    const std::string as(50000, 'a');
    const auto file = write(dir, "gb.json", gbench_json({as, as + "b", "short/b"}));
    using Names = std::vector<std::string>;
    EXPECT_EQ(kept(file, "(a|a)*b"), (Names{as + "b", "short/b"}));
    EXPECT_EQ(kept(file, "^(a|aa)+$"), Names{as});
    EXPECT_EQ(kept(file, "^(a*)*c"), Names{});
    EXPECT_EQ(kept(file, "short"), Names{"short/b"});
}

TEST(CliHostileInputs, InvalidPatternExitsTwoWithTheEnginesMessage) {
    TempDir dir;
    const auto file = write(dir, "gb.json", gbench_json({"x"}));
    for (const std::string pattern : {"((", "a{2,1}", "(?<=a)b", "\\"}) {
        const auto r = perfgauge({"export", file, "--filter", pattern});
        EXPECT_EQ(r.exit_code, 2) << pattern;
        EXPECT_NE(r.err.find("--filter '" + pattern + "': not a regular expression ("),
                  std::string::npos)
            << r.err;
    }
    EXPECT_NE(perfgauge({"export", file, "--filter", "(("}).err.find("missing )"),
              std::string::npos);
}

}  // namespace
}  // namespace perfgauge::test
