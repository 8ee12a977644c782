// The work a pause()/resume() pair is calibrated between (Runner's constructor).
//
// What a pair adds to a loop depends on the work around it: its clock reads wait for work in
// flight, or the work overlaps them. Clock-only pairs between these six kinds spanned 2.4-3.1 ns
// in each of eight calibrations here (23.6-28.1 ns in all): the multiply chains and the loads
// low, the atomic add, the single multiply and the independent chains high. Calibrated between the
// 4-multiply chain alone, the seed loop's atomic add kept ~0.8 ns per pair uncorrected. The
// Runner subtracts the median over the kinds and records how far from it a pair beside work that
// is none of them may be (unseen_kind_ns: a benchmark's loop is one more kind).
#pragma once

#include <vector>

#include "perfgauge/harness/benchmark.hpp"

namespace perfgauge::harness {

/// One kind of work, as two benchmarks that run it `pairs` times per batch: without pauses,
/// and with a pause()/resume() pair before each run of it.
struct PauseContext {
    Benchmark alone;
    Benchmark with_pairs;
};

/// Every kind, the first being a short chain of dependent multiplies (the one used alone where
/// a pair's system calls dwarf what the context changes).
std::vector<PauseContext> pause_contexts(int pairs);

}  // namespace perfgauge::harness
