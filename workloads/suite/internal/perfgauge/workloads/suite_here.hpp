// A suite on this machine: the caches its sweep and cold placement use (sysfs, the user's
// sizes, else CPUID or a measured last level), how cold data is made cold here, and whether
// its data fits in the memory available.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "perfgauge/workloads/cache_sweep.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::workloads {

/// The cache sizes the user gave (--l1d, --l2, --l3); nullopt: not given.
struct GivenCaches {
    std::optional<std::uint64_t> l1d;
    std::optional<std::uint64_t> l2;
    std::optional<std::uint64_t> l3;
};

/// Sets spec.cache_sizes, cache_sizes_given, machine_caches and cold for this machine, from the
/// caches sysfs reports (`detected`) and those given. Without a given l3, a last level sysfs
/// lacks or that no CPU has is measured (harness::find_last_level_cache; not under valgrind,
/// where the kept answer is read, or none); returns how it was found then, else nullopt.
std::optional<std::string> fit_caches_here(SuiteSpec& spec, const CacheSizes& detected,
                                           const GivenCaches& given);

/// Why the suite's data would not fit in `available` bytes of memory (at most 90% of them:
/// harness::fits_in_memory): its largest working set, the bytes needed and the bytes available,
/// and what to give instead. "" when it fits or `available` is unknown (the allocation decides).
std::string memory_refusal(const SuiteSpec& spec, std::optional<std::uint64_t> available);

}  // namespace perfgauge::workloads
