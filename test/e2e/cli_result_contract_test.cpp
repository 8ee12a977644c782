// End-to-end: the result contract on the command line. A file of a newer schema version, or
// whose benchmarks share a name, is refused by every command that reads results (exit 2, the
// file named); a file written before schema_version existed is read as version 1.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "../support/cli.hpp"
#include "../support/temp_dir.hpp"

namespace perfgauge::test {
namespace {

const std::string kUnversionedRun =
    std::string(PERFGAUGE_SOURCE_DIR) + "/test/harness/results/fixtures/run-unversioned.json";

// Every command that reads a result file, on `file`.
std::vector<std::vector<std::string>> readers_of(const std::string& file,
                                                 const std::filesystem::path& dir) {
    return {{"compare", file, kUnversionedRun},
            {"export", file, "--format", "csv"},
            {"export", file, "--format", "json", "-o", (dir / "exported.json").string()},
            {"plot", file, "-o", (dir / "plot.png").string()}};
}

TEST(CliResultContract, AFileOfANewerSchemaVersionIsRefusedByEveryReader) {
    const TempDir dir;
    auto j = nlohmann::json::parse(read_file(kUnversionedRun));
    j["schema_version"] = 2;
    const auto future = dir.write("future.json", j.dump()).string();
    for (const auto& args : readers_of(future, dir.path())) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
        EXPECT_NE(r.err.find(future + ": written for result schema version 2, newer than this "
                                      "perfgauge reads (versions 1 to 1)"),
                  std::string::npos)
            << args[0] << ": " << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "exported.json"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "plot.png"));
}

TEST(CliResultContract, AFileWrittenBeforeTheVersionIsReadAsVersionOne) {
    const TempDir dir;
    const auto exported = dir.path() / "exported.json";
    const auto r =
        perfgauge({"export", kUnversionedRun, "--format", "json", "-o", exported.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(read_file(exported))["schema_version"], 1);
    const auto compared = perfgauge({"compare", kUnversionedRun, kUnversionedRun});
    EXPECT_EQ(compared.exit_code, 0) << compared.err;
}

TEST(CliResultContract, AResultWhoseBenchmarksShareANameIsRefusedNotMerged) {
    const TempDir dir;
    auto j = nlohmann::json::parse(read_file(kUnversionedRun));
    auto second = j["benchmarks"];
    for (auto& e : second)
        e["family_index"] = 1;
    for (const auto& e : second)
        j["benchmarks"].push_back(e);
    const auto twice = dir.write("twice.json", j.dump()).string();
    for (const auto& args : readers_of(twice, dir.path())) {
        const auto r = perfgauge(args);
        EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
        EXPECT_NE(r.err.find(twice + ": two benchmarks are named 'memcpy/log-uniform/hot/64B'"),
                  std::string::npos)
            << args[0] << ": " << r.err;
    }
}

}  // namespace
}  // namespace perfgauge::test
