// The adapter says "built without optimization" in Google Benchmark's context when the code
// calling initialize() was compiled without it. The flag is forced here either way;
// install_and_consume builds a consumer at -O0 and at -O2 to prove the default argument.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "../../../harness/gbench/src/gbench_flags.hpp"
#include "perfgauge/harness/gbench_counters.hpp"

namespace perfgauge::gbench {
namespace {

// The "context" Google Benchmark's JSON reporter writes (as in a --benchmark_out file).
nlohmann::json json_context() {
    std::ostringstream out;
    std::ostringstream err;
    benchmark::JSONReporter reporter;
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&err);
    reporter.ReportContext(benchmark::BenchmarkReporter::Context());
    reporter.Finalize();
    return nlohmann::json::parse(out.str()).at("context");
}

bool initialize_without_arguments(bool caller_optimized) {
    char program[] = "bench";
    char* argv[] = {program, nullptr};
    int argc = 1;
    return initialize(&argc, argv, caller_optimized);
}

// One test: Google Benchmark's context is the process's, and cannot be taken back.
TEST(GbenchUnoptimized, SaidOnceInTheContextOnlyWhenTheCallerIsNotOptimized) {
    const std::string key(kUnoptimizedContextKey);
    ASSERT_TRUE(initialize_without_arguments(true));
    EXPECT_FALSE(json_context().contains(key)) << json_context().dump();

    ASSERT_TRUE(initialize_without_arguments(false));
    const auto context = json_context();
    ASSERT_TRUE(context.contains(key)) << context.dump();
    const auto said = context.at(key).get<std::string>();
    EXPECT_EQ(said.rfind("built without optimization: ", 0), 0u) << said;
    EXPECT_NE(said.find("-DCMAKE_BUILD_TYPE=Release"), std::string::npos) << said;

    // A second initialize() adds nothing: Google Benchmark would complain on stderr of a key
    // added twice.
    testing::internal::CaptureStderr();
    ASSERT_TRUE(initialize_without_arguments(false));
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(json_context().at(key), said);
}

}  // namespace
}  // namespace perfgauge::gbench
