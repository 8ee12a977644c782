#include "extra_software_events.hpp"

#include <linux/perf_event.h>

#include <array>

#include "perfgauge/pmu/suggest.hpp"

namespace perfgauge::pmu {

namespace {

constexpr std::array<ExtraSoftwareEvent, 4> kEvents{{
    {"alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS,
     "unaligned accesses the kernel had to fix up (0 on x86, which handles them in hardware)"},
    {"emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS,
     "instructions the kernel emulated for the task"},
    {"dummy", PERF_COUNT_SW_DUMMY, "counts nothing: a placeholder event (always 0)"},
    {"bpf-output", PERF_COUNT_SW_BPF_OUTPUT,
     "records written by BPF programs with bpf_perf_event_output (counts nothing by itself)"},
}};

}  // namespace

std::span<const ExtraSoftwareEvent> extra_software_events() {
    return kEvents;
}

const ExtraSoftwareEvent* find_extra_software_event(std::string_view name) {
    const std::string lower = to_lower(name);
    for (const auto& e : kEvents) {
        if (e.name == lower)
            return &e;
    }
    return nullptr;
}

}  // namespace perfgauge::pmu
