// Why perf_event_open failed, in words a user can act on. All errno handling lives here.
#pragma once

#include <linux/perf_event.h>

#include <string>

#include "perfgauge/pmu/event_spec.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"
#include "perfgauge/pmu/tool_hint.hpp"

namespace perfgauge::pmu {

struct OpenDiagnosis {
    std::string status;  ///< short, like perf stat: "not supported", "permission denied", ...
    std::string reason;  ///< why, for this event on this machine
    std::string fix;     ///< what to do about it (may be empty); never names a command
    ToolHint hint = ToolHint::none;  ///< a further remedy that takes the program's own tools
};

/// Pure: maps an errno from perf_event_open for an event of `kind` to a diagnosis, given what
/// is known about the machine.
OpenDiagnosis diagnose_open_error(int error, EventKind kind, const perf_event_attr& attr,
                                  const PmuEnvironment& env);

/// The perf_event_attr fields that matter, one per line ("type 0 (hardware)", ...), for --verbose.
std::string dump_attr(const perf_event_attr& attr);

}  // namespace perfgauge::pmu
