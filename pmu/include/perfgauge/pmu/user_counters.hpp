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

struct UserCounters {
    /// `counter` is the page's index - 1: 0..30 are PMEVCNTR<n>_EL0, 31 the cycle counter
    /// (the kernel reports PMCCNTR_EL0 as index 32). PMEVCNTR<n>_EL0 names its counter in the
    /// instruction, so the index picks one of 32 reads: a branch into a table of them, each
    /// two instructions (the read and a branch out), six instructions in all on every region
    /// boundary's read, where a switch took four to twelve. The table is indexed by the page's
    /// index modulo 32 (32, the cycle counter, is its first entry); the kernel gives 1..32.
    /// Not PMSELR_EL0 + PMXEVCNTR_EL0: a preemption between the select and the read would let
    /// the kernel's own use of PMSELR_EL0 change which counter the read returns, and the
    /// seqlock would not see it (the page does not change when the task is merely preempted).
    /// The branch targets have no BTI landing pads: perfgauge is not built with branch
    /// protection (a BTI build would need `bti j` before each entry).
    [[gnu::always_inline]] std::uint64_t rdpmc(unsigned counter) {
        std::uint64_t value, target;
        asm volatile(
            "adr %1, 1f\n\t"
            "add %1, %1, %w2, uxtw #3\n\t"
            "br %1\n"
            "1:\n\t"
            "mrs %0, pmccntr_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr0_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr1_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr2_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr3_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr4_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr5_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr6_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr7_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr8_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr9_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr10_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr11_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr12_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr13_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr14_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr15_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr16_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr17_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr18_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr19_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr20_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr21_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr22_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr23_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr24_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr25_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr26_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr27_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr28_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr29_el0\n\t"
            "b 2f\n\t"
            "mrs %0, pmevcntr30_el0\n"
            "2:"
            : "=&r"(value), "=&r"(target)
            : "r"((counter + 1) & 31u));
        return value;
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
