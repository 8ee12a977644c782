// End-to-end: every relative interval compare prints for the result files the end-to-end tests
// use (the committed fixtures, fresh stat results side by side and apart, Google Benchmark
// files) is on the ratio scale: none reaches below -100%, in the table or in JSON, for every
// pair of files of one kind and every pair of variants or commands within a file.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "../support/cli.hpp"
#include "../support/measured_programs.hpp"
#include "../support/temp_dir.hpp"
#include "../support/text.hpp"

namespace perfgauge::test {
namespace {

namespace fs = std::filesystem;

// A result file of the corpus and its kind (only files of one kind are compared).
struct CorpusFile {
    std::string path, kind;
};

// What a result file is, from its shape: "run", "stat", "stat-side-by-side", "gbench".
std::string kind_of(const nlohmann::json& j) {
    if (j.value("side_by_side", false))
        return "stat-side-by-side";
    if (j.contains("command"))
        return "stat";
    if (j.contains("context") && j["context"].contains("perfgauge"))
        return "run";
    return "gbench";
}

// Every result file of the corpus: the committed fixtures, and files made here as the other
// end-to-end tests make them.
std::vector<CorpusFile> corpus(const TempDir& dir) {
    std::vector<std::string> paths;
    for (const char* fixtures : {"/test/e2e/fixtures", "/test/harness/results/fixtures"}) {
        for (const auto& e : fs::directory_iterator(std::string(PERFGAUGE_SOURCE_DIR) + fixtures)) {
            if (e.path().extension() == ".json")
                paths.push_back(e.path().string());
        }
    }
    for (const auto& [name, pages] : {std::pair{"a.json", "100"}, {"b.json", "3000"}}) {
        const std::string out = (dir.path() / name).string();
        EXPECT_EQ(perfgauge({"stat", "-r", "5", "-e", "task-clock,page-faults", "--format", "json",
                             "-o", out, "--", kStatWorkload, "touch", pages})
                      .exit_code,
                  0);
        paths.push_back(out);
    }
    const std::string side = (dir.path() / "side.json").string();
    EXPECT_EQ(perfgauge({"stat", "-r", "6", "-e", "task-clock,page-faults", "--format", "json",
                         "-o", side, "--", kStatWorkload, "touch", "100", ":::", kStatWorkload,
                         "touch", "3000"})
                  .exit_code,
              0);
    paths.push_back(side);
    for (const char* name : {"gb1.json", "gb2.json"}) {
        const std::string out = (dir.path() / name).string();
        const auto r = run_process({PERFGAUGE_BENCH_VARINT_PATH, "--benchmark_repetitions=5",
                                    "--benchmark_filter=^varint/branchy/log-uniform/one-shot$",
                                    "--benchmark_min_time=0.01", "--benchmark_out=" + out,
                                    "--benchmark_out_format=json"});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        paths.push_back(out);
    }
    std::vector<CorpusFile> out;
    for (const auto& p : paths)
        out.push_back({p, kind_of(nlohmann::json::parse(read_file(p)))});
    return out;
}

// The values of `key` among the benchmarks' perfgauge_params of a run result, or the commands of
// a side-by-side stat result.
std::vector<std::string> variants_of(const CorpusFile& f) {
    const auto j = nlohmann::json::parse(read_file(f.path));
    std::set<std::string> seen;
    std::vector<std::string> out;
    if (f.kind == "stat-side-by-side") {
        for (const auto& label : j["labels"])
            out.push_back(label.get<std::string>());
        return out;
    }
    for (const auto& b : j.value("benchmarks", nlohmann::json::array())) {
        const auto params = b.value("perfgauge_params", nlohmann::json::object());
        if (params.contains("variant") && seen.insert(params["variant"]).second)
            out.push_back(params["variant"]);
    }
    return out;
}

// Every interval of a JSON comparison, relative to its baseline's median: none below -100%.
// Returns how many were checked.
std::size_t check_json(const nlohmann::json& comparison, const std::string& what) {
    std::size_t checked = 0;
    for (const auto& b : comparison["benchmarks"]) {
        for (const auto& m : b["metrics"]) {
            if (!m["baseline_median"].is_number() || !m["ci_low"].is_number() ||
                !(m["baseline_median"].get<double>() > 0))
                continue;
            ++checked;
            EXPECT_GE(m["ci_low"].get<double>() / m["baseline_median"].get<double>(), -1 - 1e-12)
                << what << ": " << b["name"] << " " << m;
        }
    }
    return checked;
}

// The lowest "[x%," a table prints (0 without one).
double lowest_printed_bound(const std::string& text) {
    double lowest = 0;
    for (std::size_t at = text.find('['); at != std::string::npos; at = text.find('[', at + 1)) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str() + at + 1, &end);
        if (end != text.c_str() + at + 1 && *end == '%')
            lowest = std::min(lowest, value);
    }
    return lowest;
}

// One comparison, in JSON and as a table: returns the intervals checked. Files or variants
// without a benchmark in common are refused (exit 2) and have none.
std::size_t check_compare(std::vector<std::string> args, const std::string& what) {
    args.insert(args.begin(), "compare");
    const auto table = perfgauge(args);
    if (table.exit_code == 2 && (table.err.find("no benchmark in common") != std::string::npos ||
                                 table.err.find("has no benchmark pairs") != std::string::npos))
        return 0;
    EXPECT_EQ(table.exit_code, 0) << what << ": " << table.err;
    EXPECT_GE(lowest_printed_bound(table.out), -100) << what << ":\n" << table.out;
    args.insert(args.end(), {"--format", "json"});
    const auto json = perfgauge(args);
    EXPECT_EQ(json.exit_code, 0) << what << ": " << json.err;
    return json.exit_code == 0 ? check_json(nlohmann::json::parse(json.out), what) : 0;
}

TEST(CliCompareIntervals, NoIntervalOfTheCorpusReachesBelowMinus100Percent) {
    TempDir dir;
    const auto files = corpus(dir);
    std::size_t checked = 0;
    for (const auto& a : files) {
        // Files of one kind, each pair both ways and each file against itself.
        for (const auto& b : files) {
            if (a.kind == b.kind)
                checked += check_compare({a.path, b.path}, a.path + " vs " + b.path);
        }
        const auto variants = variants_of(a);
        for (const auto& x : variants) {
            for (const auto& y : variants) {
                if (x != y)
                    checked += check_compare({a.path, "--baseline", x, "--contender", y},
                                             a.path + ": " + x + " vs " + y);
            }
        }
        if (a.kind == "stat-side-by-side")
            checked += check_json(nlohmann::json::parse(read_file(a.path))["comparison"], a.path);
    }
    // The corpus holds intervals to check: a run result's variants, stat and Google Benchmark
    // times and counts.
    EXPECT_GT(checked, 50u);
}

}  // namespace
}  // namespace perfgauge::test
