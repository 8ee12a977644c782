// The libpfm4 line of `doctor`: which release, and whether it knows this CPU's own events.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "perfgauge/harness/doctor.hpp"

namespace perfgauge::harness {

namespace {

constexpr const char* kTopic = "libpfm4";

// Which libpfm4 adds this CPU. Only what is known is said: upstream libpfm4 added the AMD
// family 1Ah (Zen 5) core PMU, amd64_fam1ah_zen5, in July 2024, after the 4.13 release.
std::string release_that_adds(const CpuInfo& cpu) {
    if (cpu.vendor == "AuthenticAMD" && cpu.family == 0x1a) {
        return "a libpfm4 newer than 4.13 that lists amd64_fam1ah_zen5 (upstream added AMD "
               "Zen 5 core PMU support in July 2024)";
    }
    return "a libpfm4 release that lists a PMU for this CPU (see its README's list of "
           "supported processors)";
}

}  // namespace

DoctorCheck libpfm_check(const pmu::LibpfmInfo& libpfm, const CpuInfo& cpu) {
    const std::string version = libpfm.version.empty() ? "(version unknown)" : libpfm.version;
    const std::string which_cpu =
        fmt::format("{} family {:#x} model {:#x}", cpu.vendor, cpu.family, cpu.model);
    if (!libpfm.cpu_pmus.empty()) {
        return {CheckLevel::ok, kTopic,
                fmt::format("{} knows this CPU ({}): model-specific events of {} resolve "
                            "(e.g. {}::<EVENT>; list them with perfgauge events {})",
                            version, which_cpu, fmt::join(libpfm.cpu_pmus, ", "),
                            libpfm.cpu_pmus.front(), libpfm.cpu_pmus.front()),
                ""};
    }
    const bool perf_raw = std::find(libpfm.present_pmus.begin(), libpfm.present_pmus.end(),
                                    "perf_raw") != libpfm.present_pmus.end();
    std::string finding = fmt::format(
        "{} does not know this CPU ({}): it found no model-specific PMU, only its generic ones "
        "({}), so model-specific names (PMU::EVENT, e.g. amd64_fam19h_zen3::RETIRED_INSTRUCTIONS) "
        "do not resolve. Still working: the generic perf names (cycles, instructions, branches, "
        "branch-misses, cache-references, cache-misses, L1-dcache-load-misses, ...), raw events "
        "rNNNN with the CPU's own event codes (e.g. r00c0){}",
        version, which_cpu,
        libpfm.present_pmus.empty() ? std::string("none")
                                    : fmt::format("{}", fmt::join(libpfm.present_pmus, ", ")),
        perf_raw ? ", also spelt perf_raw::r00c0" : "");
    return {CheckLevel::warn, kTopic, finding,
            fmt::format("for this CPU's own event names, install {}", release_that_adds(cpu))};
}

}  // namespace perfgauge::harness
