// A loop whose instruction count is known exactly: 3 instructions per iteration, plus the move
// that loads the count. For tests that hold a real PMU to exact numbers.
#pragma once

#include <cstdint>

namespace perfgauge::test {

inline constexpr unsigned kLoopInstructionsPerIteration = 3;

[[gnu::always_inline]] inline void known_loop(std::uint64_t iterations) {
#if defined(__aarch64__)
    asm volatile("1:\n\tnop\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(iterations) : : "cc");
#elif defined(__x86_64__)
    asm volatile("1:\n\tnop\n\tsub $1, %0\n\tjnz 1b" : "+r"(iterations) : : "cc");
#else
#error "known_loop: no loop written for this architecture"
#endif
}

}  // namespace perfgauge::test
