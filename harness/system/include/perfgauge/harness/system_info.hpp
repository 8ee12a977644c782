// Collecting the facts about the machine that change what a measurement means.
#pragma once

#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::harness {

SystemInfo collect_system_info();
CpuInfo detect_cpu();

}  // namespace perfgauge::harness
