// perfgauge run's suite, command-line side: the request's selection on this machine (the
// suite's own fit_caches_here and memory_refusal, workloads/suite_here.hpp), refusals as usage
// errors; and one benchmark's selection for a child (from its key, benchmark_key.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/run_request.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::cli {

/// One benchmark's selection (--workload, --variant, --dist, --shape, --cache, --sizes from its
/// params), with the cache sizes and data seed of `selection`: a child perfgauge given it builds
/// exactly that benchmark, under the same name.
harness::SuiteSelection single_benchmark_selection(
    const harness::SuiteSelection& selection,
    const std::vector<std::pair<std::string, std::string>>& params);

/// The suite `selection` makes here; UsageError for a selection that cannot mean what it says
/// (workloads::selection_refusal). Without --l3, a last-level size `detected` (sysfs) lacks or
/// that no CPU has is measured (harness::find_last_level_cache); `last_level_found_by` then
/// says how it was found.
workloads::SuiteSpec suite_spec_from(const harness::SuiteSelection& selection,
                                     const workloads::CacheSizes& detected,
                                     std::string* last_level_found_by = nullptr);

/// UsageError naming the largest working set, the bytes the suite needs and the bytes
/// available, when the suite's data would not fit in memory: checked before allocating it.
void check_suite_memory(const workloads::SuiteSpec& spec);

}  // namespace perfgauge::cli
