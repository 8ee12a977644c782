#include "perfgauge/pmu/counter_math.hpp"
#include "perfgauge/pmu/page_reads.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace perfgauge::pmu {
namespace {

// Builds the read() buffer the kernel would produce, straight from perf_event_open(2)'s layout.
std::vector<std::uint64_t> kernel_buffer(std::uint64_t fmt,
                                         const std::vector<std::uint64_t>& values,
                                         std::uint64_t enabled, std::uint64_t running) {
    std::vector<std::uint64_t> b;
    if (fmt & PERF_FORMAT_GROUP) {
        b.push_back(values.size());
        if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
            b.push_back(enabled);
        if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
            b.push_back(running);
        for (std::size_t i = 0; i < values.size(); ++i) {
            b.push_back(values[i]);
            if (fmt & PERF_FORMAT_ID)
                b.push_back(1000 + i);
            if (fmt & PERF_FORMAT_LOST)
                b.push_back(7);
        }
    } else {
        b.push_back(values.at(0));
        if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
            b.push_back(enabled);
        if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
            b.push_back(running);
        if (fmt & PERF_FORMAT_ID)
            b.push_back(1000);
        if (fmt & PERF_FORMAT_LOST)
            b.push_back(7);
    }
    return b;
}

TEST(ReadBuffer, EveryReadFormatCombination) {
    const std::uint64_t flags[] = {PERF_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_TOTAL_TIME_RUNNING,
                                   PERF_FORMAT_ID, PERF_FORMAT_GROUP, PERF_FORMAT_LOST};
    for (unsigned mask = 0; mask < 32; ++mask) {
        std::uint64_t fmt = 0;
        for (unsigned bit = 0; bit < 5; ++bit) {
            if (mask & (1u << bit))
                fmt |= flags[bit];
        }
        const std::vector<std::uint64_t> values = (fmt & PERF_FORMAT_GROUP)
                                                      ? std::vector<std::uint64_t>{11, 22, 33}
                                                      : std::vector<std::uint64_t>{11};
        const auto buffer = kernel_buffer(fmt, values, 500, 250);
        ASSERT_EQ(read_buffer_words(fmt, values.size()), buffer.size()) << "format " << fmt;
        GroupReading r;
        parse_read_buffer(buffer, fmt, values.size(), r);
        EXPECT_EQ(r.values, values) << "format " << fmt;
        EXPECT_EQ(r.time_enabled, (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 500u : 0u)
            << "format " << fmt;
        EXPECT_EQ(r.time_running, (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 250u : 0u)
            << "format " << fmt;
        if (fmt & PERF_FORMAT_ID) {
            ASSERT_EQ(r.ids.size(), values.size());
            EXPECT_EQ(r.ids.front(), 1000u);
        } else {
            EXPECT_TRUE(r.ids.empty());
        }
    }
}

TEST(ReadBuffer, RejectsShortBuffersAndCountMismatch) {
    const std::uint64_t fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
                              PERF_FORMAT_TOTAL_TIME_RUNNING;
    auto buffer = kernel_buffer(fmt, {1, 2, 3}, 10, 10);
    GroupReading r;
    EXPECT_THROW(parse_read_buffer(std::span(buffer).first(buffer.size() - 1), fmt, 3, r),
                 ReadFormatError);
    EXPECT_THROW(parse_read_buffer(buffer, fmt, 4, r), ReadFormatError);
    buffer[0] = 2;  // the kernel says two counters, three were opened
    EXPECT_THROW(parse_read_buffer(buffer, fmt, 3, r), ReadFormatError);
    EXPECT_THROW(parse_read_buffer(buffer, 0, 2, r),
                 ReadFormatError);  // no GROUP: one counter only
}

TEST(Scaling, NotMultiplexedKeepsTheRawValue) {
    const auto s = scale_count(1234, 1000, 1000);
    EXPECT_TRUE(s.counted);
    EXPECT_EQ(s.value, 1234.0);
    EXPECT_EQ(s.running_fraction, 1.0);
}

TEST(Scaling, MultiplexedScalesByEnabledOverRunning) {
    const auto s = scale_count(1000, 400, 100);
    EXPECT_TRUE(s.counted);
    EXPECT_DOUBLE_EQ(s.value, 4000.0);
    EXPECT_DOUBLE_EQ(s.running_fraction, 0.25);
    EXPECT_EQ(s.raw, 1000u);
}

TEST(Scaling, NeverRunningIsNotCounted) {
    EXPECT_FALSE(scale_count(0, 1000, 0).counted);
    EXPECT_FALSE(scale_count(0, 0, 0).counted);
}

TEST(Scaling, NoOverflowForLargeValues) {
    // 2^62 * 2^40 overflows 64 bits by far; the exact result is 2^63.
    const auto s =
        scale_count(std::uint64_t{1} << 62, std::uint64_t{1} << 40, std::uint64_t{1} << 39);
    EXPECT_DOUBLE_EQ(s.value, std::ldexp(1.0, 63));
    const auto big = scale_count(std::numeric_limits<std::uint64_t>::max(), 3, 2);
    EXPECT_DOUBLE_EQ(big.value,
                     1.5 * static_cast<double>(std::numeric_limits<std::uint64_t>::max()));
}

TEST(Rdpmc, SignExtension) {
    EXPECT_EQ(sign_extend(0x0000'7fff'ffff'ffffull, 48), 0x7fff'ffff'ffffll);
    EXPECT_EQ(sign_extend(0x0000'ffff'ffff'ffffull, 48), -1);
    EXPECT_EQ(sign_extend(0x0000'8000'0000'0000ull, 48), -(1ll << 47));
    EXPECT_EQ(sign_extend(0xdead'0000'0000'0005ull, 48), 5);  // bits above the width are ignored
    EXPECT_EQ(sign_extend(42, 64), 42);
}

struct FakeHardware {
    perf_event_mmap_page* page = nullptr;
    std::uint64_t counter_value = 0;
    std::uint64_t tsc = 0;
    int bump_lock_times = 0;  // simulate the kernel updating the page during a read
    unsigned last_counter = 99;

    std::uint64_t rdpmc(unsigned counter) {
        last_counter = counter;
        if (bump_lock_times > 0) {
            --bump_lock_times;
            page->lock += 2;
        }
        return counter_value;
    }
    std::uint64_t rdtsc() { return tsc; }
};

class MmapPage : public ::testing::Test {
  protected:
    MmapPage() {
        page_.cap_user_rdpmc = 1;
        page_.pmc_width = 48;
        page_.index = 3;  // the kernel's index is counter + 1
        page_.offset = 1000;
        page_.time_enabled = 5000;
        page_.time_running = 5000;
        hw_.page = &page_;
    }
    // A leader whose group was multiplexed (running < enabled), its counter at -2 in 48 bits,
    // the page updated by the kernel once during the read.
    void multiplexed_leader_read_once_again() {
        page_.cap_user_time = 1;
        page_.time_running = 4000;
        page_.time_offset = 7;
        hw_.counter_value = 0x0000'ffff'ffff'fffeull;
        hw_.bump_lock_times = 1;
    }
    perf_event_mmap_page page_{};
    FakeHardware hw_;
};

TEST_F(MmapPage, ReadsOffsetPlusSignExtendedCounter) {
    hw_.counter_value = 0x0000'ffff'ffff'fffeull;  // -2 in 48 bits
    const auto r = read_mmap_page(&page_, hw_);
    EXPECT_TRUE(r.rdpmc_used);
    EXPECT_EQ(hw_.last_counter, 2u);
    EXPECT_EQ(r.count, 998u);
    EXPECT_EQ(r.retries, 0u);
    EXPECT_EQ(r.time_enabled, 5000u);
}

TEST_F(MmapPage, RetriesWhileTheSeqlockChanges) {
    hw_.counter_value = 5;
    hw_.bump_lock_times = 2;
    const auto r = read_mmap_page(&page_, hw_);
    EXPECT_EQ(r.retries, 2u);
    EXPECT_EQ(r.count, 1005u);
}

TEST_F(MmapPage, FallsBackWhenRdpmcIsUnavailable) {
    page_.cap_user_rdpmc = 0;
    EXPECT_FALSE(read_mmap_page(&page_, hw_).rdpmc_used);
    page_.cap_user_rdpmc = 1;
    page_.index = 0;  // not on a hardware counter right now
    EXPECT_FALSE(read_mmap_page(&page_, hw_).rdpmc_used);
}

TEST_F(MmapPage, ExtendsTimesFromTheTsc) {
    page_.cap_user_time = 1;
    page_.time_running = 4000;  // enabled != running: the times need extending
    page_.time_mult = 1u << 10;
    page_.time_shift = 10;  // 1 ns per TSC tick
    page_.time_offset = 100;
    hw_.tsc = 50;
    const auto r = read_mmap_page(&page_, hw_);
    EXPECT_EQ(r.time_enabled, 5000u + 150u);
    EXPECT_EQ(r.time_running, 4000u + 150u);
}

// The flat reads of Session regions (page_reads.hpp): one seqlock pass, no clock.
TEST_F(MmapPage, LeaderReadsCountGapAndEnabledBaseInOnePass) {
    multiplexed_leader_read_once_again();
    std::uint64_t count = 0, gap = 0, base = 0;
    ASSERT_TRUE(read_page_leader(&page_, hw_, count, gap, base));
    EXPECT_EQ(hw_.last_counter, 2u);
    EXPECT_EQ(count, 998u);
    EXPECT_EQ(gap, 1000u);
    EXPECT_EQ(base, 5007u);
    // Without the clock conversion a moved gap could not be scaled: read() instead.
    page_.cap_user_time = 0;
    EXPECT_FALSE(read_page_leader(&page_, hw_, count, gap, base));
    page_.cap_user_time = 1;
    page_.index = 0;  // not on a hardware counter now
    EXPECT_FALSE(read_page_leader(&page_, hw_, count, gap, base));
}

TEST_F(MmapPage, MemberReadsItsCountAloneAndNeverTheClock) {
    struct NoClock {
        FakeHardware& fake;
        std::uint64_t rdpmc(unsigned counter) { return fake.rdpmc(counter); }
        std::uint64_t rdtsc() {
            ADD_FAILURE() << "a member's read took the clock";
            return 0;
        }
    } hw{hw_};
    hw_.counter_value = 5;
    hw_.bump_lock_times = 2;
    std::uint64_t count = 0;
    ASSERT_TRUE(read_page_count(&page_, hw, count));
    EXPECT_EQ(count, 1005u);
    EXPECT_EQ(hw_.bump_lock_times, 0);  // read again until the lock held still
    page_.cap_user_rdpmc = 0;
    EXPECT_FALSE(read_page_count(&page_, hw, count));
    page_.cap_user_rdpmc = 1;
    page_.index = 0;
    EXPECT_FALSE(read_page_count(&page_, hw, count));
}

// The raw reads of Session's fast boundaries: the page and the counter as they are, the
// arithmetic later (raw_group_reading), which gives what the flat reads give.
TEST_F(MmapPage, RawLeaderReadsTimesOffsetAndCounterAsTheyAre) {
    multiplexed_leader_read_once_again();
    std::uint64_t raw[5] = {};
    ASSERT_TRUE(read_leader_raw(&page_, hw_, raw));
    EXPECT_EQ(hw_.last_counter, 2u);
    EXPECT_EQ(hw_.bump_lock_times, 0);  // read again until the lock held still
    const std::uint64_t want[5] = {5000, 4000, 7, 1000, 0x0000'ffff'ffff'fffeull};
    EXPECT_TRUE(std::equal(raw, raw + 5, want));
    page_.cap_user_time = 0;  // without the clock conversion a moved gap could not be scaled
    EXPECT_FALSE(read_leader_raw(&page_, hw_, raw));
    page_.cap_user_time = 1;
    page_.index = 0;  // not on a hardware counter now
    EXPECT_FALSE(read_leader_raw(&page_, hw_, raw));
}

TEST_F(MmapPage, RawMemberReadsWithoutItsCapabilitiesOnlyWhileOnThePmu) {
    hw_.counter_value = 5;
    hw_.bump_lock_times = 2;
    page_.cap_user_rdpmc = 0;  // not read: the leader's page answered for the group
    std::uint64_t raw[2] = {};
    ASSERT_TRUE(read_member_raw(&page_, hw_, raw));
    EXPECT_EQ(raw[0], 1000u);
    EXPECT_EQ(raw[1], 5u);
    EXPECT_EQ(hw_.bump_lock_times, 0);
    page_.index = 0;  // not on a hardware counter now: read() knows better
    hw_.last_counter = 99;
    EXPECT_FALSE(read_member_raw(&page_, hw_, raw));
    EXPECT_EQ(hw_.last_counter, 99u);  // and the counter was not read
}

TEST_F(MmapPage, ARawGroupReadingGivesWhatTheFlatReadsGive) {
    page_.cap_user_time = 1;
    page_.time_running = 4000;
    page_.time_offset = static_cast<std::uint64_t>(-1000);  // as the kernel writes it
    hw_.counter_value = 0x0000'ffff'ffff'fffeull;
    std::uint64_t count = 0, gap = 0, base = 0;
    ASSERT_TRUE(read_page_leader(&page_, hw_, count, gap, base));
    perf_event_mmap_page member{};
    member.index = 1;
    member.pmc_width = 32;
    member.cap_user_rdpmc = 1;  // read_page_count asks; read_member_raw does not
    member.offset = 1u << 20;
    FakeHardware member_hw{&member, 0xffff'fff0ull};  // -16 in 32 bits
    std::uint64_t member_count = 0;
    ASSERT_TRUE(read_page_count(&member, member_hw, member_count));

    std::uint64_t raw[raw_group_words(2)] = {};
    ASSERT_TRUE(read_leader_raw(&page_, hw_, raw));
    ASSERT_TRUE(read_member_raw(&member, member_hw, raw + kRawTimeWords + kRawEventWords));
    const unsigned widths[2] = {48, 32};
    std::uint64_t counts[2] = {}, raw_gap = 0, raw_base = 0;
    raw_group_reading(raw, widths, counts, raw_gap, raw_base);
    EXPECT_EQ(counts[0], count);
    EXPECT_EQ(counts[0], 998u);
    EXPECT_EQ(counts[1], member_count);
    EXPECT_EQ(counts[1], (1u << 20) - 16u);
    EXPECT_EQ(raw_gap, gap);
    EXPECT_EQ(raw_base, base);
    EXPECT_EQ(raw_base, 4000u);
}

// The enabled time a flat reading completes later is the one read_mmap_page() extends now.
TEST_F(MmapPage, ExtendedEnabledIsReadMmapPagesExtension) {
    page_.cap_user_time = 1;
    page_.time_mult = 3u << 9;  // 1.5 ns per tick
    page_.time_shift = 10;
    page_.time_offset = static_cast<std::uint64_t>(-1000);  // as the kernel writes it: now - zero
    hw_.tsc = 123457;
    const auto r = read_mmap_page(&page_, hw_);
    EXPECT_EQ(extended_enabled(page_.time_enabled + page_.time_offset, hw_.tsc, page_.time_mult,
                               page_.time_shift),
              r.time_enabled);
}

TEST(ScaledByGap, UnscaledUnlessTheGapMoved) {
    EXPECT_EQ(scaled_by_gap(1000, 50, 50, 0), 1000.0);  // on the PMU all along: no times needed
    // Off the PMU for half of 4000 ns enabled: running 2000, the count doubled.
    EXPECT_EQ(scaled_by_gap(1000, 50, 2050, 4000), 2000.0);
    EXPECT_EQ(scaled_by_gap(1000, 0, 4000, 4000), 0.0);  // never ran: not counted
    EXPECT_EQ(scaled_by_gap(1000, 0, 5000, 4000), 0.0);  // a gap beyond the time: never ran
}

// A counter that stays scheduled is not updated by the kernel, so its page's times are those
// of when it was scheduled in: two readings would show no time passing (running delta 0 reads
// as "not counted"). They are extended to now whether or not the event is multiplexed (found
// on the arm64 guest's real PMU: regions read this way lost the entries whose times had not
// moved).
TEST_F(MmapPage, ExtendsTimesWhenNotMultiplexedToo) {
    page_.cap_user_time = 1;
    page_.time_mult = 1u << 10;
    page_.time_shift = 10;
    page_.time_offset = 0;
    hw_.tsc = 70;
    const auto first = read_mmap_page(&page_, hw_);
    hw_.tsc = 95;
    const auto second = read_mmap_page(&page_, hw_);
    EXPECT_TRUE(first.times_current);
    EXPECT_EQ(second.time_enabled - first.time_enabled, 25u);
    EXPECT_EQ(second.time_running - first.time_running, 25u);
    page_.cap_user_time = 0;
    EXPECT_FALSE(read_mmap_page(&page_, hw_).times_current);
}

// arm64's generic timer is 56 bits wide (cap_user_time_short): the reading is taken relative to
// the kernel's last time_cycles within time_mask, so a clock that wrapped since still extends
// the times by the ticks that passed, not by a wrapped-around difference.
TEST_F(MmapPage, ShortClockWrapsWithinTheMask) {
    page_.cap_user_time = 1;
    page_.cap_user_time_short = 1;
    page_.time_running = 4000;
    page_.time_mult = 1u << 10;
    page_.time_shift = 10;  // 1 ns per tick
    page_.time_offset = 0;
    page_.time_mask = (std::uint64_t{1} << 56) - 1;
    page_.time_cycles = page_.time_mask - 9;  // 10 ticks before the wrap
    hw_.tsc = 20;                             // the timer wrapped and went on 20 ticks: 30 ticks
    const auto r = read_mmap_page(&page_, hw_);
    EXPECT_EQ(r.time_enabled, 5000u + page_.time_mask - 9 + 30);
    EXPECT_EQ(r.time_running, 4000u + page_.time_mask - 9 + 30);
}

}  // namespace
}  // namespace perfgauge::pmu
