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

MachineFingerprint fingerprint_of(const RunResult& result);

/// 64-bit FNV-1a of `text`, as 16 lowercase hex digits: stable across builds and machines.
std::string stable_hash(const std::string& text);

}  // namespace perfgauge::harness
