// Whether a varint variant can run on a CPU, and what to know about its numbers there.
#pragma once

#include <string>

#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::workloads {

/// Empty when `v` runs on `cpu`; otherwise why not, in one sentence.
std::string unavailable_reason(const VarintVariant& v, const harness::CpuInfo& cpu);
/// Non-empty when valgrind cannot run `v` (so no simulated counts for it): why, in one sentence.
std::string unsimulated_reason(const VarintVariant& v);
/// Non-empty when `v` runs on `cpu` but its timings need a caveat (microcoded pext).
std::string caveat(const VarintVariant& v, const harness::CpuInfo& cpu);

}  // namespace perfgauge::workloads
