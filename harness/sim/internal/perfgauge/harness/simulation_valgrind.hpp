// What every simulating program (perfgauge run/stat, a Google Benchmark binary with
// perfgauge::gbench) asks before it simulates: which valgrind, and its own path to re-run.
#pragma once

#include <optional>
#include <string>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/own_executable.hpp"  // own_executable(), for re-running itself

namespace perfgauge::harness {

/// valgrind's path when `backend` may simulate with it (nullopt: do not simulate). The sim
/// backend insists: std::runtime_error, starting with `flag` ("--backend sim"), when valgrind is
/// missing or this build cannot run under it. Any backend but perf refuses a PERFGAUGE_VALGRIND
/// that names no usable program (std::runtime_error naming it).
std::optional<std::string> simulation_valgrind(Backend backend, const std::string& flag);

}  // namespace perfgauge::harness
