// A child's request survives the trip to the child and back field for field, its role beside
// the run's fields; a request of another format, a malformed one, or one with no role or two, is
// refused by name.
#include <gtest/gtest.h>

#include "perfgauge/harness/request_json.hpp"

#include <filesystem>
#include <utility>

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
    return r;
}

ChildRequest measuring(RunRequest r) {
    return {std::move(r), MeasuringChild{1, 2, "/tmp/x/0-1-own.json"}};
}

TEST(RequestJson, EveryFieldSurvivesTheRoundTrip) {
    const ChildRequest r = measuring(everything_set());
    const std::string text = child_request_to_json(r, "9.9.9");
    EXPECT_EQ(text.find('\n'), std::string::npos) << "one line: it is an argument";
    EXPECT_TRUE(child_request_from_json(text, "9.9.9") == r) << text;
    EXPECT_FALSE(child_request_from_json(text, "9.9.9") == measuring(RunRequest{}));
}

TEST(RequestJson, TheDefaultRequestSurvivesTheRoundTrip) {
    const ChildRequest r = measuring(RunRequest{});
    EXPECT_TRUE(child_request_from_json(child_request_to_json(r, "1"), "1") == r);
}

TEST(RequestJson, TheSimulationChildsManifestTravelsInsideTheRequest) {
    const ChildRequest r{everything_set(), SimulationChild{"/tmp/sim dir/manifest.json"}};
    const std::string text = child_request_to_json(r, "1");
    EXPECT_NE(text.find(R"("sim_child_manifest":"/tmp/sim dir/manifest.json")"), std::string::npos)
        << text;
    EXPECT_NE(text.find(R"("measuring_child":null)"), std::string::npos) << text;
    EXPECT_TRUE(child_request_from_json(text, "1") == r);
}

TEST(RequestJson, TheRoleIsKeptWhereTheFirstFormatHadItSoThatItsBuildsReadIt) {
    // Format 1 carried the role among the run's fields: a build of that format (an --against
    // OTHER) reads this text as before.
    const std::string text = child_request_to_json(measuring(RunRequest{}), "1");
    EXPECT_NE(
        text.find(R"("measuring_child":{"count":2,"index":1,"result_path":"/tmp/x/0-1-own.json"})"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find(R"("perfgauge_request":1)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("sim_child_manifest":null)"), std::string::npos) << text;
}

TEST(RequestJson, AProcessThatLeavesTheDecoderCheckSaysSoAndOnlyThen) {
    ChildRequest r{RunRequest{}, MeasuringChild{1, 2, "r.json", false}};
    const std::string text = child_request_to_json(r, "1");
    EXPECT_NE(text.find(R"("checks_decoders":false)"), std::string::npos) << text;
    EXPECT_TRUE(child_request_from_json(text, "1") == r);
    // Checking, the default, is not written: a build that does not know the key reads the rest.
    const std::string checking = child_request_to_json(measuring(RunRequest{}), "1");
    EXPECT_EQ(checking.find("checks_decoders"), std::string::npos) << checking;
    EXPECT_TRUE(child_request_from_json(checking, "1").measuring()->checks_decoders);
}

TEST(RequestJson, ARequestWithNoRoleOrTwoIsRefused) {
    std::string text = child_request_to_json(measuring(RunRequest{}), "1");
    const std::string place =
        R"("measuring_child":{"count":2,"index":1,"result_path":"/tmp/x/0-1-own.json"})";
    ASSERT_NE(text.find(place), std::string::npos) << text;
    std::string none = text;
    none.replace(none.find(place), place.size(), R"("measuring_child":null)");
    EXPECT_THROW(child_request_from_json(none, "1"), RequestError);
    std::string beyond = text;
    beyond.replace(beyond.find(place), place.size(),
                   R"("measuring_child":{"count":2,"index":2,"result_path":"r"})");
    EXPECT_THROW(child_request_from_json(beyond, "1"), RequestError);
    std::string both = text;
    both.replace(both.find(R"("sim_child_manifest":null)"), 25,
                 R"("sim_child_manifest":"/tmp/m.json")");
    try {
        child_request_from_json(both, "1");
        FAIL() << "a measuring process's request read as the simulation's";
    } catch (const RequestError& e) {
        EXPECT_STREQ(e.what(), "a measuring process's request for the simulation");
    }
    // A manifest in a request with no place makes it the simulation child's.
    std::string simulation = none;
    simulation.replace(simulation.find(R"("sim_child_manifest":null)"), 25,
                       R"("sim_child_manifest":"/tmp/m.json")");
    EXPECT_TRUE(child_request_from_json(simulation, "1").role ==
                ProcessRole(SimulationChild{"/tmp/m.json"}));
}

TEST(RequestJson, AChildsCommandLineIsRunWithItsRequest) {
    const ChildRequest r = measuring(everything_set());
    const auto argv = child_argv("/a/perfgauge", r, "9.9.9");
    ASSERT_EQ(argv.size(), 3u);
    EXPECT_EQ(argv[0], "/a/perfgauge");
    EXPECT_EQ(argv[1], "run");
    EXPECT_EQ(argv[2], "--internal-request=" + child_request_to_json(r, "9.9.9"));
}

TEST(RequestJson, AnotherFormatIsRefusedNamingBothBuilds) {
    std::string text = child_request_to_json(measuring(everything_set()), "0.1.0");
    const std::string stamp = "\"perfgauge_request\":1";
    ASSERT_NE(text.find(stamp), std::string::npos) << text;
    text.replace(text.find(stamp), stamp.size(), "\"perfgauge_request\":2");
    try {
        child_request_from_json(text, "0.2.0");
        FAIL() << "read a request of another format";
    } catch (const RequestError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("perfgauge 0.1.0 (request format 2)"), std::string::npos) << what;
        EXPECT_NE(what.find("this perfgauge 0.2.0 reads format 1"), std::string::npos) << what;
    }
}

TEST(RequestJson, MalformedRequestsAreRefused) {
    EXPECT_THROW(child_request_from_json("", "1"), RequestError);
    EXPECT_THROW(child_request_from_json("[1]", "1"), RequestError);
    EXPECT_THROW(child_request_from_json("{\"perfgauge_request\":1}", "1"), RequestError);
    std::string text = child_request_to_json(measuring(everything_set()), "1");
    text.replace(text.find("\"fixed3\""), 8, "\"fixed9\"");
    EXPECT_THROW(child_request_from_json(text, "1"), RequestError);
}

}  // namespace
}  // namespace perfgauge::harness
