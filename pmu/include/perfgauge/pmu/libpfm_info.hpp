// Which libpfm4 this process uses and what it knows about this CPU, for `doctor`.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace perfgauge::pmu {

struct LibpfmInfo {
    /// "4.13.0", from the loaded library's file name (libpfm.so.4.13.0): pfm_get_version()
    /// returns only the API version (4.0) in every 4.x release. Empty when unknown.
    std::string version;
    /// Model-specific core PMUs libpfm4 detected for this CPU ("amd64_fam19h_zen3"); empty
    /// when it does not know the CPU and offers only its generic PMUs.
    std::vector<std::string> cpu_pmus;
    /// Every PMU libpfm4 reports present ("perf", "perf_raw", "amd64_fam19h_zen3", ...).
    std::vector<std::string> present_pmus;
};

LibpfmInfo libpfm_info();

/// Pure: "4.13.0" from a path ending in "libpfm.so.4.13.0"; nullopt when the name carries no
/// full version (libpfm.so.4, a static build).
std::optional<std::string> libpfm_version_from_path(const std::string& path);

}  // namespace perfgauge::pmu
