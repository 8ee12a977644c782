// Which arm64 CPU this is, from its Main ID Register (MIDR_EL1): what libpfm4 and the kernel
// key their PMU tables on, and what a result records as the CPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perfgauge::pmu {

struct MidrFields {
    unsigned implementer = 0;   ///< bits 31:24 (0x41 Arm, 0x61 Apple, 0xc0 Ampere, ...)
    unsigned variant = 0;       ///< bits 23:20 (the major revision: r<variant>)
    unsigned architecture = 0;  ///< bits 19:16 (0xf: features in the ID registers)
    unsigned part = 0;          ///< bits 15:4 (the core: 0xd0c Neoverse N1, ...)
    unsigned revision = 0;      ///< bits 3:0 (the minor revision: p<revision>)
};

MidrFields decode_midr(std::uint64_t midr);

/// "Arm", "Apple", ... or "implementer 0x<hex>" for one not in the table.
std::string arm_implementer_name(unsigned implementer);
/// "Neoverse N1", "Cortex-A72", ... or "part 0x<hex>" for one not in the table.
std::string arm_part_name(unsigned implementer, unsigned part);
/// "Arm Neoverse N1 r3p1": what a person calls the CPU.
std::string describe_midr(std::uint64_t midr);

/// MIDR_EL1 as /proc/cpuinfo writes its fields ("CPU implementer : 0x41", "CPU variant",
/// "CPU architecture: 8", "CPU part", "CPU revision") for the first CPU listed.
std::optional<std::uint64_t> midr_from_cpuinfo(std::string_view cpuinfo);

/// This machine's MIDR_EL1 for cpu0: sysfs (regs/identification/midr_el1), else /proc/cpuinfo.
std::optional<std::uint64_t> read_midr();

}  // namespace perfgauge::pmu
