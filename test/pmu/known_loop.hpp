// A loop whose instruction count is known exactly, for tests that hold a real PMU to exact
// numbers: 3 instructions per iteration (pmu/known_loops.hpp), plus the move that loads the count.
#pragma once

#include <cstdint>

#include "perfgauge/pmu/known_loops.hpp"

namespace perfgauge::test {

inline constexpr unsigned kLoopInstructionsPerIteration = pmu::kStraightLoopInstructions;

[[gnu::always_inline]] inline void known_loop(std::uint64_t iterations) {
    pmu::straight_loop(iterations);
}

}  // namespace perfgauge::test
