// The conditions that make timings less reliable (governor, boost, SMT, load, ...), as one line
// each, recorded with every result.
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::harness {

/// The doctor's warnings about `system`: exactly the conditions that make timings less reliable.
std::vector<std::string> reliability_warnings(const SystemInfo& system);

}  // namespace perfgauge::harness
