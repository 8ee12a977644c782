#include "perfgauge/harness/session.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <thread>
#include <tuple>

#include "../../pmu/sysfs_pmu.hpp"
#include "../../support/temp_dir.hpp"
#include "perfgauge/harness/session_report.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {
namespace {

const RegionResult& find(const std::vector<RegionResult>& results, const std::string& name) {
    const auto it = std::find_if(results.begin(), results.end(),
                                 [&](const RegionResult& r) { return r.name == name; });
    if (it == results.end())
        throw std::runtime_error("no region " + name);
    return *it;
}

std::size_t index_of(const Session& s, const std::string& event) {
    const auto& names = s.event_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), event) - names.begin());
}

void touch_fresh_pages(std::size_t pages) {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    void* mem =
        ::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mem, MAP_FAILED);
    ::madvise(mem, pages * page, MADV_NOHUGEPAGE);
    auto* bytes = static_cast<volatile char*>(mem);
    for (std::size_t i = 0; i < pages; ++i)
        bytes[i * page] = 1;
    ::munmap(mem, pages * page);
}

TEST(Session, CountsPageFaultsInsideARegion) {
    Session session("task-clock,page-faults");
    {
        auto region = session.region("touch");
        touch_fresh_pages(1000);
    }
    const auto& r = find(session.results(), "touch");
    EXPECT_EQ(r.count, 1u);
    const double faults = r.corrected_counters[index_of(session, "page-faults")];
    EXPECT_GE(faults, 1000 - 2);
    EXPECT_LE(faults, 1000 * test::kFaultsPerTouchedPage + 20);
    EXPECT_GT(r.time_ns, 0);
}

TEST(Session, AggregatesByNameAndNests) {
    Session session("page-faults");
    for (int rep = 0; rep < 2; ++rep) {
        auto outer = session.region("outer");
        for (int i = 0; i < 3; ++i) {
            auto inner = session.region("inner");
        }
    }
    const auto& results = session.results();
    ASSERT_EQ(results.size(), 2u);
    const auto& outer = find(results, "outer");
    const auto& inner = find(results, "inner");
    EXPECT_EQ(outer.count, 2u);
    EXPECT_EQ(inner.count, 6u);
    EXPECT_EQ(outer.depth, 0u);
    EXPECT_EQ(inner.depth, 1u);
    EXPECT_GE(outer.time_ns, inner.time_ns);
    // Correction: every region pays its own measurement's inside cost once; a parent also pays
    // the whole enter+leave of each region nested in it, and the lookup of each entered by name.
    const double o = session.overhead_ns();
    const double nested = session.nested_overhead_ns();
    const double lookup = session.lookup_overhead_ns();
    EXPECT_GT(o, 0);
    EXPECT_GT(nested, 0);
    EXPECT_NEAR(inner.corrected_time_ns, inner.time_ns - 6 * o, 1e-6 * inner.time_ns + 1e-6);
    EXPECT_NEAR(outer.corrected_time_ns, outer.time_ns - 2 * o - 2 * 3 * (nested + lookup),
                1e-6 * outer.time_ns + 1e-6);
}

// The fast path: a name resolved once. Entries by id count and nest as by name; a parent's
// correction subtracts a whole nested region per child and, for a child entered by name, the
// lookup's cost on top (calibrated apart).
TEST(Session, RegionsEnteredByIdCountAndCorrectLikeByNameWithoutTheLookup) {
    Session session("page-faults");
    const auto outer = session.region_id("outer");
    const auto inner = session.region_id("inner");
    EXPECT_EQ(session.results().size(), 2u);  // made when resolved, entered by neither yet
    for (int rep = 0; rep < 2; ++rep) {
        auto o = session.region(outer);
        for (int i = 0; i < 3; ++i)
            auto in = session.region(inner);
    }
    for (int rep = 0; rep < 2; ++rep) {
        auto o = session.region("named parent");
        for (int i = 0; i < 3; ++i)
            auto in = session.region("inner");  // the same region as by id
    }
    const auto& results = session.results();
    const auto& by_id = find(results, "outer");
    const auto& by_name = find(results, "named parent");
    EXPECT_EQ(by_id.count, 2u);
    EXPECT_EQ(find(results, "inner").count, 12u);
    EXPECT_EQ(find(results, "inner").depth, 1u);  // its first entry's, wherever resolved
    const double o = session.overhead_ns();
    const double nested = session.nested_overhead_ns();
    const double lookup = session.lookup_overhead_ns();
    EXPECT_NEAR(by_id.corrected_time_ns, by_id.time_ns - 2 * o - 6 * nested,
                1e-6 * by_id.time_ns + 1e-6);
    EXPECT_NEAR(by_name.corrected_time_ns, by_name.time_ns - 2 * o - 6 * (nested + lookup),
                1e-6 * by_name.time_ns + 1e-6);
    EXPECT_EQ(session.lookup_counter_overhead().size(), 1u);
}

TEST(Session, ARegionIdOfAnotherSessionOrOfNoneIsRefused) {
    Session a("task-clock", SessionOptions{10, 8});
    Session b("task-clock", SessionOptions{10, 8});
    const auto id = a.region_id("a's");
    EXPECT_THROW(auto r = b.region(id), std::invalid_argument);
    EXPECT_THROW(auto r = b.region(Session::RegionId{}), std::invalid_argument);
    EXPECT_TRUE(b.results().empty());
    { auto r = a.region(id); }
    EXPECT_EQ(find(a.results(), "a's").count, 1u);
}

TEST(Session, RegionIdsOnAnotherThreadAreRejected) {
    Session session("task-clock", SessionOptions{10, 8});
    const auto id = session.region_id("owner's");
    int threw = 0;
    std::thread other([&] {
        try {
            auto r = session.region(id);
        } catch (const std::logic_error&) {
            ++threw;
        }
        try {
            session.region_id("other's");
        } catch (const std::logic_error&) {
            ++threw;
        }
    });
    other.join();
    EXPECT_EQ(threw, 2);
    EXPECT_EQ(session.results().size(), 1u);
    EXPECT_EQ(session.results()[0].count, 0u);
}

TEST(Session, AParentDoesNotPayForItsChildrensBookkeeping) {
    // 20000 children's entries outgrow their buffer six times; its new pages once faulted
    // inside the parent, one per 512 entries (~17 us each on the development VM, +31..40% of
    // the parent's raw time). Page faults count exactly: the parent's must not include them.
    Session session("page-faults", SessionOptions{100, 8});
    {
        auto outer = session.region("outer");
        for (int i = 0; i < 20000; ++i)
            auto inner = session.region("inner");
        // A new name's slot is bookkeeping too.
        for (int i = 0; i < 50; ++i)
            auto named = session.region("child " + std::to_string(i));
    }
    ASSERT_TRUE(session.unsupported_events().empty()) << session.unsupported_events()[0];
    const auto& outer = find(session.results(), "outer");
    const auto& inner = find(session.results(), "inner");
    ASSERT_EQ(inner.count, 20000u);
    ASSERT_EQ(inner.entry_ns.size(), 20000u);
    // About 100 before; 0 in the release build, 1-3 under ASan (its allocator's own pages).
    EXPECT_LE(outer.counters[index_of(session, "page-faults")], 5.0);
    // Each child's own interval holds none either (the growth runs after its clock stopped).
    EXPECT_LE(inner.counters[index_of(session, "page-faults")], 5.0);
    // Said: 51 new names (inner and 50) and the journal's replays (where the inner buffer grew
    // 6 times, 512 -> 32768), one per 512 boundaries; the outer's bookkeeping ran with no
    // region open.
    const std::size_t replays = (2 * 20000 + 2 * 50) / 512;
    EXPECT_GE(session.bookkeeping_count(), 51u + replays);
    EXPECT_LE(session.bookkeeping_count(), 51u + replays + 1);
    EXPECT_GT(session.bookkeeping_ns(), 0.0);
    const std::string said = "bookkeeping inside regions (new names, entry buffers growing): " +
                             std::to_string(session.bookkeeping_count()) + " times";
    EXPECT_NE(session.report().find(said), std::string::npos) << session.report();
    const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
    EXPECT_EQ(j["bookkeeping_count"], session.bookkeeping_count());
}

TEST(Session, EntriesAndTheirNestingSurviveTheJournalsReplays) {
    // A boundary only appends its readings to a journal, replayed every 512 records: 3 parents
    // of 700 children of one leaf each make 8406 records, replayed 16 times, most of them with
    // a parent and a child open. Every entry is counted at its depth, and each parent subtracts
    // a nested region's cost for each of its 1400 descendants, as if worked out at each leave.
    Session session("task-clock", SessionOptions{100, 8});
    const auto parent = session.region_id("parent");
    const auto child = session.region_id("child");
    const auto leaf = session.region_id("leaf");
    for (int p = 0; p < 3; ++p) {
        auto outer = session.region(parent);
        for (int c = 0; c < 700; ++c) {
            auto middle = session.region(child);
            auto inner = session.region(leaf);
        }
    }
    const auto& results = session.results();
    for (const auto& [name, count, depth] :
         {std::tuple{"parent", 3u, 0u}, {"child", 2100u, 1u}, {"leaf", 2100u, 2u}}) {
        EXPECT_EQ(find(results, name).count, count) << name;
        EXPECT_EQ(find(results, name).depth, depth) << name;
        EXPECT_EQ(find(results, name).entry_ns.size(), count) << name;
    }
    const auto& parents = find(results, "parent");
    const auto& children = find(results, "child");
    EXPECT_GE(session.bookkeeping_count(), 16u);
    const double o = session.overhead_ns();
    const double nested = session.nested_overhead_ns();
    EXPECT_NEAR(parents.corrected_time_ns, parents.time_ns - 3 * o - 3 * 1400 * nested,
                1e-6 * parents.time_ns + 1e-6);
    EXPECT_NEAR(children.corrected_time_ns, children.time_ns - 2100 * o - 2100 * nested,
                1e-6 * children.time_ns + 1e-6);
    const std::size_t t = index_of(session, "task-clock");
    ASSERT_TRUE(session.unsupported_events().empty()) << session.unsupported_events()[0];
    EXPECT_NEAR(parents.corrected_counters[t],
                parents.counters[t] - 3 * session.counter_overhead()[t] -
                    3 * 1400 * session.nested_counter_overhead()[t],
                1e-6 * parents.counters[t] + 1e-6);
}

TEST(Session, MeasureReturnsTheFunctionsResult) {
    Session session("task-clock", SessionOptions{100, 8});
    const int value = session.measure("compute", [] { return 6 * 7; });
    EXPECT_EQ(value, 42);
    EXPECT_EQ(find(session.results(), "compute").count, 1u);
    EXPECT_NE(session.report().find("compute"), std::string::npos);
}

TEST(Session, EachThreadCountsItself) {
    std::vector<double> faults(2);
    auto worker = [&](std::size_t index, std::size_t pages) {
        Session session("page-faults", SessionOptions{100, 8});
        {
            auto r = session.region("work");
            touch_fresh_pages(pages);
        }
        faults[index] = find(session.results(), "work").corrected_counters[0];
    };
    std::thread a(worker, 0, 300), b(worker, 1, 1200);
    a.join();
    b.join();
    EXPECT_NEAR(faults[0], 300, 300 * (test::kFaultsPerTouchedPage - 1) + 20);
    EXPECT_NEAR(faults[1], 1200, 1200 * (test::kFaultsPerTouchedPage - 1) + 20);
}

TEST(Session, RegionsOnAnotherThreadAreRejected) {
    Session session("task-clock", SessionOptions{10, 8});
    bool threw = false;
    std::thread other([&] {
        try {
            auto r = session.region("wrong thread");
        } catch (const std::logic_error&) {
            threw = true;
        }
    });
    other.join();
    EXPECT_TRUE(threw);
    // Refused before anything changed: no name, no bookkeeping (the refused thread once made
    // the name's slot first, racing the owner's regions).
    EXPECT_TRUE(session.results().empty());
    EXPECT_EQ(session.bookkeeping_count(), 0u);
}

// A Region moved to another thread and ending there: that thread changes nothing but leaves
// word of it; the owner drops the entry uncounted at its next region boundary (so it neither
// nests later regions nor uses up depth), and the report says how many ended elsewhere.
TEST(Session, ARegionEndedOnAnotherThreadIsDroppedUncountedAndReported) {
    Session session("task-clock", SessionOptions{10, 8});
    const auto end_elsewhere = [](Session::Region region) {
        std::thread([r = std::move(region)] {}).join();
    };
    end_elsewhere(session.region("moved away"));
    EXPECT_EQ(session.regions_ended_elsewhere(), 1u);
    const std::string report = session.report();
    EXPECT_NE(report.find("1 region ended on another thread than the session's, each dropped "
                          "uncounted if still open then"),
              std::string::npos)
        << report;
    EXPECT_EQ(report.find("still open when this report was made"), std::string::npos) << report;
    EXPECT_EQ(nlohmann::json::parse(session.report(OutputFormat::json))["regions_ended_elsewhere"],
              1);
    {
        auto next = session.region("next");  // not nested in the abandoned entry
    }
    EXPECT_EQ(find(session.results(), "moved away").count, 0u);
    EXPECT_EQ(find(session.results(), "next").depth, 0u);
    EXPECT_EQ(find(session.results(), "next").count, 1u);

    // Abandoned inside a region that ends on the owner's thread: dropped, the parent counted.
    {
        auto outer = session.region("outer");
        end_elsewhere(session.region("inner"));
    }
    EXPECT_EQ(find(session.results(), "outer").count, 1u);
    EXPECT_EQ(find(session.results(), "inner").count, 0u);
    EXPECT_EQ(session.report().find("closed with it"), std::string::npos) << session.report();

    // Closed with its parent first (counted, as any region closed out of order), its Region
    // ending elsewhere afterwards changes nothing.
    std::optional<Session::Region> kept;
    {
        auto parent = session.region("parent");
        kept.emplace(session.region("closed first"));
    }
    end_elsewhere(std::move(*kept));
    EXPECT_EQ(find(session.results(), "closed first").count, 1u);

    // Many of them never use up the depth (8 here).
    for (int i = 0; i < 20; ++i)
        end_elsewhere(session.region("again"));
    EXPECT_EQ(session.regions_ended_elsewhere(), 23u);
    { auto last = session.region("last"); }
    EXPECT_EQ(find(session.results(), "last").depth, 0u);
    EXPECT_EQ(find(session.results(), "again").count, 0u);
}

TEST(Session, TooDeepNestingIsAnError) {
    Session session("task-clock", SessionOptions{10, 2});
    auto a = session.region("a");
    auto b = session.region("b");
    EXPECT_THROW(static_cast<void>(session.region("c")), std::length_error);
}

TEST(Session, AMaxDepthBelowTheCalibrationsTwoLevelsStillConstructs) {
    // The calibration nests two regions: max_depth 1 once threw before any region was opened.
    Session session("", SessionOptions{10, 1});
    { auto a = session.region("a"); }
    EXPECT_EQ(find(session.results(), "a").count, 1u);
}

TEST(Session, RegionsClosedOutOfOrderCloseWhatIsOpenInsideThemAndSaySo) {
    // Movable Regions can close out of order: the inner one once took the outer one's time.
    Session session("", SessionOptions{10, 8});
    {
        std::optional<Session::Region> outer;
        outer.emplace(session.region("outer"));
        auto inner = session.region("inner");
        outer.reset();  // inner closes with it ...
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }  // ... and is not closed again here, 20 ms later
    { auto after = session.region("after"); }
    const auto& outer = find(session.results(), "outer");
    const auto& inner = find(session.results(), "inner");
    EXPECT_EQ(outer.count, 1u);
    EXPECT_EQ(inner.count, 1u);
    // Had it ended at the block's end, after the 20 ms sleep, it would outlast the outer one.
    EXPECT_LE(inner.time_ns, outer.time_ns)
        << "the inner region's time ends where the outer's does";
    EXPECT_EQ(find(session.results(), "after").depth, 0u) << "nothing left open";
    EXPECT_NE(session.report().find("'inner' was still open when 'outer' around it closed"),
              std::string::npos)
        << session.report();
}

TEST(Session, JsonReportReplacesNamesThatAreNotUtf8) {
    Session session("", SessionOptions{10, 8});
    { auto r = session.region(std::string_view("bad\xff utf8")); }
    const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
    EXPECT_EQ(j["regions"][0]["name"], "bad\xef\xbf\xbd utf8");  // U+FFFD
}

TEST(Session, AParentsCountsLeaveOutTheBookkeepingAsItsTimeDoes) {
    // 2000 new names inside one parent, task-clock: the counter reads around each name's
    // bookkeeping once stayed in the parent's count but not in its time (11.2 ms of task-clock
    // in 7.5 ms of wall time, seen in review). CPU time cannot exceed wall time - unless the
    // thread lost the CPU during the bookkeeping, whose wall time then leaves the parent's time
    // but not its task-clock (5.8 ms in 5.2 ms once in CI, two tests at once on 2 CPUs): one
    // session of five must hold it, which the bug (every session 1.5x) could not. The bound is
    // 1.25, not 1.1: under ASan the best of five came out 1.00-1.12 (12 runs, before and after
    // the boundaries' journal; 1.00-1.03 in a release build), corrections calibrated there.
    double task_clock = 0, time = 0;
    for (int attempt = 0; attempt < 5; ++attempt) {
        Session session("task-clock", SessionOptions{100, 8});
        ASSERT_TRUE(session.unsupported_events().empty()) << session.unsupported_events()[0];
        {
            auto parent = session.region("parent");
            for (int i = 0; i < 2000; ++i)
                auto named = session.region("name " + std::to_string(i));
        }
        const auto& parent = find(session.results(), "parent");
        task_clock = parent.counters[index_of(session, "task-clock")];
        time = parent.time_ns;
        if (task_clock <= 1.25 * time)
            break;
    }
    EXPECT_LE(task_clock, 1.25 * time) << "task-clock " << task_clock << " ns in " << time << " ns";
}

TEST(Session, UnopenableEventsAreReportedNotFatal) {
    Session session("cycles,task-clock", SessionOptions{10, 8});
    if (test::sysfs_lists_core_pmu())
        GTEST_SKIP() << "cycles opens on this machine";
    ASSERT_EQ(session.unsupported_events().size(), 1u);
    EXPECT_NE(session.unsupported_events()[0].find("cycles: not supported"), std::string::npos);
    { auto r = session.region("x"); }
    const std::string report = session.report();
    EXPECT_NE(report.find("not counted: cycles"), std::string::npos);
    // Listed once below, not as a column of zeros.
    EXPECT_EQ(report.find("cycles/ENTRY"), std::string::npos) << report;
    EXPECT_NE(report.find("task-clock/ENTRY"), std::string::npos) << report;
    const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
    EXPECT_FALSE(j["regions"][0]["counters"].contains("cycles"));
    EXPECT_TRUE(j["regions"][0]["counters"].contains("task-clock"));
    EXPECT_EQ(j["not_counted"].size(), 1u);
}

TEST(Session, ReportHasMedianSpreadAndJson) {
    Session session("page-faults", SessionOptions{100, 8});
    for (int i = 0; i < 9; ++i) {
        auto r = session.region("touch");
        touch_fresh_pages(i == 8 ? 400 : 4);  // one slow entry: the median ignores it
    }
    const auto& touch = find(session.results(), "touch");
    ASSERT_EQ(touch.entry_ns.size(), 9u);
    const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
    ASSERT_EQ(j["regions"].size(), 1u);
    const auto& region = j["regions"][0];
    EXPECT_EQ(region["name"], "touch");
    EXPECT_EQ(region["count"], 9);
    EXPECT_EQ(region["entries_in_median"], 9);
    // The mean carries the slow entry; the median does not.
    EXPECT_LT(region["median_corrected_ns"].get<double>(),
              region["corrected_ns_per_entry"].get<double>());
    EXPECT_GT(region["counters"]["page-faults"].get<double>(), 4);
    EXPECT_NE(session.report().find("MEDIAN"), std::string::npos);
    EXPECT_EQ(session.report(OutputFormat::csv).rfind("REGION,DEPTH,COUNT,", 0), 0u)
        << session.report(OutputFormat::csv);
    EXPECT_NE(session.report(OutputFormat::markdown).find("| touch |"), std::string::npos)
        << session.report(OutputFormat::markdown);
}

TEST(Session, ACorrectedTotalBelowZeroIsShownAsZeroAndSaid) {
    // Empty regions correct to about zero and may come out below it, but not on demand (quiet
    // here: ~70 ns measured against ~50 ns calibrated), so the rule is checked on its own.
    std::vector<std::string> notes;
    EXPECT_EQ(shown_corrected(-12.5, "empty total page-faults", notes), 0);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("empty total page-faults: corrected -12.5 is below zero"),
              std::string::npos)
        << notes[0];
    EXPECT_EQ(shown_corrected(-43520, "other median entry", notes, CorrectedUnit::nanoseconds), 0);
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_NE(notes[1].find("other median entry: corrected -43.520 us"), std::string::npos)
        << notes[1];
    notes.pop_back();
    EXPECT_EQ(shown_corrected(40, "work total time", notes, CorrectedUnit::nanoseconds), 40);
    EXPECT_EQ(shown_corrected(0, "work total page-faults", notes), 0);
    EXPECT_EQ(notes.size(), 1u) << "nothing to say at or above zero";
    // A real session's report says 'below zero' exactly when a corrected total or a median
    // entry is negative, and shows no negative figure.
    Session session("task-clock", SessionOptions{200, 8});
    for (int i = 0; i < 3; ++i) {
        auto outer = session.region("work");
        auto inner = session.region("inner");
    }
    // Time and every counter are shown through the rule: task-clock's corrected total can
    // fall below zero while the time's does not (it did once in CI).
    const auto below_zero = [](const RegionResult& r) {
        return r.corrected_time_ns < 0 || summarize(r.entry_ns).median < 0 ||
               std::any_of(r.corrected_counters.begin(), r.corrected_counters.end(),
                           [](double c) { return c < 0; });
    };
    const bool negative =
        std::any_of(session.results().begin(), session.results().end(), below_zero);
    EXPECT_EQ(session.report().find("below zero") != std::string::npos, negative)
        << session.report();
    const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
    for (const auto& region : j["regions"]) {
        EXPECT_GE(region["corrected_ns_per_entry"].get<double>(), 0) << region.dump();
        EXPECT_GE(region["median_corrected_ns"].get<double>(), 0) << region.dump();
        // IQR / median means nothing around a median shown as 0.
        EXPECT_EQ(region["relative_iqr"].is_null(),
                  region["median_corrected_ns"].get<double>() == 0)
            << region.dump();
    }
}

TEST(Session, CsvGivesTheNestingAsADepthColumn) {
    Session session("", SessionOptions{20, 8});
    {
        auto outer = session.region("outer");
        auto inner = session.region("inner");
    }
    const std::string csv = session.report(OutputFormat::csv);
    EXPECT_NE(csv.find("\nouter,0,1,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\ninner,1,1,"), std::string::npos) << csv;
    // The table keeps showing the nesting by indentation.
    EXPECT_NE(session.report().find("\n  inner "), std::string::npos) << session.report();
}

TEST(Session, AReportTakenWhileRegionsAreOpenSaysWhich) {
    Session session("", SessionOptions{20, 8});
    { auto done = session.region("done"); }
    auto outer = session.region("outer");
    auto inner = session.region("inner");
    const std::string report = session.report();
    EXPECT_NE(report.find("still open when this report was made (their open entries are not "
                          "included): 'outer', 'inner'"),
              std::string::npos)
        << report;
    EXPECT_NE(report.find("done"), std::string::npos);
    const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
    EXPECT_EQ(j["regions"].size(), 1u) << "no entry of either open region has ended";
}

// The flag forced either way; its default (this file's __OPTIMIZE__) is checked too, and
// install_and_consume builds a consumer at -O0 and at -O2 to prove the real path.
TEST(Session, CodeBuiltWithoutOptimizationIsSaidFirstAndInTheJson) {
    constexpr const char* kSaid = "built without optimization: ";
    {
        Session session("", SessionOptions{20, 8}, false);
        EXPECT_FALSE(session.caller_optimized());
        { auto r = session.region("work"); }
        const std::string table = session.report();
        // The first line under the table: it puts every number above it in doubt.
        EXPECT_NE(table.find("\nbuilt without optimization: "), std::string::npos) << table;
        EXPECT_LT(table.find(kSaid), table.find("clock ")) << table;
        EXPECT_NE(table.find("-DCMAKE_BUILD_TYPE=Release"), std::string::npos) << table;
        EXPECT_NE(session.report(OutputFormat::markdown).find(std::string("- ") + kSaid),
                  std::string::npos);
        const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
        EXPECT_EQ(j.at("caller_optimized"), false);
        EXPECT_EQ(j.at("notes").at(0).get<std::string>().rfind(kSaid, 0), 0u) << j.dump();
    }
    {
        Session session("", SessionOptions{20, 8}, true);
        EXPECT_TRUE(session.caller_optimized());
        { auto r = session.region("work"); }
        EXPECT_EQ(session.report().find("optimization"), std::string::npos) << session.report();
        const auto j = nlohmann::json::parse(session.report(OutputFormat::json));
        EXPECT_EQ(j.at("caller_optimized"), true);
    }
#ifdef __OPTIMIZE__
    constexpr bool kThisFileOptimized = true;
#else
    constexpr bool kThisFileOptimized = false;
#endif
    EXPECT_EQ(Session("", SessionOptions{20, 8}).caller_optimized(), kThisFileOptimized);
}

TEST(Session, DisabledMarkersCompileToNothing) {
    // Without PERFGAUGE_ENABLE_MARKERS the arguments are not evaluated: not even declared here.
    PERFGAUGE_REGION(no_such_session, no_such_name);
    SUCCEED();
}

}  // namespace
}  // namespace perfgauge::harness
