// doctor's line on core types: on a hybrid CPU (two or more core PMUs), which PMUs count on which
// CPUs and that perfgauge opens every hardware event on each one this process may run on,
// counting per core type. Pure, over core PMUs read from a sysfs tree (pmu/core_pmus.hpp).
#pragma once

#include <optional>
#include <vector>

#include "perfgauge/harness/doctor.hpp"
#include "perfgauge/pmu/core_pmus.hpp"

namespace perfgauge::cli {

/// nullopt with one core PMU or none (nothing to say); else the core-types check. `for_task`:
/// the PMUs whose CPUs this process may run on (pmu::core_pmus_for_cpus).
std::optional<harness::DoctorCheck> core_types_check(const std::vector<pmu::CorePmu>& all,
                                                     const std::vector<pmu::CorePmu>& for_task);

}  // namespace perfgauge::cli
