#include "perfgauge/pmu/libpfm_info.hpp"

#include <dlfcn.h>
#include <perfmon/pfmlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "libpfm.hpp"

namespace perfgauge::pmu {

std::optional<std::string> libpfm_version_from_path(const std::string& path) {
    const std::string marker = "libpfm.so.";
    const std::size_t at = path.rfind(marker);
    if (at == std::string::npos)
        return std::nullopt;
    const std::string version = path.substr(at + marker.size());
    // Only a full x.y.z: "libpfm.so.4" is the soname link, which names no release.
    if (version.empty() || std::count(version.begin(), version.end(), '.') < 2 ||
        version.find_first_not_of("0123456789.") != std::string::npos) {
        return std::nullopt;
    }
    return version;
}

LibpfmInfo libpfm_info() {
    libpfm::ensure_initialized();
    LibpfmInfo info;
    Dl_info where{};
    if (::dladdr(reinterpret_cast<void*>(&pfm_initialize), &where) != 0 && where.dli_fname) {
        std::error_code ec;
        const auto real = std::filesystem::canonical(where.dli_fname, ec);
        if (auto v = libpfm_version_from_path(ec ? where.dli_fname : real.string()))
            info.version = *v;
    }
    if (info.version.empty()) {
        const int api = pfm_get_version();
        info.version = fmt::format("{}.{}.x (only the API version is known)", PFM_MAJ_VERSION(api),
                                   PFM_MIN_VERSION(api));
    }
    for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; ++p) {
        pfm_pmu_info_t pmu;
        std::memset(&pmu, 0, sizeof pmu);
        pmu.size = sizeof pmu;
        if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(p), &pmu) != PFM_SUCCESS || !pmu.is_present)
            continue;
        info.present_pmus.emplace_back(pmu.name);
        if (pmu.type == PFM_PMU_TYPE_CORE)
            info.cpu_pmus.emplace_back(pmu.name);
    }
    return info;
}

}  // namespace perfgauge::pmu
