// perfgauge run --against OTHER: this build and another perfgauge build measured in turn,
// benchmark by benchmark - each benchmark in --pairs pairs of fresh processes, one of each
// build, alternating which goes first (A B, B A, ...) - so that what changes on a shared machine
// from one second to the next falls on both builds of a pair alike and cancels in the pair's
// ratio. Two whole runs taken one after the other are tens of seconds apart per benchmark; a
// pair here is under a second apart.
#pragma once

#include <string>
#include <vector>

#include "cli_common.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::cli {

/// The options one benchmark's selection takes (--workload, --variant, --dist, --shape,
/// --cache, --sizes from its params), beside the cache sizes and data seed of the run's: a child
/// perfgauge given them builds exactly that benchmark, under the same name.
std::vector<std::string> single_benchmark_arguments(
    const po::variables_map& vm, const std::vector<std::pair<std::string, std::string>>& params);

/// Runs `perfgauge run --against`: measures, saves both builds' results (--json,
/// --against-json) and prints their comparison in --format. `spec` is the run's selection.
int run_against(const po::variables_map& vm, workloads::SuiteSpec spec,
                const harness::SystemInfo& system);

}  // namespace perfgauge::cli
