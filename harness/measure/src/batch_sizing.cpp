#include "perfgauge/harness/batch_sizing.hpp"

#include <algorithm>

namespace perfgauge::harness {

bool long_enough_batch(double ns, double wall_ns, double target_ns) {
    return ns >= target_ns || wall_ns >= kPausedWallFactor * target_ns;
}

std::uint64_t grown_iterations(std::uint64_t iterations, double ns, double wall_ns,
                               double target_ns) {
    // Grown by the measured time alone, a body that pauses every iteration overshot its
    // wall-time limit up to 10x (50 ms batches with a counter group here, nearly all of them
    // switched out on a busy machine).
    double need = kPausedWallFactor * target_ns / std::max(1.0, wall_ns);
    if (ns > 0)
        need = std::min(need, target_ns / ns);
    const double factor = std::clamp(1.2 * need, 1.5, 10.0);
    return std::max(iterations + 1,
                    static_cast<std::uint64_t>(static_cast<double>(iterations) * factor));
}

}  // namespace perfgauge::harness
