// Internal to the simulated backend: the simulated event behind an event name as written.
#pragma once

#include <string>

#include <fmt/format.h>

#include "perfgauge/pmu/callgrind_output.hpp"
#include "perfgauge/pmu/event_name.hpp"

namespace perfgauge::harness {

// The simulated event behind a name as written ("instructions:u" -> instructions).
inline const pmu::SimulatedEvent& simulated_event_of(const std::string& written) {
    const auto* event = pmu::find_simulated_event(std::string(pmu::without_modifiers(written)));
    if (event == nullptr)
        throw pmu::SimulationError(fmt::format("'{}' is not a simulated event", written));
    return *event;
}

}  // namespace perfgauge::harness
