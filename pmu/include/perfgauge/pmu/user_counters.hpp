// Reading a counter from user space, per architecture: the `Hw` that read_mmap_page()
// (counter_math.hpp) calls, and what perf_event_open needs to be told to allow it.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace perfgauge::pmu {

#if defined(__x86_64__) || defined(__i386__)

struct UserCounters {
    std::uint64_t rdpmc(unsigned counter) { return __rdpmc(static_cast<int>(counter)); }
    std::uint64_t rdtsc() { return __rdtsc(); }
};

/// x86 allows rdpmc on any mapped counter (sysfs rdpmc 1): nothing to ask for.
inline void request_user_read(perf_event_attr&) {}

#elif defined(__aarch64__)

namespace detail {

// PMEVCNTR<n>_EL0 names its counter in the instruction, so the index picks one of 31 reads.
// Not PMSELR_EL0 + PMXEVCNTR_EL0: a preemption between the select and the read would let the
// kernel's own use of PMSELR_EL0 change which counter the read returns, and the seqlock would
// not see it (the page does not change when the task is merely preempted).
template <unsigned N>
std::uint64_t read_event_counter() {
    std::uint64_t value;
    asm volatile("mrs %0, pmevcntr%c1_el0" : "=r"(value) : "i"(N));
    return value;
}

// Inline: a jump table on the index, no call, on every region boundary's read.
template <unsigned... N>
[[gnu::always_inline]] inline std::uint64_t read_event_counter(
    unsigned counter, std::integer_sequence<unsigned, N...>) {
    std::uint64_t value = 0;
    ((counter == N ? (value = read_event_counter<N>(), true) : false) || ...);
    return value;
}

}  // namespace detail

struct UserCounters {
    /// `counter` is the page's index - 1: 0..30 are PMEVCNTR<n>_EL0, 31 the cycle counter
    /// (the kernel reports PMCCNTR_EL0 as index 32).
    [[gnu::always_inline]] std::uint64_t rdpmc(unsigned counter) {
        if (counter == 31) {
            std::uint64_t value;
            asm volatile("mrs %0, pmccntr_el0" : "=r"(value));
            return value;
        }
        return detail::read_event_counter(counter, std::make_integer_sequence<unsigned, 31>{});
    }
    /// The generic timer, which the page's time_mult/time_shift convert on arm64. The isb
    /// keeps the read from being taken early, before the instructions ahead of it.
    std::uint64_t rdtsc() {
        std::uint64_t value;
        asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(value)::"memory");
        return value;
    }
};

/// The arm64 PMU lets user space read an event's counter only when the event asks for it
/// (config1 bit 1, the PMU's "rdpmc" format attribute) and /proc/sys/kernel/perf_user_access
/// is 1; otherwise the page says cap_user_rdpmc 0 and snapshots use read(). Only the core
/// PMU's own types carry the bit: another PMU's config1 means something else.
inline void request_user_read(perf_event_attr& attr) {
    if (attr.type == PERF_TYPE_HARDWARE || attr.type == PERF_TYPE_HW_CACHE ||
        attr.type == PERF_TYPE_RAW)
        attr.config1 |= 1u << 1;
}

#else

// No user-space read on this architecture: the page never reports one (cap_user_rdpmc stays
// 0 for lack of arch support), so these are never called.
struct UserCounters {
    std::uint64_t rdpmc(unsigned) { return 0; }
    std::uint64_t rdtsc() { return 0; }
};
inline void request_user_read(perf_event_attr&) {}

#endif

}  // namespace perfgauge::pmu
