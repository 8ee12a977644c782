// The hardware path against a real kernel PMU: counter groups of hardware events, user-space
// reads through the mmap page, read() of groups with times and ids. Every test skips where no
// hardware event opens (this x86 CI VM); scripts/arm64-guest.sh runs them on the arm64 kernel's
// PMU under QEMU, where -icount makes counts exact.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "known_loop.hpp"
#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::pmu {
namespace {

// User space only: what the loop executes, not the timer interrupts taken while it ran.
constexpr const char* kInstructions = "instructions:u";

bool hardware_opens() {
    const auto set = CounterSet::open(EventResolver().resolve(kInstructions), {});
    return set.opened_count() == 1;
}

// Instructions:u around `iterations` of the known loop, read from `set` (opened already).
std::uint64_t count_loop(CounterSet& set, std::uint64_t iterations) {
    auto before = set.make_snapshot();
    auto after = set.make_snapshot();
    set.read(before);
    test::known_loop(iterations);
    set.read(after);
    const auto d = set.delta(before, after);
    EXPECT_TRUE(d.at(0).counted);
    return d.at(0).raw;
}

// What a snapshot pair costs is the same for every N, so the difference of two counts is the
// loop's alone: exactly 3 per iteration (retired-instruction counts of user code are exact on
// real PMUs too).
void expect_exact_loop_counts(CounterSet& set) {
    const std::uint64_t small = count_loop(set, 100000);
    const std::uint64_t large = count_loop(set, 1100000);
    EXPECT_EQ(large - small, std::uint64_t{test::kLoopInstructionsPerIteration} * 1000000)
        << "counts " << small << " and " << large;
    EXPECT_GE(small, std::uint64_t{test::kLoopInstructionsPerIteration} * 100000);
}

TEST(HardwareCounters, ReadSyscallCountsTheLoopExactly) {
    if (!hardware_opens())
        GTEST_SKIP() << "no hardware event opens here (no PMU)";
    CounterOptions options;
    auto set = CounterSet::open(EventResolver().resolve(kInstructions), options);
    set.enable();
    expect_exact_loop_counts(set);
    auto s = set.make_snapshot();
    set.read(s);
    EXPECT_EQ(s.path, ReadPath::read_syscall);  // nothing mapped: always read()
}

TEST(HardwareCounters, UserSpaceReadCountsTheLoopLikeReadSyscall) {
    if (!hardware_opens())
        GTEST_SKIP() << "no hardware event opens here (no PMU)";
    auto set = open_self_monitoring(kInstructions);
    set.enable();
    auto s = set.make_snapshot();
    set.read(s);
    if (s.path != ReadPath::rdpmc)
        GTEST_SKIP() << "user-space counter reads are disabled here (rdpmc / perf_user_access)";
    expect_exact_loop_counts(set);
    set.read(s);
    EXPECT_EQ(s.path, ReadPath::rdpmc);
}

// A group of hardware events read at once: one read() gives every member, with ids and times.
TEST(HardwareCounters, GroupReadsEveryMemberWithTimes) {
    if (!hardware_opens())
        GTEST_SKIP() << "no hardware event opens here (no PMU)";
    auto set = CounterSet::open(EventResolver().resolve("{instructions:u,cycles:u}"), {});
    ASSERT_EQ(set.opened_count(), 2u);
    ASSERT_EQ(set.group_count(), 1u);
    set.enable();
    auto before = set.make_snapshot();
    auto after = set.make_snapshot();
    set.read(before);
    test::known_loop(1000000);
    set.read(after);
    EXPECT_NE(after.groups[0].ids[0], after.groups[0].ids[1]);
    EXPECT_GT(after.groups[0].time_enabled, before.groups[0].time_enabled);
    EXPECT_EQ(after.groups[0].time_running - before.groups[0].time_running,
              after.groups[0].time_enabled - before.groups[0].time_enabled)
        << "one group of two events is never multiplexed";
    const auto d = set.delta(before, after);
    EXPECT_GE(d[0].raw, 3000000u);
    EXPECT_GT(d[1].raw, 0u);
    EXPECT_DOUBLE_EQ(d[0].running_fraction, 1.0);
}

// The flat rows Session regions read: from user space where the pages allow (one seqlock pass
// per event, no clock), else read(); the loop's count is exact either way, and the same.
TEST(HardwareCounters, FlatRowsCountTheLoopExactlyBothWays) {
    if (!hardware_opens())
        GTEST_SKIP() << "no hardware event opens here (no PMU)";
    auto set = open_self_monitoring("instructions:u,cycles:u");
    ASSERT_EQ(set.opened_count(), 2u);
    set.enable();
    for (const bool user : {true, false}) {
        std::vector<std::uint64_t> before(set.flat_words()), after(set.flat_words());
        double d[2] = {};
        std::uint64_t counts[2] = {};
        for (const std::uint64_t n : {100000u, 1100000u}) {
            set.read_flat(before.data(), user);
            test::known_loop(n);
            set.read_flat(after.data(), user);
            set.flat_delta(before.data(), after.data(), d);
            counts[n == 100000u ? 0 : 1] = static_cast<std::uint64_t>(d[0]);
            EXPECT_GT(d[1], 0.0);
        }
        EXPECT_EQ(counts[1] - counts[0],
                  std::uint64_t{test::kLoopInstructionsPerIteration} * 1000000)
            << (user ? "user-space reads" : "read()") << ": " << counts[0] << ", " << counts[1];
        // The flags word: which groups' times came whole from read().
        const bool whole = after[set.flat_words() - 2] != 0;
        if (user && !set.snapshot_is_system_call()) {
            EXPECT_FALSE(whole) << "a mapped group on the PMU is read from user space";
        }
        if (!user) {
            EXPECT_TRUE(whole);
        }
    }
}

}  // namespace
}  // namespace perfgauge::pmu
