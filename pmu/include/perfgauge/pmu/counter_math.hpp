// Pure arithmetic of counting: parsing read() buffers, multiplex scaling, rdpmc decoding.
// No syscalls here, so all of it is unit-tested without a PMU.
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace perfgauge::pmu {

/// One read() of a counter or group, in group order.
struct GroupReading {
    std::uint64_t time_enabled = 0;  ///< ns the group was enabled (0 unless requested)
    std::uint64_t time_running = 0;  ///< ns it was actually on the PMU (0 unless requested)
    std::vector<std::uint64_t> values;
    std::vector<std::uint64_t> ids;  ///< kernel ids (empty unless PERF_FORMAT_ID)
};

class ReadFormatError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Number of 64-bit words read() returns for `events` counters with `read_format`.
std::size_t read_buffer_words(std::uint64_t read_format, std::size_t events);

/// Parses a read() buffer into `out` (reusing its storage: no allocation once sized).
/// Handles every combination of GROUP, ID, TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING and LOST.
/// Throws ReadFormatError when the buffer is shorter than the layout requires or the group
/// reports a different number of events than expected.
void parse_read_buffer(std::span<const std::uint64_t> words, std::uint64_t read_format,
                       std::size_t expected_events, GroupReading& out);

/// A counter's change between two readings, corrected for multiplexing.
struct ScaledCount {
    double value = 0;       ///< raw delta * enabled / running (raw delta when not multiplexed)
    std::uint64_t raw = 0;  ///< the delta as counted while on the PMU
    double running_fraction = 0;  ///< running / enabled in [0, 1]
    bool counted = false;         ///< false when the counter never ran in the interval
};

/// Scales a delta the way perf stat does: raw * enabled / running, where `enabled`/`running` are
/// the deltas of the group's TOTAL_TIME_ENABLED/RUNNING. running == 0 means "not counted" (never
/// enabled, or never scheduled). The product is formed in long double: no 64-bit overflow.
ScaledCount scale_count(std::uint64_t raw_delta, std::uint64_t enabled_delta,
                        std::uint64_t running_delta);

/// Sign-extends the low `width` bits of an rdpmc result (counters are narrower than 64 bits).
/// Inline and branch-free: every user-space read of every counter comes here (a Session
/// region's boundary among them: three instructions on arm64, eight with the branches). A
/// width of 0 (a page not written yet) or 64 shifts by nothing; the kernel writes none above 64.
inline std::int64_t sign_extend(std::uint64_t value, unsigned width) {
    const unsigned shift = (64u - width) & 63u;
    return static_cast<std::int64_t>(value << shift) >> shift;
}

/// What the mmap'd page of a self-monitoring counter says, read consistently.
struct MmapReading {
    bool rdpmc_used = false;  ///< false: the counter is not on a PMU counter now, or rdpmc is off
    std::uint64_t count = 0;  ///< offset + sign-extended rdpmc value (valid when rdpmc_used)
    std::uint64_t time_enabled = 0;
    std::uint64_t time_running = 0;
    unsigned retries = 0;  ///< seqlock retries it took
    /// The times were extended to now (cap_user_time); false: they are the kernel's last
    /// update's, stale while the event stays scheduled, so two readings' times cannot be
    /// differenced.
    bool times_current = false;
};

/// Reads a perf_event_mmap_page with the seqlock protocol of perf_event_open(2): re-read while
/// `lock` changes. `Hw` supplies `std::uint64_t rdpmc(unsigned counter)` (the counter the page's
/// `index - 1` names: rdpmc on x86, PMEVCNTR<n>_EL0 or PMCCNTR_EL0 on arm64) and
/// `std::uint64_t rdtsc()` (the clock the page's time_* fields convert: the TSC on x86, the
/// generic timer CNTVCT_EL0 on arm64), so tests can drive it with a fake page and fake
/// instructions.
template <class Hw>
MmapReading read_mmap_page(const volatile perf_event_mmap_page* page, Hw& hw) {
    MmapReading r;
    std::uint32_t seq = 0;
    std::uint64_t cycles = 0;
    std::uint16_t time_shift = 0;
    std::uint32_t time_mult = 0;
    std::uint64_t time_offset = 0;
    std::uint64_t time_cycles = 0;
    std::uint64_t time_mask = 0;
    bool time_short = false;
    std::uint32_t index = 0;
    for (;; ++r.retries) {
        seq = page->lock;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        r.time_enabled = page->time_enabled;
        r.time_running = page->time_running;
        cycles = 0;
        // The page's times are those of the kernel's last update (when the event was last
        // scheduled in): always brought up to now, not only when multiplexed as in
        // perf_event_open(2)'s example, since callers difference the times of two readings.
        r.times_current = page->cap_user_time;
        if (page->cap_user_time) {
            cycles = hw.rdtsc();
            time_offset = page->time_offset;
            time_mult = page->time_mult;
            time_shift = page->time_shift;
            // A clock narrower than 64 bits (arm64's generic timer): the kernel gives the
            // value it last saw and the mask of the bits that wrap.
            time_short = page->cap_user_time_short;
            time_cycles = page->time_cycles;
            time_mask = page->time_mask;
        }
        index = page->index;
        r.count = static_cast<std::uint64_t>(page->offset);
        r.rdpmc_used = page->cap_user_rdpmc && index != 0;
        if (r.rdpmc_used) {
            r.count +=
                static_cast<std::uint64_t>(sign_extend(hw.rdpmc(index - 1), page->pmc_width));
        }
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (page->lock == seq)
            break;
    }
    if (cycles != 0) {
        if (time_short)
            cycles = time_cycles + ((cycles - time_cycles) & time_mask);
        // Extend the times from the last kernel update to now (perf_event_open(2)).
        const std::uint64_t quot = cycles >> time_shift;
        const std::uint64_t rem = cycles & ((std::uint64_t{1} << time_shift) - 1);
        const std::uint64_t delta =
            time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
        r.time_enabled += delta;
        if (index != 0)
            r.time_running += delta;
    }
    return r;
}

}  // namespace perfgauge::pmu
