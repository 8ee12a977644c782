// callgrind's output format, the event mapping, valgrind's cache geometry and command line.
#include <gtest/gtest.h>

#include <algorithm>

#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/callgrind_output.hpp"

namespace perfgauge::pmu {
namespace {

// Abridged from a real dump of valgrind 3.19 (--branch-sim=yes --cache-sim=yes).
constexpr const char* kDump = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 15392
cmd:  ./t
part: 1

desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: D1 cache: 32768 B, 64 B, 8-way associative
desc: LL cache: 33554432 B, 64 B, 16-way associative

desc: Timerange: Basic block 0 - 7004
desc: Trigger: Client Request: perfgauge:0

positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
summary: 11024 500 14 4 7 3 4 2 1 1000 10 6 2

ob=(1) /tmp/cg/t
fl=(1) ???
fn=(0) main
0 11012 0 7 2 0 2 2 0 2 1000 10

totals: 11012 0 7 2 0 2 2 0 2 1000 10
)";

TEST(CallgrindOutput, ReadsHeaderAndSummary) {
    const auto d = parse_callgrind_dump(kDump);
    EXPECT_EQ(d.creator, "callgrind-3.19.0");
    EXPECT_EQ(d.trigger, "Client Request: perfgauge:0");
    ASSERT_EQ(d.events.size(), 13u);
    EXPECT_EQ(d.count("Ir"), 11024u);  // the summary wins over the cost lines' totals
    EXPECT_EQ(d.count("Bim"), 2u);
    EXPECT_TRUE(d.has("D1mw"));
    EXPECT_FALSE(d.has("Ge"));
    EXPECT_THROW(d.count("Ge"), SimulationError);
}

TEST(CallgrindOutput, OmittedTrailingZerosAndTotalsFallback) {
    const auto d = parse_callgrind_dump(
        "# callgrind format\nevents: Ir Bc Bcm Bi Bim\nfn=(1) f\n0 5 1\ntotals: 42 7\n");
    EXPECT_EQ(d.count("Ir"), 42u);
    EXPECT_EQ(d.count("Bc"), 7u);
    EXPECT_EQ(d.count("Bim"), 0u);
}

TEST(CallgrindOutput, ZeroSummaryAfterStoppedInstrumentationFallsBackToTotals) {
    // What callgrind 3.19 writes at exit after CALLGRIND_STOP_INSTRUMENTATION.
    const auto d = parse_callgrind_dump(
        "# callgrind format\nevents: Ir Bc\nsummary: 0\nfn=(1) f\n0 5093 3\ntotals: 5093 3\n");
    EXPECT_EQ(d.count("Ir"), 5093u);
    EXPECT_EQ(d.count("Bc"), 3u);
}

TEST(CallgrindOutput, RejectsWhatIsNotADump) {
    EXPECT_THROW(parse_callgrind_dump("hello\n"), SimulationError);
    EXPECT_THROW(parse_callgrind_dump("# callgrind format\nsummary: 1\n"), SimulationError);
    EXPECT_THROW(parse_callgrind_dump("# callgrind format\nevents: Ir\n"), SimulationError);
    EXPECT_THROW(parse_callgrind_dump("# callgrind format\nevents: Ir\nsummary: 1x\n"),
                 SimulationError);
    EXPECT_THROW(parse_callgrind_dump("# callgrind format\nevents: Ir\nsummary: 1 2\n"),
                 SimulationError);
}

TEST(SimulatedEvents, SumTheirCallgrindEvents) {
    const auto d = parse_callgrind_dump(kDump);
    auto count = [&](const char* name) {
        const auto* e = find_simulated_event(name);
        EXPECT_NE(e, nullptr) << name;
        return e ? simulated_count(*e, d) : 0.0;
    };
    EXPECT_EQ(count("instructions"), 11024.0);
    EXPECT_EQ(count("branches"), 1006.0);        // Bc + Bi
    EXPECT_EQ(count("branch-misses"), 12.0);     // Bcm + Bim
    EXPECT_EQ(count("L1-dcache-misses"), 10.0);  // D1mr + D1mw
    EXPECT_EQ(count("L1-dcache-load-misses"), 7.0);
    EXPECT_EQ(count("LLC-misses"), 3.0);  // DLmr + DLmw
    EXPECT_EQ(count("L1-dcache-loads"), 500.0);
    // 11538 accesses, 14 L1 misses of which 7 missed the LL too, 12 mispredictions:
    // (11538 - 14) + 5 * 7 + 35 * 7 + 15 * 12.
    EXPECT_EQ(count("est-cycles"), 11524.0 + 35 + 245 + 180);
    EXPECT_EQ(find_simulated_event("cycles"), nullptr);
    EXPECT_EQ(find_simulated_event("instructions:u"), nullptr);  // modifiers are removed first
}

TEST(EstimatedCycles, WeighTheLevelThatServedEachAccessAndEachMisprediction) {
    CallgrindCosts c;
    c.ir = 1000;  // instruction fetches are accesses too
    c.dr = 300;
    c.dw = 100;
    c.i1mr = 10;
    c.d1mr = 50;
    c.d1mw = 20;
    c.ilmr = 2;
    c.dlmr = 30;
    c.dlmw = 8;
    c.bcm = 4;
    c.bim = 1;
    const CacheHits h = cache_hits(c);
    EXPECT_EQ(h.l1, 1400.0 - 80);
    EXPECT_EQ(h.ll, 80.0 - 40);
    EXPECT_EQ(h.ram, 40.0);
    EXPECT_EQ(estimated_cycles(c), 1320 + 5 * 40 + 35 * 40 + 15 * 5);
    // Everything from L1 and no misprediction: one cycle per access.
    CallgrindCosts l1_only;
    l1_only.ir = 7;
    l1_only.dr = 2;
    l1_only.dw = 1;
    EXPECT_EQ(estimated_cycles(l1_only), 10.0);
    // One memory access costs 35, not 1 + 5 + 35: the levels it missed are not added.
    CallgrindCosts from_memory;
    from_memory.ir = 1;
    from_memory.i1mr = 1;
    from_memory.ilmr = 1;
    EXPECT_EQ(estimated_cycles(from_memory), 35.0);
}

TEST(EstimatedCycles, NeedTheCacheSimulationWhereInstructionsAndBranchesDoNot) {
    EXPECT_TRUE(needs_cache_simulation(*find_simulated_event("est-cycles")));
    EXPECT_TRUE(needs_cache_simulation(*find_simulated_event("LLC-misses")));
    EXPECT_FALSE(needs_cache_simulation(*find_simulated_event("instructions")));
    EXPECT_FALSE(needs_cache_simulation(*find_simulated_event("branch-misses")));
    EXPECT_FALSE(needs_cache_simulation(*find_simulated_event("branches")));
    const auto formula = estimated_cycles_formula();
    EXPECT_NE(formula.find("5*LL hits + 35*memory accesses + 15*mispredicted"),
              std::string_view::npos);
    // cycles is never simulated: the reason points at the estimate instead.
    EXPECT_EQ(find_simulated_event("cycles"), nullptr);
    EXPECT_NE(not_simulated_reason("cycles").find("est-cycles"), std::string::npos);
}

TEST(SimulatedEvents, WithoutBranchSimulationTheCountIsRefused) {
    const auto d = parse_callgrind_dump("# callgrind format\nevents: Ir\nsummary: 9\n");
    try {
        simulated_count(*find_simulated_event("branch-misses"), d);
        FAIL() << "no Bcm in the dump";
    } catch (const SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("--branch-sim=yes"), std::string::npos) << e.what();
    }
}

TEST(SimulatedEvents, ExplainWhatCannotBeSimulated) {
    const auto cycles = not_simulated_reason("cycles");
    EXPECT_NE(cycles.find("time or cycles"), std::string::npos) << cycles;
    EXPECT_NE(cycles.find("branch-misses"), std::string::npos) << cycles;
    EXPECT_NE(not_simulated_reason("r01c2").find("this event"), std::string::npos);
}

TEST(ValgrindCaches, PowerOfTwoGeometriesPassUnchanged) {
    for (const SimCache c : {SimCache{32768, 8, 64}, SimCache{33554432, 16, 64},
                             SimCache{49152, 12, 64}, SimCache{524288, 8, 64}}) {
        const auto f = fit_cache_for_valgrind(c);
        ASSERT_TRUE(f);
        EXPECT_EQ(f->cache, c);
        EXPECT_TRUE(f->note.empty()) << f->note;
    }
}

TEST(ValgrindCaches, OtherSetCountsKeepTheSizeWithMoreWays) {
    // Intel's 30 MB 20-way L3 has 24576 sets.
    const auto l3 = fit_cache_for_valgrind({30u << 20, 20, 64});
    ASSERT_TRUE(l3);
    EXPECT_EQ(l3->cache, (SimCache{30u << 20, 30, 64}));
    EXPECT_NE(l3->note.find("24576 sets"), std::string::npos) << l3->note;
    const auto l3b = fit_cache_for_valgrind({12u << 20, 16, 64});
    ASSERT_TRUE(l3b);
    EXPECT_EQ(l3b->cache, (SimCache{12u << 20, 24, 64}));
    // When no way count keeps the size, the size shrinks to the geometry below.
    const auto odd = fit_cache_for_valgrind({100000, 4, 64});
    ASSERT_TRUE(odd);
    EXPECT_EQ(odd->cache, (SimCache{65536, 4, 64}));
}

TEST(ValgrindCaches, NonsenseIsRefused) {
    EXPECT_FALSE(fit_cache_for_valgrind({0, 8, 64}));
    EXPECT_FALSE(fit_cache_for_valgrind({32768, 0, 64}));
    EXPECT_FALSE(fit_cache_for_valgrind({32768, 8, 8}));   // lines under 16 B
    EXPECT_FALSE(fit_cache_for_valgrind({32768, 8, 48}));  // not a power of two
    EXPECT_FALSE(fit_cache_for_valgrind({64, 8, 64}));     // smaller than one set
}

TEST(CallgrindCommand, CarriesTheSimulationOptionsAndTheProgramLast) {
    CallgrindSetup setup;
    setup.valgrind = "/usr/bin/valgrind";
    setup.d1 = SimCache{32768, 8, 64};
    setup.ll = SimCache{33554432, 16, 64};
    setup.out_file = "/tmp/x/callgrind.out.%p";
    const auto argv = callgrind_command(setup, {"/bin/prog", "--flag"});
    auto has = [&](const char* arg) {
        return std::find(argv.begin(), argv.end(), arg) != argv.end();
    };
    EXPECT_EQ(argv.front(), "/usr/bin/valgrind");
    EXPECT_TRUE(has("--tool=callgrind"));
    EXPECT_TRUE(has("--branch-sim=yes"));
    EXPECT_TRUE(has("--cache-sim=yes"));
    EXPECT_TRUE(has("--instr-atstart=no"));
    EXPECT_TRUE(has("--vgdb=no"));  // no FIFOs left in $TMPDIR by a valgrind killed outright
    EXPECT_TRUE(has("--D1=32768,8,64"));
    EXPECT_TRUE(has("--LL=33554432,16,64"));
    EXPECT_FALSE(has("--trace-children=yes"));
    {
        // Instructions and branches only: no cache simulation, and so no cache geometry.
        CallgrindSetup fast = setup;
        fast.cache_sim = false;
        const auto quick = callgrind_command(fast, {"/bin/prog"});
        auto in = [&](const char* arg) {
            return std::find(quick.begin(), quick.end(), arg) != quick.end();
        };
        EXPECT_TRUE(in("--cache-sim=no"));
        EXPECT_FALSE(in("--cache-sim=yes"));
        EXPECT_TRUE(in("--branch-sim=yes"));
        EXPECT_FALSE(in("--D1=32768,8,64"));
    }
    EXPECT_TRUE(has("--callgrind-out-file=/tmp/x/callgrind.out.%p"));
    ASSERT_GE(argv.size(), 3u);
    EXPECT_EQ(argv[argv.size() - 3], "--");
    EXPECT_EQ(argv[argv.size() - 2], "/bin/prog");
    EXPECT_EQ(argv.back(), "--flag");

    setup.instrument_from_start = true;
    setup.trace_children = true;
    const auto whole = callgrind_command(setup, {"/bin/prog"});
    EXPECT_NE(std::find(whole.begin(), whole.end(), "--instr-atstart=yes"), whole.end());
    EXPECT_NE(std::find(whole.begin(), whole.end(), "--trace-children=yes"), whole.end());
}

TEST(CallgrindRequests, DoNothingOutsideValgrind) {
    if (callgrind::running_on_valgrind())
        GTEST_SKIP() << "the tests themselves run under valgrind";
    callgrind::start_instrumentation();
    callgrind::zero_stats();
    callgrind::toggle_collect();
    callgrind::toggle_collect();
    callgrind::dump_stats("test");
    callgrind::stop_instrumentation();
    SUCCEED() << "the client requests are no-ops natively";
}

}  // namespace
}  // namespace perfgauge::pmu
