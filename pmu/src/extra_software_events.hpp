// perf's software events that libpfm4 (4.13) does not name, private to pmu/.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace perfgauge::pmu {

struct ExtraSoftwareEvent {
    std::string_view name;  ///< as perf stat spells it
    std::uint64_t config;   ///< PERF_COUNT_SW_*
    std::string_view description;
};

/// alignment-faults, emulation-faults, dummy, bpf-output: perf stat accepts them, libpfm4's
/// perf PMU stops at cgroup-switches, so they are encoded here.
std::span<const ExtraSoftwareEvent> extra_software_events();

/// The entry spelled `name` (case-insensitively, as libpfm4 matches), or nullptr.
const ExtraSoftwareEvent* find_extra_software_event(std::string_view name);

}  // namespace perfgauge::pmu
