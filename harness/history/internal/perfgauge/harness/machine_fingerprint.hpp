// Which machine measured a result, and which machines' results may be compared: the facts a
// result file records about its machine and build, split into those that make two machines
// one comparable class (same CPU, caches, threads, compiler and flags) and those that only
// identify the machine (host, kernel, governor, boost, clock source). Pure: reads the result,
// never this machine.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

struct MachineFingerprint {
    /// Facts in a fixed order, name and value ("cpu.vendor", "GenuineIntel"); unknown ones
    /// (not in the file, e.g. of a Google Benchmark result) are left out.
    std::vector<std::pair<std::string, std::string>> class_facts, machine_facts;
    std::string class_id;    ///< 16 hex digits: a hash of class_facts
    std::string machine_id;  ///< 16 hex digits: a hash of both
    std::string summary;     ///< "Intel Xeon ... (2 threads), GNU 12.2.0"
};

/// The class is the CPU (vendor, model, stepping, microcode, cores, threads, SMT, hypervisor,
/// mitigations, caches) and the build (compiler, flags). A result without CPU facts (Google
/// Benchmark, perfgauge stat) is classed by its machine instead: `machine_label` (the run's
/// `machine` label) when given, else the host the file names.
MachineFingerprint fingerprint_of(const RunResult& result, const std::string& machine_label = {});

/// Why `result` cannot be filed under a machine (no CPU facts, no host, no label: it would join
/// every other unknown machine's series), or empty when it can.
std::string unidentified_machine(const RunResult& result, const std::string& machine_label);

/// 64-bit FNV-1a of `text`, as 16 lowercase hex digits: stable across builds and machines.
std::string stable_hash(const std::string& text);

}  // namespace perfgauge::harness
