// A resolved event: what perf_event_open needs, plus where the name came from.
#pragma once

#include <linux/perf_event.h>

#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/pmu/event_kind.hpp"

namespace perfgauge::pmu {

struct EventSpec {
    std::string name;      ///< as the user wrote it, modifiers included ("task-clock:u")
    std::string encoding;  ///< fully qualified form (libpfm4's string, or the tracefs path)
    std::string pmu;       ///< libpfm4 PMU name ("perf", "amd64_fam19h_zen3") or "tracepoint"
    EventKind kind = EventKind::software;
    /// type, config, config1, config2 and the exclude_* bits; counting options
    /// (read_format, disabled, inherit, ...) are the counter group's business.
    perf_event_attr attr{};
};

struct GroupSpec {
    std::vector<EventSpec> events;
    bool explicit_group = false;  ///< written as {...}: must be scheduled together or fail
};

/// "user", "kernel", "user+kernel" (or "none") from the attr's exclude bits.
std::string privilege_text(const perf_event_attr& attr);

}  // namespace perfgauge::pmu
