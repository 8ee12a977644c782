// The shortest user-space reads of a counter group, for hot paths (Session regions): one
// seqlock pass over each event's mmap'd page, without the clock. Pure: `Hw` supplies the
// counter read (as for read_mmap_page), so tests drive them with fake pages.
//
// The times a group needs for multiplexing are not read per event. While a counter is on the
// PMU, the page's raw time_enabled and time_running differ by exactly what the extended ones
// do (both are extended by the same amount), so two readings whose gap (enabled - running) is
// the same ran the whole interval between them: their counts need no scaling and no clock.
// Only a group whose gap moved (it was off the PMU for part of the interval) needs its enabled
// time, which the leader's page gives as time_enabled + time_offset plus the clock's share
// (extended_enabled), computed then and not on every read.
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "perfgauge/pmu/counter_math.hpp"

namespace perfgauge::pmu {

/// One event's count (the page's offset plus its sign-extended counter) in one seqlock pass;
/// false when the page says the counter cannot be read from user space now (not on the PMU,
/// or user-space reads off): read() knows better.
template <class Hw>
[[gnu::always_inline]] inline bool read_page_count(const volatile perf_event_mmap_page* page,
                                                   Hw& hw, std::uint64_t& count) {
    for (;;) {
        const std::uint32_t seq = page->lock;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        const std::uint32_t index = page->index;
        if (index == 0 || !page->cap_user_rdpmc)
            return false;
        count = static_cast<std::uint64_t>(page->offset) +
                static_cast<std::uint64_t>(sign_extend(hw.rdpmc(index - 1), page->pmc_width));
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (page->lock == seq)
            return true;
    }
}

/// A group leader's reading: its count as read_page_count(), and in the same pass the group's
/// gap (time_enabled - time_running) and its enabled time less the clock's share
/// (time_enabled + time_offset: extended_enabled() adds the rest when it is needed). False also
/// when the page gives no clock conversion (cap_user_time), which a group whose gap moves needs.
template <class Hw>
[[gnu::always_inline]] inline bool read_page_leader(const volatile perf_event_mmap_page* page,
                                                    Hw& hw, std::uint64_t& count,
                                                    std::uint64_t& gap,
                                                    std::uint64_t& enabled_base) {
    // cap_user_rdpmc and cap_user_time, bits 2 and 3 of the capabilities word: one load.
    constexpr std::uint64_t kNeeded = (std::uint64_t{1} << 2) | (std::uint64_t{1} << 3);
    for (;;) {
        const std::uint32_t seq = page->lock;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        const std::uint32_t index = page->index;
        if (index == 0 || (page->capabilities & kNeeded) != kNeeded)
            return false;
        const std::uint64_t enabled = page->time_enabled;
        gap = enabled - page->time_running;
        enabled_base = enabled + page->time_offset;
        count = static_cast<std::uint64_t>(page->offset) +
                static_cast<std::uint64_t>(sign_extend(hw.rdpmc(index - 1), page->pmc_width));
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (page->lock == seq)
            return true;
    }
}

// Raw readings, for the shortest boundary (Session regions entered by id): the seqlock pass
// keeps what the page and the counter say as they are, and the arithmetic (sign extension,
// the times' sums) is done later, off the measured path, by raw_group_reading().

/// A raw group reading: the leader's page times (time_enabled, time_running, time_offset as
/// the page has them), then per event its page's offset and its counter as read.
inline constexpr std::size_t kRawTimeWords = 3;
inline constexpr std::size_t kRawEventWords = 2;
constexpr std::size_t raw_group_words(std::size_t events) {
    return kRawTimeWords + kRawEventWords * events;
}

/// One consistent pass over a page: `read` sees its fields between the lock's two reads, again
/// until the lock held still (the kernel updated the page meanwhile); false when `read` says
/// the page cannot be read now. The fields are plain loads, which the compiler may pair (the
/// fences keep them inside the pass); the lock's loads stay volatile. The lock read again
/// ends a pass and starts the next: no jump into the loop.
template <class Read>
[[gnu::always_inline]] inline bool seqlock_pass(const volatile perf_event_mmap_page* page,
                                                Read&& read) {
    const auto& fields = *const_cast<const perf_event_mmap_page*>(page);
    std::uint32_t seq = page->lock;
    for (;;) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (!read(fields)) [[unlikely]]
            return false;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        const std::uint32_t again = page->lock;
        if (again == seq) [[likely]]
            return true;
        seq = again;
    }
}

/// A group member's raw words (`out[0..1]`) in one seqlock pass, without its capabilities: for
/// a group whose leader's page allowed user-space reads in the same boundary (read_leader_raw).
/// The index alone says whether this counter is on the PMU now (the kernel gives 0 for one user
/// space may not read: x86's and arm64's event_idx). False: read() knows better.
template <class Hw>
[[gnu::always_inline]] inline bool read_member_raw(const volatile perf_event_mmap_page* page,
                                                   Hw& hw, std::uint64_t* out) {
    return seqlock_pass(
        page, [&](const perf_event_mmap_page& fields) __attribute__((always_inline)) {
            const std::uint32_t index = fields.index;
            if (index == 0)
                return false;
            out[0] = static_cast<std::uint64_t>(fields.offset);
            out[1] = hw.rdpmc(index - 1);
            return true;
        });
}

/// The leader's raw words (`out[0..4]`: its times, then its offset and counter) in one
/// seqlock pass; false when its page gives no user-space read or no clock conversion (which a
/// group whose gap moves needs), or its counter is not on the PMU now.
template <class Hw>
[[gnu::always_inline]] inline bool read_leader_raw(const volatile perf_event_mmap_page* page,
                                                   Hw& hw, std::uint64_t* out) {
    // cap_user_rdpmc and cap_user_time, bits 2 and 3 of the capabilities word: one load.
    constexpr std::uint64_t kNeeded = (std::uint64_t{1} << 2) | (std::uint64_t{1} << 3);
    return seqlock_pass(
        page, [&](const perf_event_mmap_page& fields) __attribute__((always_inline)) {
            const std::uint32_t index = fields.index;
            if (index == 0 || (fields.capabilities & kNeeded) != kNeeded)
                return false;
            out[0] = fields.time_enabled;
            out[1] = fields.time_running;
            out[2] = fields.time_offset;
            out[3] = static_cast<std::uint64_t>(fields.offset);
            out[4] = hw.rdpmc(index - 1);
            return true;
        });
}

/// A raw group reading of `widths.size()` events as read_page_leader() and read_page_count()
/// give it: per event offset + its counter sign-extended to its page's pmc_width (constant for
/// an event: the kernel sets it from the event's counter), the group's gap (enabled - running)
/// and its enabled time less the clock's share (time_enabled + time_offset).
inline void raw_group_reading(const std::uint64_t* raw, std::span<const unsigned> widths,
                              std::uint64_t* counts, std::uint64_t& gap,
                              std::uint64_t& enabled_base) {
    gap = raw[0] - raw[1];
    enabled_base = raw[0] + raw[2];
    const std::uint64_t* event = raw + kRawTimeWords;
    for (std::size_t i = 0; i < widths.size(); ++i, event += kRawEventWords)
        counts[i] = event[0] + static_cast<std::uint64_t>(sign_extend(event[1], widths[i]));
}

/// The enabled time at a reading: its base (time_enabled + time_offset) plus the clock value
/// `cycles` (TSC, CNTVCT_EL0) converted with the page's time_mult and time_shift, as
/// perf_event_open(2) extends it. arm64's short clock is taken as not having wrapped (the
/// kernel subtracts its cycle base for that), as in read_mmap_page().
inline std::uint64_t extended_enabled(std::uint64_t enabled_base, std::uint64_t cycles,
                                      std::uint32_t time_mult, std::uint16_t time_shift) {
    const std::uint64_t quot = cycles >> time_shift;
    const std::uint64_t rem = cycles & ((std::uint64_t{1} << time_shift) - 1);
    return enabled_base + quot * time_mult + ((rem * time_mult) >> time_shift);
}

/// A count's change scaled for multiplexing from its group's gaps: unscaled when the gap did
/// not move (it ran the whole interval), else raw * enabled / running with running = enabled
/// less the gap's growth (scale_count; 0 when it never ran).
inline double scaled_by_gap(std::uint64_t raw_delta, std::uint64_t gap_before,
                            std::uint64_t gap_after, std::uint64_t enabled_delta) {
    if (gap_before == gap_after)
        return static_cast<double>(raw_delta);
    const std::uint64_t off = gap_after - gap_before;
    const std::uint64_t running = enabled_delta > off ? enabled_delta - off : 0;
    return scale_count(raw_delta, enabled_delta, running).value;
}

}  // namespace perfgauge::pmu
