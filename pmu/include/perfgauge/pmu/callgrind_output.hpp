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

/// The callgrind counts an estimated cycle count is made of (--cache-sim=yes --branch-sim=yes).
struct CallgrindCosts {
    std::uint64_t ir = 0, dr = 0, dw = 0;        ///< instruction fetches, data reads, writes
    std::uint64_t i1mr = 0, d1mr = 0, d1mw = 0;  ///< L1 misses
    std::uint64_t ilmr = 0, dlmr = 0, dlmw = 0;  ///< last-level misses
    std::uint64_t bcm = 0, bim = 0;              ///< mispredicted branches
};

/// Where the accesses were served: L1, the last level (missed L1), memory (missed the last level).
struct CacheHits {
    double l1 = 0, ll = 0, ram = 0;
};

/// Pure: the accesses split by the level that served them (iai-callgrind's L1hits, LLhits,
/// RamHits).
CacheHits cache_hits(const CallgrindCosts& c);

/// The weights of the estimate: gungraun (iai-callgrind)'s EstimatedCycles, after Itamar
/// Turner-Trauring ("consistent benchmarking in CI", pythonspeed.com), counts an L1 hit as 1
/// cycle, a last-level hit as 5 and a memory access as 35. perfgauge adds a mispredicted branch
/// at 15 cycles: valgrind's manual puts the cost "in the region of 10 to 30 cycles", and AMD
/// Zen 3-5 and recent Intel cores lose some 13-16 cycles refilling the pipeline.
inline constexpr double kEstLlHitCycles = 5;
inline constexpr double kEstRamCycles = 35;
inline constexpr double kEstBranchMissCycles = 15;

/// Pure: L1 hits + 5 * LL hits + 35 * memory accesses + 15 * (Bcm + Bim). An estimate for
/// comparing code under simulation, never a measured cycle count: it knows no pipelining,
/// prefetching, out-of-order overlap or port pressure.
double estimated_cycles(const CallgrindCosts& c);

/// The formula as text, for --help, notes and the JSON context.
std::string_view estimated_cycles_formula();

/// A perf event name perfgauge can take from callgrind's simulation, as a sum of its events
/// (or, for est-cycles, the estimate made from them).
struct SimulatedEvent {
    std::string_view name;                           ///< "branch-misses"
    std::vector<std::string_view> callgrind_events;  ///< {"Bcm", "Bim"}
    std::string_view meaning;                        ///< one line for --help and notes
    bool estimate = false;  ///< est-cycles: estimated_cycles() of the events, not their sum
};

/// Whether the event needs callgrind's cache simulation (--cache-sim=yes): every event but
/// instructions and branches (Ir, Bc, Bcm, Bi, Bim come from --branch-sim alone).
bool needs_cache_simulation(const SimulatedEvent& event);

/// Every simulated event: instructions, branches, branch-misses, L1 data and LL cache
/// accesses and misses. `L1-dcache-misses` and `LLC-misses` (loads plus stores) exist only
/// here: perf has no single generic event for them; nor does `est-cycles`, an estimate named
/// as one (`cycles` itself is never simulated).
const std::vector<SimulatedEvent>& simulated_events();
/// The event of that name (modifiers already removed), or nullptr.
const SimulatedEvent* find_simulated_event(std::string_view name);
/// The event's count in a dump (the sum of its callgrind events, or the estimate).
double simulated_count(const SimulatedEvent& event, const CallgrindDump& dump);
/// Why `name` cannot be simulated, naming what can.
std::string not_simulated_reason(std::string_view name);

}  // namespace perfgauge::pmu
