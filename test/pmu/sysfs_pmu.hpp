// Whether sysfs lists a core PMU, judged apart from pmu_environment.cpp's detection.
#pragma once

#include <filesystem>

namespace perfgauge::test {

inline bool sysfs_lists_core_pmu() {
    namespace fs = std::filesystem;
    const fs::path devices = "/sys/bus/event_source/devices";
#if defined(__aarch64__)
    // The arm_pmu driver names its PMUs after the core: armv8_pmuv3_0, armv8_cortex_a72, ...
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(devices, ec)) {
        const auto name = entry.path().filename().string();
        if (name.rfind("armv8", 0) == 0 || name.rfind("armv9", 0) == 0 ||
            name.rfind("apple_", 0) == 0)
            return true;
    }
    return false;
#else
    return fs::exists(devices / "cpu") || fs::exists(devices / "cpu_core");
#endif
}

}  // namespace perfgauge::test
