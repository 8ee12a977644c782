// What a run asks its measuring children (--processes, and --against's pairs) and its
// simulation child: the run's own request with what only the parent does taken out. The share each
// child takes (rounds, seed, budget, its place and result file) is added by
// measuring_child_request (child_request.hpp).
#pragma once

#include "perfgauge/harness/run_request.hpp"

namespace perfgauge::harness {

/// `request` as a measuring process's: no outputs of its own, no notes to say again, measured
/// here (the share of rounds, seed and budget, and its place, are the caller's to set).
RunRequest measuring_request(RunRequest request);

/// What every child of both builds of `perfgauge run --against` is asked besides its benchmark,
/// rounds and seed: measuring_request, native counters only, quiet (the parent shows the
/// progress), each process with the run's per-benchmark budget shared like the rounds (divided
/// by request.against->pairs). `request` must have `against`.
RunRequest paired_child_request(const RunRequest& request);

}  // namespace perfgauge::harness
