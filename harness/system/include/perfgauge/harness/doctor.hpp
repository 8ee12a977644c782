// `perfgauge doctor`: can this machine count, and what makes its numbers unreliable?
#pragma once

#include <string>
#include <vector>

#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"
#include "perfgauge/pmu/tool_hint.hpp"

namespace perfgauge::harness {

enum class CheckLevel { ok, info, warn, fail };

struct DoctorCheck {
    CheckLevel level = CheckLevel::info;
    std::string topic;    ///< "hardware PMU", "perf_event_paranoid", ...
    std::string finding;  ///< what was found, and why when it is a problem
    std::string fix;      ///< one line to act on; empty when there is nothing to do
    pmu::ToolHint hint = pmu::ToolHint::none;  ///< a remedy in the program's own words, too
};

/// Results of opening one hardware and one software event on this machine (0 or errno).
struct DoctorProbes {
    int hardware_error = 0;  ///< opening `cycles`
    int software_error = 0;  ///< opening `task-clock`
    bool tracefs_mounted = false;
};

/// Pure: turns what was detected into the checks doctor prints.
std::vector<DoctorCheck> build_doctor_report(const pmu::PmuEnvironment& env,
                                             const SystemInfo& system, const DoctorProbes& probes);

/// "[ OK ]", "[INFO]", "[WARN]", "[FAIL]".
std::string check_label(CheckLevel level);

}  // namespace perfgauge::harness
