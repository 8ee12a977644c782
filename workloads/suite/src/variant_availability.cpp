#include "perfgauge/workloads/variant_availability.hpp"

#include <valgrind/valgrind.h>

#include <fmt/format.h>

namespace perfgauge::workloads {

namespace {

#if defined(__aarch64__)
constexpr const char* kThisArchitecture = "aarch64";
#else
constexpr const char* kThisArchitecture = "non-x86-64";
#endif

std::string isa_words(std::string_view isa) {
    if (isa == "bmi2")
        return "BMI2 pext and bzhi";
    if (isa == "avx2")
        return "AVX2";
    if (isa == "avx512")
        return "AVX-512 VBMI2";
    return std::string(isa);
}

std::string cpu_name(const harness::CpuInfo& cpu) {
    return cpu.model_name.empty() ? cpu.vendor : cpu.model_name;
}

}  // namespace

std::string unavailable_reason(const VarintVariant& v, const harness::CpuInfo& cpu) {
    if (v.decode == nullptr) {
        // Not compiled here: the variant's instructions exist only on x86-64.
        return fmt::format("'{}' is x86-64 code ({}), which this {} build cannot run", v.name,
                           isa_words(v.required_isa), kThisArchitecture);
    }
    if (v.required_isa == "bmi2" && !cpu.bmi2) {
        return fmt::format("'{}' needs BMI2 (pext, bzhi), which this CPU ({}) does not have",
                           v.name, cpu_name(cpu));
    }
    if (v.required_isa == "avx2" && !cpu.avx2) {
        return fmt::format("'{}' needs AVX2, which this CPU ({}) or its OS does not provide",
                           v.name, cpu_name(cpu));
    }
    if (v.required_isa == "avx512") {
        // valgrind hides AVX-512 from CPUID too: say why rather than blame the CPU. Asked of
        // valgrind's own client request, not of pmu: workloads reach no counter code.
        if (RUNNING_ON_VALGRIND != 0)
            return unsimulated_reason(v);
        if (!cpu.avx512_vbmi2 || !cpu.bmi2) {
            return fmt::format(
                "'{}' needs AVX-512 F/BW/VBMI/VBMI2 and BMI2, which this CPU ({}) or its OS does "
                "not provide",
                v.name, cpu_name(cpu));
        }
    }
    return {};
}

std::string unsimulated_reason(const VarintVariant& v) {
    // valgrind 3.19 stops at the first EVEX-encoded instruction ("unhandled instruction
    // bytes: 0x62 ...", then SIGILL). AVX2 (VEX) and BMI2 it decodes.
    if (v.required_isa == "avx512") {
        return fmt::format(
            "'{}' cannot run under valgrind, which does not decode AVX-512 instructions (no "
            "simulated counts for it)",
            v.name);
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
#if !defined(__x86_64__)
    (void)cpu;
    return {{CheckLevel::info, "BMI2",
             fmt::format("x86-64 only: the bmi2, avx2 and avx512 varint decoders are not part of "
                         "this {} build; branchy and unrolled run here",
                         kThisArchitecture),
             ""}};
#endif
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
