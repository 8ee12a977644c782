// Loops whose work is known in advance, for checking counters against (selftest --counters,
// the hardware-path tests, the arm64 guest's Session check), written in
// assembly for x86-64 and arm64 so that no compiler can change what they execute:
// - straight_loop(n): exactly kStraightLoopInstructions instructions per iteration, so a
//   user-space instruction count around it is a*n + b with a known and b the same for every n;
// - branch_loop(bytes, n): one conditional branch per byte, taken when the byte is zero, so
//   the branch is predictable over zeros and mispredicted about half the time over seeded
//   random zeros and ones (plus the loop's own branch, mispredicted once, at its end).
// Always inlined: a region around them holds the loop and the move that loads its count.
#pragma once

#include <cstddef>
#include <cstdint>

namespace perfgauge::pmu {

inline constexpr unsigned kStraightLoopInstructions = 3;

#if defined(__x86_64__) || defined(__aarch64__)
inline constexpr bool kKnownLoopsWritten = true;
#else
inline constexpr bool kKnownLoopsWritten = false;
#endif

/// n >= 1 iterations of 3 instructions: a nop, a decrement and a branch back.
[[gnu::always_inline]] inline void straight_loop(std::uint64_t n) {
#if defined(__aarch64__)
    asm volatile("1:\n\tnop\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#elif defined(__x86_64__)
    asm volatile("1:\n\tnop\n\tsub $1, %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
    (void)n;
#endif
}

/// One data-dependent branch per byte of bytes[0..n), n >= 1: returns how many were non-zero
/// (the work is kept). Both paths are written out, so the compiler cannot make it branchless.
[[gnu::always_inline]] inline std::uint64_t branch_loop(const std::uint8_t* bytes,
                                                        std::uint64_t n) {
    std::uint64_t nonzero = 0;
#if defined(__aarch64__)
    asm volatile(
        "1:\n\t"
        "ldrb w9, [%[p]], #1\n\t"
        "cbz w9, 2f\n\t"
        "add %[acc], %[acc], #1\n"
        "2:\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b"
        : [p] "+r"(bytes), [n] "+r"(n), [acc] "+r"(nonzero)
        :
        : "w9", "cc", "memory");
#elif defined(__x86_64__)
    asm volatile(
        "1:\n\t"
        "cmpb $0, (%[p])\n\t"
        "je 2f\n\t"
        "add $1, %[acc]\n"
        "2:\n\t"
        "add $1, %[p]\n\t"
        "sub $1, %[n]\n\t"
        "jnz 1b"
        : [p] "+r"(bytes), [n] "+r"(n), [acc] "+r"(nonzero)
        :
        : "cc", "memory");
#else
    for (std::uint64_t i = 0; i < n; ++i)
        nonzero += bytes[i] != 0;
#endif
    return nonzero;
}

}  // namespace perfgauge::pmu
