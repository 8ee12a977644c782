// What a SuiteSpec comes to before any data exists: the decoders that run here and the notes
// on what is left out (suite_plan), the arena's size, and the benchmarks' keys per distribution
// in build_suite's order. build_suite and enumerate share it, so they cannot disagree.
// Internal to the suite.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/benchmark_key.hpp"
#include "perfgauge/workloads/suite.hpp"
#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::workloads {

template <class T>
bool selected(const std::vector<T>& list, const T& e) {
    return std::find(list.begin(), list.end(), e) != list.end();
}

inline constexpr const char* kOneShotNeverCold =
    "one-shot decodes one varint again and again, so it is never cold";

/// Cold data placed in windows over 2x the last-level cache (not evicted before each iteration).
bool cold_rotates(const SuiteSpec& spec);

struct SuitePlan {
    std::vector<const VarintVariant*> variants;  ///< those selected that run here
    std::vector<std::string> notes;  ///< variants skipped, CPU caveats, what cold cannot be
    bool memcpy = false;
    bool one_shot = false;    ///< one-shot varint benchmarks
    bool end_on_end = false;  ///< end-on-end varint benchmarks (when there are variants)
    bool sized = false;       ///< working sets: end-on-end varints or memcpy
};

/// The plan for `spec` on `cpu`; SuiteError for an unknown workload or variant, or nothing to
/// run on this CPU.
SuitePlan plan_suite(const SuiteSpec& spec, const harness::CpuInfo& cpu);

/// The bytes of varints each distribution's arena holds (at least).
std::uint64_t arena_bytes(const SuiteSpec& spec, const SuitePlan& plan);

/// The facts of a distribution's arena that names depend on.
struct ArenaFacts {
    double mean_size = 0;            ///< bytes per varint: the sweep's one-item point
    std::uint64_t first_length = 0;  ///< the first varint's: one-shot decodes it
};

/// The working-set sizes the sized benchmarks run at (the sweep's from one item of the arena).
std::vector<std::uint64_t> sizes_for(const SuiteSpec& spec, double mean_size);

/// The benchmarks of one distribution, in build_suite's order: one-shot (per cache state but
/// cold, per variant), then per cache state and size the end-on-end variants and memcpy.
std::vector<BenchmarkKey> distribution_keys(const SuiteSpec& spec, const SuitePlan& plan,
                                            Distribution dist, const ArenaFacts& facts);

}  // namespace perfgauge::workloads
