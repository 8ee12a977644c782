// `perfgauge doctor`: can this machine count, and what makes its numbers unreliable?
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/access_probe.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/libpfm_info.hpp"
#include "perfgauge/pmu/pmu_environment.hpp"
#include "perfgauge/pmu/tool_hint.hpp"

namespace perfgauge::harness {

enum class CheckLevel { ok, info, warn, fail };

struct DoctorCheck {
    CheckLevel level = CheckLevel::info;
    std::string topic;    ///< "hardware PMU", "perf_event_paranoid", ...
    std::string finding;  ///< what was found, and why when it is a problem
    std::string fix;      ///< one line to act on; empty when there is nothing to do
    pmu::ToolHint hint = pmu::ToolHint::none;  ///< a remedy in the program's own words, too
};

/// Whether the simulated backend can run here.
struct SimulationFacts {
    std::optional<std::string> incompatibility;  ///< pmu::valgrind_incompatibility()
    pmu::ValgrindLookup valgrind;
    std::optional<std::string> version;  ///< `valgrind --version` ("valgrind-3.19.0")
};

/// What was found by trying things on this machine (errno values: 0 means it opened).
struct DoctorProbes {
    int hardware_error = 0;  ///< opening `cycles`
    int software_error = 0;  ///< opening `task-clock`
    bool tracefs_mounted = false;
    pmu::AccessProbes access;  ///< what perf_event_open allows this process
    /// Unset: not probed, and not reported (a run's reliability warnings leave them out: they
    /// decide which events resolve, not how reliable a time is).
    std::optional<pmu::LibpfmInfo> libpfm;
    std::optional<SimulationFacts> simulation;
};

/// Pure: the perf_event_paranoid check from what opened for this process, not from the level
/// alone (upstream kernels treat 3 and 4 like 2; only patched kernels refuse at 3).
DoctorCheck paranoid_check(std::optional<int> level, bool privileged,
                           const pmu::AccessProbes& tried);

/// Pure: libpfm4's version and whether it knows this CPU; when not, the names that still work
/// and which libpfm4 adds the CPU.
DoctorCheck libpfm_check(const pmu::LibpfmInfo& libpfm, const CpuInfo& cpu);

/// Pure: whether `--backend sim` can run (valgrind found, its version), or why not.
DoctorCheck simulation_check(const SimulationFacts& facts);

/// At or above this share of a spin lost in gaps, doctor warns (and so does every run).
inline constexpr double kCpuGapsWarnShare = 0.01;

/// Pure: what gaps in a spinning thread's time mean for samples (cpu_gaps.hpp).
DoctorCheck cpu_gaps_check(const CpuGaps& gaps);

/// Pure: turns what was detected into the checks doctor prints.
std::vector<DoctorCheck> build_doctor_report(const pmu::PmuEnvironment& env,
                                             const SystemInfo& system, const DoctorProbes& probes);

/// "[ OK ]", "[INFO]", "[WARN]", "[FAIL]".
std::string check_label(CheckLevel level);

/// Pure: a check's finding said in at most `width` characters, for `doctor --brief`: its first
/// clause (the text before the first ": ", "; " or " (", where the details begin), or, when
/// that is still too long, its words up to the last that fits, followed by "...". A finding
/// that fits whole is returned whole.
std::string finding_headline(const std::string& finding, std::size_t width);

}  // namespace perfgauge::harness
