#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::pmu {

std::string privilege_text(const perf_event_attr& attr) {
    const bool user = attr.exclude_user == 0;
    const bool kernel = attr.exclude_kernel == 0;
    if (user && kernel)
        return "user+kernel";
    if (user)
        return "user";
    if (kernel)
        return "kernel";
    return "none";
}

}  // namespace perfgauge::pmu
