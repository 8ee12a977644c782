#include "perfgauge/workloads/variant_availability.hpp"

#include <fmt/format.h>

namespace perfgauge::workloads {

std::string unavailable_reason(const VarintVariant& v, const harness::CpuInfo& cpu) {
    if (v.required_isa == "bmi2" && !cpu.bmi2) {
        return fmt::format("'{}' needs BMI2 (pext, bzhi), which this CPU ({}) does not have",
                           v.name, cpu.model_name.empty() ? cpu.vendor : cpu.model_name);
    }
    return {};
}

std::string caveat(const VarintVariant& v, const harness::CpuInfo& cpu) {
    if (v.required_isa == "bmi2" && cpu.bmi2 && pext_is_microcoded(cpu)) {
        return fmt::format(
            "'{}': pext is microcoded on this CPU (AMD family {:#x}, before Zen 3): it takes "
            "hundreds of cycles, so '{}' is expected to lose here",
            v.name, cpu.family, v.name);
    }
    return {};
}

bool pext_is_microcoded(const harness::CpuInfo& cpu) {
    return cpu.vendor == "AuthenticAMD" && cpu.family == 0x17;
}

std::vector<harness::DoctorCheck> isa_checks(const harness::CpuInfo& cpu) {
    using harness::CheckLevel;
    if (!cpu.bmi2)
        return {{CheckLevel::warn, "BMI2",
                 "not available: the branchless (pext) varint decoder cannot run here", ""}};
    if (pext_is_microcoded(cpu))
        return {{CheckLevel::warn, "BMI2",
                 "available, but pext is microcoded on AMD Zen 1/2 (~300 cycles): the "
                 "branchless varint decoder will be slow here for that reason alone",
                 ""}};
    return {{CheckLevel::ok, "BMI2", "available; pext is fast on this CPU", ""}};
}

}  // namespace perfgauge::workloads
