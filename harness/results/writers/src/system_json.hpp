// The machine a result was measured on, as JSON: one writer for every kind that records it (run
// results in context.perfgauge.system and the context, stat results in "system"), so that the
// history's machine fingerprint reads the same facts from each.
#pragma once

#include <nlohmann/json.hpp>

#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::harness::detail {

/// CPU, kernel, governor, mitigations, ... (a run result's context.perfgauge.system).
nlohmann::json system_json(const SystemInfo& sys);

/// The host's name, logical CPUs and caches under Google Benchmark's context names (host_name,
/// num_cpus, caches), added to `j`.
void add_host_json(const SystemInfo& sys, nlohmann::json& j);

}  // namespace perfgauge::harness::detail
