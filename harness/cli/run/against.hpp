// perfgauge run --against OTHER: this build and another perfgauge build measured in turn,
// benchmark by benchmark - each benchmark in --pairs pairs of fresh processes, one of each
// build, alternating which goes first (A B, B A, ...) - so that what changes on a shared machine
// from one second to the next falls on both builds of a pair alike and cancels in the pair's
// ratio. Two whole runs taken one after the other are tens of seconds apart per benchmark; a
// pair here is under a second apart.
#pragma once

#include "perfgauge/harness/run_request.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::cli {

/// Runs `perfgauge run --against`: measures, saves both builds' results (--json,
/// --against-json) and prints their comparison in --format. `spec` is the run's suite.
int run_against(const harness::RunRequest& request, workloads::SuiteSpec spec,
                const harness::SystemInfo& system);

}  // namespace perfgauge::cli
