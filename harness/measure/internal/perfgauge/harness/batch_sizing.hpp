// How the runner sizes a benchmark's batches (Runner::size_batch), the arithmetic of it: when a
// sizing batch is long enough, and how much to grow one that is not. Both pure.
#pragma once

#include <cstdint>

namespace perfgauge::harness {

/// A body that pauses every iteration spends most of its wall time paused: once a sizing batch's
/// wall time reaches this many times the target sample time, more iterations only cost time.
inline constexpr double kPausedWallFactor = 20;

/// Whether a sizing batch of `ns` timed (its pauses left out) and `wall_ns` of wall time is
/// long enough for a sample of `target_ns`: its timed part is, or its wall time reached
/// kPausedWallFactor x the target.
bool long_enough_batch(double ns, double wall_ns, double target_ns);

/// The iterations of the next sizing batch after one of `iterations` that was too short
/// (`ns` timed, `wall_ns` of wall time): grown towards whichever limit comes first, the timed
/// target or kPausedWallFactor x the target in wall time, by 1.2x what that needs, within
/// 1.5x and 10x, and by one iteration at least.
std::uint64_t grown_iterations(std::uint64_t iterations, double ns, double wall_ns,
                               double target_ns);

}  // namespace perfgauge::harness
