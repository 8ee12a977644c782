#include "perfgauge/harness/reliability.hpp"

#include "perfgauge/harness/doctor.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"

namespace perfgauge::harness {

std::vector<std::string> reliability_warnings(const SystemInfo& system) {
    DoctorProbes probes;
    probes.tracefs_mounted = true;  // irrelevant to timing: keep it out of the warnings
    std::vector<std::string> out;
    for (const auto& check : build_doctor_report(pmu::detect_pmu_environment(), system, probes)) {
        if (check.level == CheckLevel::warn)
            out.push_back(check.topic + ": " + check.finding);
    }
    return out;
}

}  // namespace perfgauge::harness
