// perfgauge run --against's pairs loop without the binary: both builds' measuring processes
// are a function here that writes the result a real one would (or fails, is killed, writes
// the wrong benchmark), so pairing order, shares, seeds, the stopping rule on seeded synthetic
// pairs, failures and interruptions are checked exactly.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../../support/exit_statuses.hpp"
#include "perfgauge/harness/against_pairs.hpp"
#include "perfgauge/harness/against_run.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "result_file.hpp"

namespace perfgauge::harness {
namespace {

// A one-benchmark result of `rounds` samples, all `ns` ns per item.
RunResult one_benchmark(const std::string& name, std::size_t rounds, double ns) {
    RunResult r;
    r.repetitions = rounds;
    BenchmarkResult b;
    b.name = name;
    b.items_per_iteration = 1000;
    b.iterations = 10;
    b.ns_per_item.assign(rounds, ns);
    b.raw_ns_per_item = b.ns_per_item;
    r.benchmarks.push_back(b);
    return r;
}

// A process as it was started: which build, and what it was given.
struct Started {
    std::string build;  // "own", "other"
    PairedProcess process;
};

PairsPlan plan_of(std::vector<std::string> benchmarks, std::size_t pairs, std::size_t max_pairs) {
    PairsPlan plan;
    plan.benchmarks = std::move(benchmarks);
    plan.pairs = pairs;
    plan.max_pairs = max_pairs;
    plan.precision = 0.01;
    plan.repetitions = 10;
    plan.seed = 100;
    plan.request_format = 7;
    return plan;
}

struct Builds {
    AgainstSide own{"./perfgauge", "this build", {}, "/own"};
    AgainstSide other{"../old/perfgauge", "the other build", {}, "/oth"};
};

std::string build_of(const AgainstSide& side) {
    return side.launch == "/own" ? "own" : "other";
}

// Both builds measure well: the other at 10 ns per item, this one at `ratio`(pair) times that.
template <typename Ratio>
PairedLaunch healthy(const PairsPlan& plan, std::vector<Started>& started, Ratio ratio) {
    return [&plan, &started, ratio](const AgainstSide& side, const PairedProcess& p) {
        started.push_back({build_of(side), p});
        const double ns = build_of(side) == "own" ? 10 * ratio(p.pair) : 10;
        write(p.result_path, one_benchmark(plan.benchmarks[p.benchmark], p.repetitions, ns));
        return ExitStatus{};
    };
}

using test::exited;
using test::killed;

const auto kSteady = [](std::size_t) { return 1.0; };

TEST(AgainstRun, BuildsTakeTurnsGoingFirstByPairAndByBenchmark) {
    const auto plan = plan_of({"a", "b"}, 3, 3);
    Builds builds;
    std::vector<Started> started;
    const auto done =
        measure_pairs(plan, builds.own, builds.other, healthy(plan, started, kSteady));
    std::vector<std::string> order;
    for (const auto& s : started)
        order.push_back(std::to_string(s.process.benchmark) + std::to_string(s.process.pair) +
                        s.build);
    EXPECT_EQ(order, (std::vector<std::string>{"00other", "00own", "01own", "01other", "02other",
                                               "02own", "10own", "10other", "11other", "11own",
                                               "12own", "12other"}));
    EXPECT_TRUE(done.failure.empty());
    EXPECT_TRUE(done.stopped_at.empty());
    EXPECT_EQ(done.fewest, 3u);
    EXPECT_EQ(done.most, 3u);
}

TEST(AgainstRun, EachPairGetsItsShareOfTheRoundsItsSeedAndFilesOfItsOwn) {
    const auto plan = plan_of({"a"}, 3, 3);
    Builds builds;
    std::vector<Started> started;
    measure_pairs(plan, builds.own, builds.other, healthy(plan, started, kSteady));
    ASSERT_EQ(started.size(), 6u);
    std::set<std::filesystem::path> files;
    for (const auto& s : started) {
        const std::size_t i = s.process.pair;
        EXPECT_EQ(s.process.repetitions, i == 0 ? 4u : 3u) << "10 rounds over 3 pairs";
        EXPECT_EQ(s.process.seed, 100 + i);
        files.insert(s.process.result_path);
    }
    EXPECT_EQ(files.size(), 6u);
    // Names of one length for both builds (their argv must be of one length).
    EXPECT_EQ(started[0].process.result_path.filename().string().size(),
              started[1].process.result_path.filename().string().size());
    for (const auto& f : files)
        EXPECT_FALSE(std::filesystem::exists(f)) << "the scratch directory is removed";
}

TEST(AgainstRun, EachSidesPairsAreMergedBenchmarkByBenchmark) {
    const auto plan = plan_of({"a", "b"}, 2, 2);
    Builds builds;
    std::vector<Started> started;
    measure_pairs(plan, builds.own, builds.other,
                  healthy(plan, started, [](std::size_t) { return 0.5; }));
    ASSERT_EQ(builds.own.benchmarks.size(), 2u);
    ASSERT_EQ(builds.other.benchmarks.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
        const auto& own = builds.own.benchmarks[k];
        EXPECT_EQ(own.processes, 2u);
        ASSERT_EQ(own.benchmarks.size(), 1u);
        EXPECT_EQ(own.benchmarks[0].name, plan.benchmarks[k]);
        EXPECT_EQ(own.benchmarks[0].ns_per_item, (std::vector<double>(10, 5.0)));
        EXPECT_EQ(builds.other.benchmarks[k].benchmarks[0].ns_per_item,
                  (std::vector<double>(10, 10.0)));
    }
}

// How many pairs one benchmark takes (--pairs 2, up to `max_pairs`) when this build's time is
// the other's times a ratio drawn uniformly from [low, high) with a fixed seed; each pair is
// two processes.
std::size_t pairs_taken(std::size_t max_pairs, double low, double high) {
    const auto plan = plan_of({"a"}, 2, max_pairs);
    Builds builds;
    std::vector<Started> started;
    std::mt19937 random(42);
    std::uniform_real_distribution<double> ratio(low, high);
    const auto done =
        measure_pairs(plan, builds.own, builds.other,
                      healthy(plan, started, [&](std::size_t) { return ratio(random); }));
    EXPECT_EQ(done.fewest, done.most);
    EXPECT_EQ(started.size(), 2 * done.most);
    return done.most;
}

// The stopping rule on seeded synthetic pairs: steady ratios stop as soon as the sign test has
// pairs enough (and only before an A B couple); scattered ones go on to --max-pairs.
TEST(AgainstRun, SteadyPairsStopOnceTheIntervalIsNarrowScatteredOnesAtMaxPairs) {
    const std::size_t enough = min_sign_test_pairs(0.95);
    EXPECT_EQ(pairs_taken(30, 1.0200, 1.0201), enough + (enough - 2) % 2);
    EXPECT_EQ(pairs_taken(15, 0.7, 1.4), 15u);
}

TEST(AgainstRun, AFailingProcessStopsMeasuringAndKeepsTheBenchmarksBefore) {
    const auto plan = plan_of({"a", "b", "c"}, 2, 2);
    Builds builds;
    std::vector<Started> started;
    const auto well = healthy(plan, started, kSteady);
    const auto done = measure_pairs(plan, builds.own, builds.other,
                                    [&](const AgainstSide& side, const PairedProcess& p) {
                                        if (p.benchmark == 1 && build_of(side) == "other")
                                            return exited(1);
                                        return well(side, p);
                                    });
    EXPECT_EQ(done.stopped_at, "b");
    EXPECT_EQ(done.failure, "the other build (../old/perfgauge) exited with 1 while measuring b");
    EXPECT_EQ(builds.own.benchmarks.size(), 1u);
    EXPECT_EQ(builds.other.benchmarks.size(), 1u);
    for (const auto& s : started)
        EXPECT_LE(s.process.benchmark, 1u) << "nothing after the failure runs";
}

TEST(AgainstRun, AKilledProcessIsAFailureThatNamesTheSignal) {
    const auto plan = plan_of({"a"}, 2, 2);
    Builds builds;
    const auto done =
        measure_pairs(plan, builds.own, builds.other,
                      [](const AgainstSide&, const PairedProcess&) { return killed(SIGKILL); });
    EXPECT_EQ(done.stopped_at, "a");
    EXPECT_NE(done.failure.find("the other build (../old/perfgauge) "), std::string::npos)
        << done.failure;
    EXPECT_NE(done.failure.find("killed by signal 9 (SIGKILL) while measuring a"),
              std::string::npos)
        << done.failure;
    EXPECT_TRUE(builds.own.benchmarks.empty());
}

TEST(AgainstRun, ARefusedRequestNamesTheRequestFormat) {
    const auto plan = plan_of({"a"}, 2, 2);
    Builds builds;
    const auto done =
        measure_pairs(plan, builds.own, builds.other,
                      [](const AgainstSide&, const PairedProcess&) { return exited(2); });
    EXPECT_NE(done.failure.find("it refused its request: --against needs a perfgauge that reads "
                                "request format 7"),
              std::string::npos)
        << done.failure;
}

TEST(AgainstRun, AResultMissingUnreadableOrOfAnotherBenchmarkIsAFailure) {
    const auto plan = plan_of({"a"}, 2, 2);
    const std::vector<std::pair<std::function<void(const PairedProcess&)>, std::string>> cases = {
        {[](const PairedProcess&) {}, "ended without writing a result for a"},
        {[](const PairedProcess& p) { std::ofstream(p.result_path) << "{"; },
         "wrote an invalid result for a"},
        {[](const PairedProcess& p) { write(p.result_path, one_benchmark("z", 3, 1)); },
         "measured 'z' where this build measures a: the two builds' suites differ"}};
    for (const auto& the_case : cases) {
        // Not a structured binding: clang 14 cannot capture one in the lambda below.
        const auto& child = the_case.first;
        const std::string& message = the_case.second;
        Builds builds;
        const auto done = measure_pairs(plan, builds.own, builds.other,
                                        [&child](const AgainstSide&, const PairedProcess& p) {
                                            child(p);
                                            return ExitStatus{};
                                        });
        EXPECT_NE(done.failure.find(message), std::string::npos) << done.failure;
        EXPECT_TRUE(builds.own.benchmarks.empty());
    }
}

TEST(AgainstRun, AnInterruptDropsTheUnfinishedPairsBenchmarkWithoutAFailure) {
    const auto plan = plan_of({"a", "b"}, 2, 2);
    Builds builds;
    std::vector<Started> started;
    int signal = 0;
    PairsHooks hooks;
    hooks.interrupt_signal = [&signal] { return signal; };
    std::vector<std::pair<std::size_t, std::size_t>> shown;
    hooks.before_pair = [&shown](std::size_t k, std::size_t i) { shown.emplace_back(k, i); };
    const auto well = healthy(plan, started, kSteady);
    const auto done = measure_pairs(
        plan, builds.own, builds.other,
        [&](const AgainstSide& side, const PairedProcess& p) {
            if (p.benchmark == 1 && p.pair == 1)
                signal = SIGINT;  // arrives while this process runs
            return well(side, p);
        },
        hooks);
    EXPECT_TRUE(done.failure.empty());
    EXPECT_EQ(done.stopped_at, "b");
    EXPECT_EQ(builds.own.benchmarks.size(), 1u);
    EXPECT_EQ(started.size(), 7u) << "2 pairs of a, 1 of b, then the first process of b's 2nd";
    EXPECT_EQ(shown,
              (std::vector<std::pair<std::size_t, std::size_t>>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
}

TEST(AgainstRun, EqualLengthPathsPadTheShorterBeforeItsFileName) {
    const auto [a, b] = equal_length_paths("/x/perfgauge", "/longer/dir/perfgauge");
    EXPECT_EQ(a, "/x//////////perfgauge");
    EXPECT_EQ(b, "/longer/dir/perfgauge");
    EXPECT_EQ(a.size(), b.size());
}

}  // namespace
}  // namespace perfgauge::harness
