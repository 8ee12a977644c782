// What initialize() decided, shared by the per-item counters and the benchmark run.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gbench_flags.hpp"
#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::gbench {

/// A counted run of the simulation child (inside valgrind), waiting for its benchmark's name:
/// Google Benchmark tells it to the reporter once the benchmark's runs are over.
struct PendingDump {
    std::string trigger;      ///< the dump's reason ("perfgauge-gbench:3:1": run 3, thread 1)
    std::uint64_t items = 0;  ///< of that thread
    std::uint64_t run = 0;    ///< runs of one benchmark: the last one is the counted one
};

struct AdapterState {
    GbenchFlags flags;
    std::vector<std::string> user_args;         ///< argv[1..] without perfgauge's flags
    std::vector<pmu::GroupSpec> native_groups;  ///< counted by perf, per thread
    std::vector<std::string> simulated_events;  ///< counted by callgrind (as written)
    std::optional<std::string> valgrind;        ///< when simulated_events is not empty
    bool said_unoptimized = false;              ///< the context line is added once
    std::vector<PendingDump> pending;           ///< simulation child only
    std::uint64_t next_dump = 0;                ///< simulation child only
    /// Simulation child: the threads of the current run that started and finished counting,
    /// and the items they processed.
    std::mutex run_mutex;
    int run_started = 0, run_finished = 0;
    std::uint64_t run_items = 0;
    /// Parent: benchmark run name -> per-item simulated counts, in simulated_events order.
    std::map<std::string, std::vector<double>> simulated;
};

AdapterState& adapter_state();

bool is_simulation_child();

}  // namespace perfgauge::gbench
