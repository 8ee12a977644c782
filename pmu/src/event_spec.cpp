#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::pmu {

std::string_view kind_name(EventKind kind) {
    switch (kind) {
        case EventKind::hardware:
            return "hardware";
        case EventKind::hw_cache:
            return "hw-cache";
        case EventKind::software:
            return "software";
        case EventKind::raw:
            return "raw";
        case EventKind::pmu:
            return "pmu";
        case EventKind::tracepoint:
            return "tracepoint";
    }
    return "unknown";
}

bool needs_hardware_pmu(EventKind kind) {
    return kind != EventKind::software && kind != EventKind::tracepoint;
}

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
