// perfgauge run's options that select the suite (workloads, variants, distributions, shapes,
// cache states, sizes, cache sizes, data seed), checked with "did you mean" for names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::cli {

/// A size option ("64K", "1M"); throws UsageError naming `option` when it is not one.
std::uint64_t size_option(const std::string& text, const char* option);

/// The suite the options select; throws UsageError for unknown names and bad sizes.
/// The options that decide which benchmarks exist and on what data, as arguments: a child
/// perfgauge (a measuring process, the simulation) rebuilds exactly the same suite from them.
std::vector<std::string> suite_arguments(const po::variables_map& vm);

/// Also UsageError for a selection that cannot mean what it says (workloads::selection_refusal).
/// Without --l3, a last-level size `detected` (sysfs) lacks or that no CPU has is measured
/// (harness::find_last_level_cache); `last_level_found_by` then says how it was found.
workloads::SuiteSpec suite_spec_from(const po::variables_map& vm,
                                     const workloads::CacheSizes& detected,
                                     std::string* last_level_found_by = nullptr);

/// UsageError naming the largest working set, the bytes the suite needs and the bytes
/// available, when the suite's data would not fit in memory: checked before allocating it.
void check_suite_memory(const workloads::SuiteSpec& spec);

}  // namespace perfgauge::cli
