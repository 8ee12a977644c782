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
    if (v.required_isa == "bmi2" && cpu.bmi2 && harness::pext_is_microcoded(cpu)) {
        return fmt::format(
            "'{}': pext is microcoded on this CPU (AMD family {:#x}, before Zen 3): it takes "
            "hundreds of cycles, so '{}' is expected to lose here",
            v.name, cpu.family, v.name);
    }
    return {};
}

}  // namespace perfgauge::workloads
