#include "perfgauge/harness/counter_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "perfgauge/harness/session.hpp"
#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/known_loops.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"

namespace perfgauge::harness {

namespace {

using pmu::branch_loop;
using pmu::CounterSet;
using pmu::kKnownLoopsWritten;
using pmu::kStraightLoopInstructions;
using pmu::straight_loop;

// User space only: what the loops execute, not the interrupts taken while they ran, and what
// perf_event_paranoid 2 allows.
constexpr const char* kInstructions = "instructions:u";

CounterSet open_counters(const std::string& events, bool user_space_reads = false) {
    const auto groups = pmu::EventResolver().resolve(events);
    if (user_space_reads)
        return pmu::open_self_monitoring(groups);
    return CounterSet::open(groups, {});
}

// Why the events of `set` that did not open did not: the kernel's reasons, one per event.
std::string refusal(const CounterSet& set) {
    const auto reasons = pmu::describe_unopened(set);
    return reasons.empty() ? std::string("not opened")
                           : fmt::format("{}", fmt::join(reasons, "; "));
}

enum class Path { user_space_reads, read_calls };

// Every event's change across `work`, read the given way. The snapshots are made before the
// first read, so nothing is allocated between the two.
template <class Work>
std::vector<pmu::ScaledCount> count_across(const CounterSet& set, Work&& work,
                                           Path path = Path::user_space_reads) {
    auto before = set.make_snapshot();
    auto after = set.make_snapshot();
    if (path == Path::read_calls) {
        set.read_with_system_call(before);
        work();
        set.read_with_system_call(after);
    } else {
        set.read(before);
        work();
        set.read(after);
    }
    return set.delta(before, after);
}

// The straight loop counted by the first event of `set`, every size `repeats` times.
std::vector<LoopCount> straight_counts(const CounterSet& set,
                                       const std::vector<std::uint64_t>& sizes, std::size_t repeats,
                                       Path path) {
    std::vector<LoopCount> out;
    count_across(
        set, [] { straight_loop(1000); }, path);  // warm: the first read faults pages in
    for (std::size_t r = 0; r < repeats; ++r) {
        for (const std::uint64_t n : sizes) {
            const auto d = count_across(
                set, [n] { straight_loop(n); }, path);
            if (d.at(0).counted)
                out.push_back({n, d[0].value});
        }
    }
    return out;
}

CounterCheck check_instructions(const CounterCheckPlan& plan) {
    auto set = open_counters(kInstructions);
    if (set.opened_count() != 1)
        return unavailable_check("instructions", refusal(set));
    set.enable();
    return judge_exact_instructions(
        straight_counts(set, plan.sizes, plan.repeats, Path::read_calls),
        kStraightLoopInstructions);
}

CounterCheck check_cycles() {
    auto set = open_counters("{instructions:u,cycles:u}");
    if (set.opened_count() != 2)
        return unavailable_check("cycles", refusal(set));
    set.enable();
    count_across(set, [] { straight_loop(1000); });
    const auto d = count_across(set, [] { straight_loop(1000000); });
    if (!d[1].counted)
        return unavailable_check("cycles", "cycles:u opened but never ran on a counter");
    return judge_cycles(d[0].value, d[1].value);
}

// Branch-misses over zeros and over seeded random zeros and ones.
std::vector<CounterCheck> check_branch_misses(const CounterCheckPlan& plan) {
    const char* predictable = "branch-misses predictable";
    const char* random = "branch-misses random";
    auto set = open_counters("branch-misses:u");
    if (set.opened_count() != 1) {
        const std::string why = refusal(set);
        return {unavailable_check(predictable, why), unavailable_check(random, why)};
    }
    set.enable();
    const std::size_t n = plan.branch_iterations;
    std::vector<std::uint8_t> zeros(n, 0), coins(n);
    std::mt19937_64 generator(plan.seed);
    for (auto& c : coins)
        c = static_cast<std::uint8_t>(generator() & 1);
    std::uint64_t kept = 0;  // the loops' results, so that nothing is optimised away
    const auto misses = [&](const std::vector<std::uint8_t>& bytes) {
        count_across(set, [&] { kept += branch_loop(bytes.data(), 64); });
        const auto d = count_across(set, [&] { kept += branch_loop(bytes.data(), n); });
        return d[0].counted ? d[0].value : -1.0;
    };
    const double over_zeros = misses(zeros), over_coins = misses(coins);
    asm volatile("" : : "r"(kept));
    return {judge_branch_misses(predictable, over_zeros, n, 0, kPredictableMissTolerance),
            judge_branch_misses(random, over_coins, n, 0.5, kRandomMissTolerance)};
}

// How many instructions:u one group takes here: a list longer than any PMU's counters is
// split by CounterSet into groups the kernel accepts, the first of them full.
// `n` copies of instructions:u, bare (one list CounterSet packs into as few groups as the
// kernel accepts) or each a group of its own. Built from the resolved event, not from text: an
// event list names each event once.
std::vector<pmu::GroupSpec> instructions_copies(std::size_t n, bool own_groups) {
    const pmu::EventSpec spec = pmu::EventResolver().resolve(kInstructions).at(0).events.at(0);
    if (!own_groups)
        return {pmu::GroupSpec{std::vector<pmu::EventSpec>(n, spec), false}};
    return std::vector<pmu::GroupSpec>(n, pmu::GroupSpec{{spec}, true});
}

// How many instructions:u one group takes here: a list longer than any PMU's counters (33) is
// split by CounterSet into groups the kernel accepts, the first of them full.
std::size_t counters_per_group() {
    const auto set = CounterSet::open(instructions_copies(33, false), {});
    std::size_t largest = 0;
    for (const auto& slot : set.events())
        largest = std::max(largest, slot.opened ? slot.position + 1 : 0);
    return largest;
}

CounterCheck check_multiplexing(const CounterCheckPlan& plan) {
    const std::uint64_t n = plan.multiplex_iterations;
    auto single = open_counters(kInstructions);
    if (single.opened_count() != 1)
        return unavailable_check("multiplexing", refusal(single));
    // The unmultiplexed count first, alone on the PMU (open beside the list, it would be
    // multiplexed with it). The loop once before, unmeasured: a core still raising its clock
    // would count fewer instructions per ns early on, which scaling by time cannot see.
    single.enable();
    straight_loop(n / 4 + 1);
    const auto exact = count_across(
        single, [n] { straight_loop(n); }, Path::read_calls);
    single.disable();
    // Twice as many events as one group holds, each a group of its own: the kernel rotates
    // them through the counters, each on the PMU about half the time (less where a counter is
    // held, by the NMI watchdog say: a group as large as the PMU would then never run).
    const std::size_t k = counters_per_group();
    auto set = CounterSet::open(instructions_copies(2 * k, true), {});
    set.enable();
    const auto scaled = count_across(
        set, [n] { straight_loop(n); }, Path::read_calls);
    std::vector<ScaledEvent> events;
    for (const auto& s : scaled)
        events.push_back({s.value, s.running_fraction, s.counted});
    CounterCheck check = judge_multiplexed(events, exact[0].value);
    check.detail += fmt::format(" ({} iterations, {} events of one group each)", n, 2 * k);
    return check;
}

std::string user_reads_off_reason() {
    const auto env = pmu::detect_pmu_environment();
    if (env.rdpmc && *env.rdpmc == 0) {
        return fmt::format(
            "user-space counter reads are off here ({} is 0; to allow them: echo "
            "1 | sudo tee {})",
            env.rdpmc_control, env.rdpmc_control);
    }
    return "the kernel does not let this process read instructions:u from user space (its "
           "mapped page says cap_user_rdpmc 0): snapshots use read()";
}

CounterCheck check_user_reads(const CounterCheckPlan& plan) {
    const char* name = "user-space reads";
    auto set = open_counters(kInstructions, true);
    if (set.opened_count() != 1)
        return unavailable_check(name, refusal(set));
    set.enable();
    auto probe = set.make_snapshot();
    set.read(probe);
    if (probe.path != pmu::ReadPath::rdpmc)
        return unavailable_check(name, user_reads_off_reason());
    const std::vector<std::uint64_t> sizes = {100000, 1000000};
    const auto user = straight_counts(set, sizes, plan.repeats, Path::user_space_reads);
    const auto calls = straight_counts(set, sizes, plan.repeats, Path::read_calls);
    return judge_user_reads(user, calls, kStraightLoopInstructions);
}

CounterCheck check_regions(const CounterCheckPlan& plan) {
    constexpr std::uint64_t kInner = 100000, kOuter = 300000;
    Session session(kInstructions);
    if (!session.unsupported_events().empty())
        return unavailable_check("regions", session.unsupported_events().front());
    // Resolved once, as the library's fast path is used: a name's first entry makes its slot
    // inside whichever region is open then, a one-off the per-entry correction does not carry.
    const auto outer_id = session.region_id("outer");
    const auto inner_id = session.region_id("inner");
    for (int i = 0; i < plan.region_entries; ++i) {
        auto outer = session.region(outer_id);
        straight_loop(kOuter);
        for (int j = 0; j < 2; ++j) {
            auto inner = session.region(inner_id);
            straight_loop(kInner);
        }
    }
    std::vector<RegionCount> regions;
    for (const auto& r : session.results()) {
        if (r.count == 0 || r.corrected_counters.empty())
            continue;
        const std::uint64_t work = r.name == "inner" ? kInner : kOuter + 2 * kInner;
        regions.push_back({r.name, r.depth, r.corrected_counters[0] / static_cast<double>(r.count),
                           static_cast<double>(kStraightLoopInstructions * work)});
    }
    return judge_regions(regions);
}

}  // namespace

std::optional<std::string> hardware_counting_unavailable() {
    if (!kKnownLoopsWritten)
        return std::string(
            "no loop of known work is written for this architecture (x86-64 and "
            "arm64 have them)");
    const auto set = open_counters(kInstructions);
    if (set.opened_count() == 1)
        return std::nullopt;
    return refusal(set);
}

std::vector<CounterCheck> run_counter_checks(const CounterCheckPlan& plan) {
    if (!kKnownLoopsWritten) {
        std::vector<CounterCheck> none;
        for (const char* name : kCounterCheckNames)
            none.push_back(unavailable_check(name, *hardware_counting_unavailable()));
        return none;
    }
    std::vector<CounterCheck> out;
    // A check that throws (perfgauge's own failure, not the counters') fails alone, saying so.
    const auto guarded = [&out](std::vector<const char*> names, const auto& check) {
        try {
            for (auto& c : check())
                out.push_back(std::move(c));
        } catch (const std::exception& e) {
            for (const char* name : names)
                out.push_back({name, CheckVerdict::fail, std::nullopt, std::nullopt, "",
                               fmt::format("the check itself failed: {}", e.what())});
        }
    };
    const auto one = [](CounterCheck c) { return std::vector<CounterCheck>{std::move(c)}; };
    guarded({"instructions"}, [&] { return one(check_instructions(plan)); });
    guarded({"cycles"}, [&] { return one(check_cycles()); });
    guarded({"branch-misses predictable", "branch-misses random"},
            [&] { return check_branch_misses(plan); });
    guarded({"multiplexing"}, [&] { return one(check_multiplexing(plan)); });
    guarded({"user-space reads"}, [&] { return one(check_user_reads(plan)); });
    guarded({"regions"}, [&] { return one(check_regions(plan)); });
    return out;
}

}  // namespace perfgauge::harness
