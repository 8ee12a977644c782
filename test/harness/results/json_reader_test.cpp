// The one bounded JSON reader: a nesting limit every result reader holds to (a clear error naming
// the file and the byte, never a stack overflow), and messages that name the field at fault.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/result_file.hpp"

namespace perfgauge::harness {
namespace {

std::string fixture_text(const std::string& name) {
    std::ifstream in(std::string(PERFGAUGE_RESULTS_FIXTURES) + "/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string nested_text(std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

// `text` with "deep": a value `depth` levels deep, added as the object's first field.
std::string with_deep_field(const std::string& text, std::size_t depth) {
    const auto brace = text.find('{');
    return text.substr(0, brace + 1) + "\"deep\": " + nested_text(depth) + ", " +
           text.substr(brace + 1);
}

// A Google Benchmark result of one benchmark, two samples; the second's `field` (when given)
// holds `raw`, as written (a bare NaN).
std::string gbench_text(const std::string& field = "", const std::string& raw = "") {
    nlohmann::json entry = {{"name", "BM_a"},
                            {"run_name", "BM_a"},
                            {"run_type", "iteration"},
                            {"family_index", 0},
                            {"per_family_instance_index", 0},
                            {"iterations", 10},
                            {"real_time", 2.0},
                            {"cpu_time", 2.0},
                            {"time_unit", "ns"},
                            {"repetition_index", 0}};
    const std::string first = entry.dump();
    entry["repetition_index"] = 1;
    std::string second = entry.dump();
    if (!field.empty()) {
        entry.erase(field);
        second = entry.dump();
        second.insert(second.size() - 1, ",\"" + field + "\": " + raw);
    }
    return R"({"context": {"date": "2026-12-07", "num_cpus": 2}, "benchmarks": [)" + first + ", " +
           second + "]}";
}

std::string read_refusal(const std::function<void()>& read) {
    try {
        read();
    } catch (const ResultFileError& e) {
        return e.what();
    }
    return "(read without error)";
}

TEST(JsonReader, FindsTheFirstBracketPastTheLimit) {
    EXPECT_EQ(json_too_deep_at(nested_text(kMaxJsonDepth)), std::nullopt);
    EXPECT_EQ(json_too_deep_at(nested_text(kMaxJsonDepth + 1)), kMaxJsonDepth + 1);
    EXPECT_EQ(json_too_deep_at(R"({"a": [[[1]]]})", 3), 9u);  // the third [ is 4 deep
    EXPECT_EQ(json_too_deep_at(R"({"a": [[1]], "b": [[2]]})", 3), std::nullopt);
    // Brackets inside strings, escaped quotes included, are text.
    EXPECT_EQ(json_too_deep_at(R"(["[[[[", "\"[[[[", "\\"])", 1), std::nullopt);
    EXPECT_EQ(json_too_deep_at(R"(["\\", [)", 1), 8u);
    // Too many closing brackets are the parser's to report, not a negative depth.
    EXPECT_EQ(json_too_deep_at("]]]][[", 2), std::nullopt);
    EXPECT_EQ(json_too_deep_at("", 2), std::nullopt);
}

TEST(JsonReader, ParsesWithinTheLimitAndSkipsAByteOrderMark) {
    EXPECT_EQ(parse_json_bounded("\xEF\xBB\xBF{\"a\": [1]}", "f.json")["a"][0], 1);
    EXPECT_THROW(parse_json_bounded("{", "f.json"), nlohmann::json::parse_error);
    EXPECT_EQ(read_refusal([] { parse_json_bounded(nested_text(100000), "f.json"); }),
              "f.json: JSON nested deeper than 64 levels at byte 65 (a result nests a few levels; "
              "give the JSON that perfgauge or Google Benchmark wrote)");
}

TEST(JsonReader, EveryResultReaderRefusesAValueNestedTooDeep) {
    const std::string run = with_deep_field(fixture_text("run-unversioned.json"), 100000);
    const std::string stat = with_deep_field(fixture_text("stat-unversioned.json"), 100000);
    const std::string gb = with_deep_field(gbench_text(), 100000);
    const std::string gb_nan = with_deep_field(gbench_text("x", "NaN"), 100000);
    const std::string expected = "f.json: JSON nested deeper than 64 levels at byte";
    for (const auto& [name, read] : std::vector<std::pair<std::string, std::function<void()>>>{
             {"any run", [&] { parse_result_json(run, "f.json"); }},
             {"run", [&] { parse_run_json(run, "f.json"); }},
             {"any stat", [&] { parse_result_json(stat, "f.json"); }},
             {"stat", [&] { parse_stat_json(stat, "f.json"); }},
             {"any gbench", [&] { parse_result_json(gb, "f.json"); }},
             {"gbench", [&] { parse_gbench_json(gb, "f.json"); }},
             {"any gbench with NaN", [&] { parse_result_json(gb_nan, "f.json"); }}}) {
        EXPECT_EQ(read_refusal(read).rfind(expected, 0), 0u) << name << ": " << read_refusal(read);
    }
    // Within the limit, the same files read.
    EXPECT_NO_THROW(
        parse_result_json(with_deep_field(fixture_text("run-unversioned.json"), 60), "f"));
    EXPECT_NO_THROW(parse_result_json(with_deep_field(gbench_text(), 60), "f"));
}

TEST(JsonReader, ANanInGoogleBenchmarkJsonIsBlamedOnItsOwnField) {
    // A NaN family_index looked like two benchmarks sharing a name; a NaN repetition_index or
    // error_occurred passed or said only "type must be boolean".
    for (const std::string field : {"family_index", "per_family_instance_index", "repetition_index",
                                    "repetitions", "threads"}) {
        const std::string message =
            read_refusal([&] { parse_result_json(gbench_text(field, "NaN"), "f"); });
        EXPECT_NE(
            message.find("'BM_a': " + field + " is NaN, not a count (a non-negative integer)"),
            std::string::npos)
            << field << ": " << message;
    }
    EXPECT_EQ(
        read_refusal([] { parse_result_json(gbench_text("error_occurred", "NaN"), "gb.json"); }),
        "gb.json: malformed Google Benchmark result: 'BM_a': error_occurred is NaN, not "
        "true or false");
    EXPECT_NE(read_refusal([] {
                  parse_result_json(gbench_text("real_time", "-NaN"), "gb.json");
              }).find("real_time is -NaN"),
              std::string::npos);
}

TEST(JsonReader, AWrongValueIsShownShort) {
    // A 100,000-element array where a number belongs: named, not printed whole.
    std::string big = "[";
    for (int i = 0; i < 100000; ++i)
        big += std::to_string(i) + ",";
    big.back() = ']';
    const std::string message =
        read_refusal([&] { parse_result_json(gbench_text("cpu_time", big), "gb.json"); });
    EXPECT_NE(message.find("cpu_time is [0,1,2,"), std::string::npos) << message;
    EXPECT_NE(message.find("characters)"), std::string::npos) << message;
    EXPECT_LT(message.size(), 300u) << message;
}

TEST(JsonReader, BenchmarksThatAreNotAnArrayAreRefused) {
    std::string run = fixture_text("run-unversioned.json");
    const auto at = run.find("\"benchmarks\": [");
    ASSERT_NE(at, std::string::npos);
    run.replace(at, 15, "\"benchmarks\": {\"a\": 1}, \"x\": [");
    EXPECT_NE(read_refusal([&] { parse_result_json(run, "r.json"); })
                  .find("r.json: malformed perfgauge result: 'benchmarks' is {\"a\":1}, not an "
                        "array"),
              std::string::npos)
        << read_refusal([&] { parse_result_json(run, "r.json"); });
    EXPECT_NE(read_refusal([] {
                  parse_gbench_json(R"({"context": {}, "benchmarks": {"a": 1}})", "gb.json");
              }).find("'benchmarks' is {\"a\":1}, not an array"),
              std::string::npos);
}

}  // namespace
}  // namespace perfgauge::harness
