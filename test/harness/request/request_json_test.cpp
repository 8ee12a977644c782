// A RunRequest survives the trip to a measuring child and back field for field, and a request
// of another format, or a malformed one, is refused by name.
#include <gtest/gtest.h>

#include "perfgauge/harness/request_json.hpp"

namespace perfgauge::harness {
namespace {

// Every field away from its default, so that a field the writer or reader forgets shows.
RunRequest everything_set() {
    RunRequest r;
    r.selection.workloads = {"memcpy", "varint"};
    r.selection.variants = {"unrolled"};
    r.selection.distributions = {workloads::Distribution::fixed3, workloads::Distribution::uniform};
    r.selection.shapes = {workloads::Shape::one_shot};
    r.selection.caches = {workloads::CacheState::flush, workloads::CacheState::cold};
    r.selection.sizes = {64, 4096, 18446744073709551615ull};
    r.selection.l1d = 32768;
    r.selection.l3 = 1 << 20;
    r.selection.data_seed = 18446744073709551614ull;
    r.notes = {"--sizes: '4096' is '4K' again; each is measured once"};
    r.default_suite = false;
    r.events = "cycles,instructions:u,{branches,branch-misses}";
    r.backend = Backend::perf;
    r.repetitions = 7;
    r.precision_percent = 0.1;  // not exact in binary: the text must keep every bit
    r.max_time_s = 1.0 / 3;
    r.min_time_s = 0.0002;
    r.warmup_s = 0;
    r.processes = 3;
    r.seed = 42;
    r.interleave = false;
    r.pin_cpu = 1;
    r.fifo = r.mlock = r.quiet = true;
    r.format = OutputFormat::markdown;
    r.show_answer = true;
    r.output = "out dir/table:1.md";
    r.json = {SavedResult::Where::path, "r\"esult.json"};
    r.sim_items = 5;
    r.sim_jobs = 9;
    r.against = AgainstRequest{"../main/perfgauge", 4, 12, 2.5, {SavedResult::Where::nowhere, {}}};
    r.sim_child_manifest = "/tmp/manifest.json";
    r.measuring_child = MeasuringChild{1, 2, "/tmp/x/0-1-own.json"};
    return r;
}

TEST(RequestJson, EveryFieldSurvivesTheRoundTrip) {
    const RunRequest r = everything_set();
    const std::string text = run_request_to_json(r, "9.9.9");
    EXPECT_EQ(text.find('\n'), std::string::npos) << "one line: it is an argument";
    EXPECT_TRUE(run_request_from_json(text, "9.9.9") == r) << text;
    EXPECT_FALSE(run_request_from_json(text, "9.9.9") == RunRequest{});
}

TEST(RequestJson, TheDefaultRequestSurvivesTheRoundTrip) {
    const RunRequest r;
    EXPECT_TRUE(run_request_from_json(run_request_to_json(r, "1"), "1") == r);
}

TEST(RequestJson, AnotherFormatIsRefusedNamingBothBuilds) {
    std::string text = run_request_to_json(everything_set(), "0.1.0");
    const std::string stamp = "\"perfgauge_request\":1";
    ASSERT_NE(text.find(stamp), std::string::npos) << text;
    text.replace(text.find(stamp), stamp.size(), "\"perfgauge_request\":2");
    try {
        run_request_from_json(text, "0.2.0");
        FAIL() << "read a request of another format";
    } catch (const RequestError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("perfgauge 0.1.0 (request format 2)"), std::string::npos) << what;
        EXPECT_NE(what.find("this perfgauge 0.2.0 reads format 1"), std::string::npos) << what;
    }
}

TEST(RequestJson, MalformedRequestsAreRefused) {
    EXPECT_THROW(run_request_from_json("", "1"), RequestError);
    EXPECT_THROW(run_request_from_json("[1]", "1"), RequestError);
    EXPECT_THROW(run_request_from_json("{\"perfgauge_request\":1}", "1"), RequestError);
    std::string text = run_request_to_json(everything_set(), "1");
    text.replace(text.find("\"fixed3\""), 8, "\"fixed9\"");
    EXPECT_THROW(run_request_from_json(text, "1"), RequestError);
}

}  // namespace
}  // namespace perfgauge::harness
