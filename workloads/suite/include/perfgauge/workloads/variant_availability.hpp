// Whether a varint variant can run on a CPU, and what to know about its numbers there.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/doctor.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::workloads {

/// Empty when `v` runs on `cpu`; otherwise why not, in one sentence.
std::string unavailable_reason(const VarintVariant& v, const harness::CpuInfo& cpu);
/// Non-empty when valgrind cannot run `v` (so no simulated counts for it): why, in one sentence.
std::string unsimulated_reason(const VarintVariant& v);
/// Non-empty when `v` runs on `cpu` but its timings need a caveat (microcoded pext).
std::string caveat(const VarintVariant& v, const harness::CpuInfo& cpu);

/// `pext`/`pdep` are microcoded (~300 cycles) on AMD family 17h (Zen 1, Zen 2) and fast
/// (3 cycles) on Zen 3 and later and on Intel since Haswell.
bool pext_is_microcoded(const harness::CpuInfo& cpu);

/// What `perfgauge doctor` says about the instruction sets the built-in workloads need.
/// Lives here, not in the harness: only the workloads care which ISA extensions exist.
std::vector<harness::DoctorCheck> isa_checks(const harness::CpuInfo& cpu);

}  // namespace perfgauge::workloads
