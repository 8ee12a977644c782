#include "perfgauge/pmu/arm_cpu.hpp"

#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

namespace perfgauge::pmu {

MidrFields decode_midr(std::uint64_t midr) {
    MidrFields f;
    f.implementer = static_cast<unsigned>(midr >> 24 & 0xff);
    f.variant = static_cast<unsigned>(midr >> 20 & 0xf);
    f.architecture = static_cast<unsigned>(midr >> 16 & 0xf);
    f.part = static_cast<unsigned>(midr >> 4 & 0xfff);
    f.revision = static_cast<unsigned>(midr & 0xf);
    return f;
}

std::string arm_implementer_name(unsigned implementer) {
    switch (implementer) {
        case 0x41:
            return "Arm";
        case 0x42:
            return "Broadcom";
        case 0x43:
            return "Cavium";
        case 0x48:
            return "HiSilicon";
        case 0x4e:
            return "NVIDIA";
        case 0x51:
            return "Qualcomm";
        case 0x61:
            return "Apple";
        case 0xc0:
            return "Ampere";
        default:
            return fmt::format("implementer {:#04x}", implementer);
    }
}

std::string arm_part_name(unsigned implementer, unsigned part) {
    if (implementer == 0x41) {
        switch (part) {
            case 0xd03:
                return "Cortex-A53";
            case 0xd05:
                return "Cortex-A55";
            case 0xd07:
                return "Cortex-A57";
            case 0xd08:
                return "Cortex-A72";
            case 0xd0b:
                return "Cortex-A76";
            case 0xd0c:
                return "Neoverse N1";
            case 0xd40:
                return "Neoverse V1";
            case 0xd47:
                return "Cortex-A710";
            case 0xd49:
                return "Neoverse N2";
            case 0xd4f:
                return "Neoverse V2";
            default:
                break;
        }
    }
    if (implementer == 0xc0 && part == 0xac3)
        return "Ampere-1";
    return fmt::format("part {:#05x}", part);
}

std::string describe_midr(std::uint64_t midr) {
    const MidrFields f = decode_midr(midr);
    return fmt::format("{} {} r{}p{}", arm_implementer_name(f.implementer),
                       arm_part_name(f.implementer, f.part), f.variant, f.revision);
}

std::optional<std::uint64_t> midr_from_cpuinfo(std::string_view cpuinfo) {
    std::istringstream in{std::string(cpuinfo)};
    std::string line;
    std::uint64_t midr = 0;
    unsigned seen = 0;  // one bit per field, so a second CPU's block is not mixed in
    const std::pair<const char*, unsigned> fields[] = {{"CPU implementer", 24},
                                                       {"CPU variant", 20},
                                                       {"CPU architecture", 16},
                                                       {"CPU part", 4},
                                                       {"CPU revision", 0}};
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        for (unsigned i = 0; i < 5; ++i) {
            if (line.rfind(fields[i].first, 0) != 0 || (seen >> i & 1))
                continue;
            // "CPU architecture: 8" is decimal; AArch64 reports 0xf in the register itself.
            const std::string value = line.substr(colon + 1);
            std::uint64_t v = 0;
            try {
                v = std::stoull(value, nullptr, 0);
            } catch (const std::exception&) {
                return std::nullopt;
            }
            if (i == 2)
                v = 0xf;
            midr |= v << fields[i].second;
            seen |= 1u << i;
        }
        if (seen == 0x1f)
            return midr;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> read_midr() {
    std::ifstream sysfs("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1");
    std::string text;
    if (sysfs >> text) {
        try {
            return std::stoull(text, nullptr, 16);
        } catch (const std::exception&) {
        }
    }
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::ostringstream all;
    all << cpuinfo.rdbuf();
    return midr_from_cpuinfo(all.str());
}

}  // namespace perfgauge::pmu
