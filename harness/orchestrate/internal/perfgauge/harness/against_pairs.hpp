// perfgauge run --against OTHER: when a benchmark's pairs of processes (one of each build,
// taken in turn) are enough. The first --pairs always; then pairs are added two at a time
// (A B, then B A, so that neither build goes first more often) until the pairs so far know the
// benchmark's time well enough, or --max-pairs is reached.
#pragma once

#include <cstddef>
#include <vector>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// Whether a benchmark's pairs so far know its time well enough: the sign-test interval of the
/// median of their changes, as perfgauge compare pairs runs (log ratios of the processes'
/// medians; differences when one is not above 0), is within +-`precision` (a share; of the
/// baseline's median, for differences). The interval's width decides, not which way the pairs
/// lean; a pair without a clean sample on both sides is no pair. `other` and `own` hold one
/// result per pair, each of the one benchmark (pure).
bool pairs_precise_enough(const std::vector<RunResult>& other, const std::vector<RunResult>& own,
                          double precision);

/// The stopping rule: whether pair `index` (0-based) is no longer needed, given the pairs taken
/// so far. Never within the first `pairs`; after them, only before an A B couple (every second
/// pair), when pairs_precise_enough. The caller stops at --max-pairs (pure).
bool pairs_done(std::size_t index, std::size_t pairs, const std::vector<RunResult>& other,
                const std::vector<RunResult>& own, double precision);

}  // namespace perfgauge::harness
