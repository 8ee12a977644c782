// perfgauge run --against OTHER's stages: this build and another perfgauge build measured in
// turn, benchmark by benchmark - each benchmark in pairs of fresh processes, one of each build,
// alternating which goes first (A B, B A, ...) - then each build's benchmarks joined into its
// result and the two compared, OTHER the baseline. The command saves and prints what these
// return. Two whole runs taken one after the other are tens of seconds apart per benchmark; a
// pair here is under a second apart.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/against_run.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/pipeline_messages.hpp"
#include "perfgauge/harness/result.hpp"
#include "perfgauge/harness/run_request.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::harness {

/// The selection that makes a child build exactly the benchmark of `params` (a benchmark's
/// params, as the suite names them), under the same name.
using SingleSelection =
    std::function<SuiteSelection(const std::vector<std::pair<std::string, std::string>>& params)>;

/// Both builds' sides after the pairs: each benchmark measured in full, the pairs' outcome,
/// and how many benchmarks the suite holds.
struct AgainstMeasured {
    AgainstSide own, other;
    PairsDone done;
    std::size_t benchmarks = 0;
};

/// Measures the suite `spec` with request.against's other build in pairs of processes (native
/// counters only: bad event names are refused before anything runs), until done, interrupted
/// or a child fails (done.failure). Progress on one self-overwriting stderr line when stderr
/// is a terminal and the request is not quiet.
AgainstMeasured measure_against(const RunRequest& request, const workloads::SuiteSpec& spec,
                                const SystemInfo& system, const SingleSelection& single,
                                const Messages& say);

/// What both results and the comparison say when benchmarks are missing (an interrupt or a
/// failed child stopped the pairs); empty when every benchmark was measured.
std::string against_stop_warning(const AgainstMeasured& measured);

/// Each build's benchmarks joined into its result, with what both share (the system, the CPU
/// gaps measured once here, a token saying they were measured in turn, an interruption, the
/// stop warning): {other's, own}.
std::pair<RunResult, RunResult> against_results(AgainstMeasured& measured, const SystemInfo& system,
                                                const std::string& stop_warning);

/// The comparison printed: OTHER the baseline, labelled with the files saved (empty: none),
/// with how the pairs were taken; a stop warning leads its notes and is said.
Comparison against_comparison(const RunRequest& request, const RunResult& other_result,
                              const RunResult& own_result, const AgainstMeasured& measured,
                              const std::string& other_path, const std::string& own_path,
                              const std::string& stop_warning, const Messages& say);

}  // namespace perfgauge::harness
