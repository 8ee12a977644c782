// Thin C++ layer over libpfm4 (private to pmu/): initialisation, encoding, enumeration.
#pragma once

#include <linux/perf_event.h>

#include <string>
#include <vector>

namespace perfgauge::pmu::libpfm {

/// Initialises libpfm4 once per process (thread-safe); throws std::runtime_error on failure.
void ensure_initialized();

struct Encoding {
    int status = 0;  ///< PFM_SUCCESS or a PFM_ERR_* code
    perf_event_attr attr{};
    std::string fstr;      ///< fully qualified name with every attribute spelled out
    std::string pmu_name;  ///< libpfm4 PMU name of the matched event
};

/// Encodes `name` for perf_event_open at the given privilege levels.
Encoding encode(const std::string& name, bool user, bool kernel);

std::string error_text(int status);

struct PfmEvent {
    std::string pmu;   ///< libpfm4 PMU name
    std::string name;  ///< event name inside that PMU
    std::string description;
    bool is_alias = false;  ///< libpfm4 marks aliases (CYCLES = PERF_COUNT_HW_CPU_CYCLES)
};

/// Every event of every PMU libpfm4 reports as present on this CPU.
const std::vector<PfmEvent>& present_events();
/// Names of the PMUs present.
std::vector<std::string> present_pmus();

/// The unit-mask names of the event `name` refers to ("(default)" marks the defaults); empty
/// when the event does not exist or has none.
std::vector<std::string> unit_mask_names(const std::string& name);

}  // namespace perfgauge::pmu::libpfm
