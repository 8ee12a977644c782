// Simulated counts: callgrind's output files, and which perf events they can stand in for.
//
// Pure functions over text, so the mapping is unit-tested without running valgrind.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace perfgauge::pmu {

/// The simulation could not be run or its output could not be read.
class SimulationError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One dump of callgrind's counters (one output file, or one part of it).
struct CallgrindDump {
    std::string creator;              ///< "callgrind-3.19.0"
    std::string trigger;              ///< "Client Request: perfgauge:3", "Program termination", ...
    std::vector<std::string> events;  ///< the "events:" line: Ir Dr Dw I1mr D1mr ... Bc Bcm Bi Bim
    std::vector<std::uint64_t> totals;  ///< the "summary:" line, one per event
    std::uint64_t pid = 0;              ///< the "pid:" line (0 when absent)
    std::uint64_t part = 0;  ///< the "part:" line: the dump's place in its process (1, 2, ...)

    bool has(std::string_view event) const;
    /// The total of one callgrind event; throws SimulationError when it was not recorded.
    std::uint64_t count(std::string_view event) const;
};

/// Parses the header and the "summary:" (or, lacking it, "totals:") line of a callgrind output
/// file; cost lines are skipped. Trailing zeros that callgrind leaves out count as 0. Throws
/// SimulationError when the text is not callgrind output or has no totals.
CallgrindDump parse_callgrind_dump(std::string_view text);

/// A perf event name perfgauge can take from callgrind's simulation, as a sum of its events.
struct SimulatedEvent {
    std::string_view name;                           ///< "branch-misses"
    std::vector<std::string_view> callgrind_events;  ///< {"Bcm", "Bim"}
    std::string_view meaning;                        ///< one line for --help and notes
};

/// Every simulated event: instructions, branches, branch-misses, L1 data and LL cache
/// accesses and misses. `L1-dcache-misses` and `LLC-misses` (loads plus stores) exist only
/// here: perf has no single generic event for them.
const std::vector<SimulatedEvent>& simulated_events();
/// The event of that name (modifiers already removed), or nullptr.
const SimulatedEvent* find_simulated_event(std::string_view name);
/// The event's count in a dump (the sum of its callgrind events).
std::uint64_t simulated_count(const SimulatedEvent& event, const CallgrindDump& dump);
/// Why `name` cannot be simulated, naming what can.
std::string not_simulated_reason(std::string_view name);

}  // namespace perfgauge::pmu
