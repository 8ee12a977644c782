// The core PMUs of a CPU, and hybrid CPUs: Intel's cpu_core + cpu_atom, Arm's big.LITTLE (one
// armv8_* PMU per core type). An event counts only on the cores of the PMU it was opened on, so
// on a hybrid CPU a hardware event is opened once per core PMU the task can run on and counted
// per core type ("cpu_core/instructions:u/", "cpu_atom/instructions:u/"), as perf stat does.
// Pure functions over a sysfs tree given as a root directory (tests give fake ones) and a CPU
// set, so what no machine here has (no hybrid CPU) is tested all the same.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/pmu/event_spec.hpp"

namespace perfgauge::pmu {

/// How an architecture's kernel names its core PMUs.
enum class CorePmuNaming {
    x86,  ///< "cpu", or "cpu_core" and "cpu_atom" on hybrid Intel
    arm,  ///< every PMU that lists "cpus" (uncore PMUs list "cpumask" instead)
};
/// This build's architecture's naming.
CorePmuNaming native_core_pmu_naming();

struct CorePmu {
    std::string name;                   ///< "cpu_core", "armv8_cortex_a53", ...
    std::optional<std::uint32_t> type;  ///< its `type` file: perf_event_attr.type for it
    /// The CPUs it counts on, from its `cpus` file; empty with cpus_listed false when it has
    /// none (x86's "cpu" on a CPU that is not hybrid: every CPU).
    std::vector<int> cpus;
    bool cpus_listed = false;
};

/// "0-3,8,10-11" -> {0,1,2,3,8,10,11}; nullopt for text that is not a CPU list.
std::optional<std::vector<int>> parse_cpu_list(std::string_view text);

/// The core PMUs under `devices` (/sys/bus/event_source/devices), sorted by name.
std::vector<CorePmu> read_core_pmus(const std::filesystem::path& devices, CorePmuNaming naming);

/// Of `pmus`, those whose CPUs meet `allowed` (the task's affinity); a PMU that lists no CPUs
/// counts on all of them.
std::vector<CorePmu> core_pmus_for_cpus(const std::vector<CorePmu>& pmus,
                                        const std::vector<int>& allowed);

/// The CPUs this process may run on (sched_getaffinity); empty if unknown.
std::vector<int> task_cpus();

/// More than one core PMU among `pmus`, each with a type: events must be opened on each.
bool is_hybrid(const std::vector<CorePmu>& pmus);

/// `spec` opened on core PMU `pmu`: generic hardware and cache events carry the PMU's type in
/// config's upper 32 bits (the kernel's extended type, PERF_PMU_TYPE_SHIFT), raw events take it
/// as their type; named "<pmu>/<name>/". Other events are returned unchanged.
EventSpec on_core_pmu(const EventSpec& spec, const CorePmu& pmu);

/// Whether `spec` counts on a core PMU: it is to be opened on each of a hybrid CPU's.
bool counts_on_core_pmu(const EventSpec& spec);

/// Every group with its core-PMU events opened on each of `pmus` when they are hybrid (else
/// unchanged): a written group {a,b} becomes one group per PMU (events of two PMUs cannot be
/// scheduled together); a bare event becomes one per PMU, in PMU order, beside it.
std::vector<GroupSpec> per_core_pmu(const std::vector<GroupSpec>& groups,
                                    const std::vector<CorePmu>& pmus);

/// "cpu_core (CPUs 0-15), cpu_atom (CPUs 16-23)": the PMUs and the CPUs each counts on.
std::string describe_core_pmus(const std::vector<CorePmu>& pmus);

}  // namespace perfgauge::pmu
