// Turns a selection (workloads, variants, distributions, shapes, cache states, sizes) into
// runner benchmarks with their data placed in memory, after checking every selected variant
// against the reference decoder on that very data; or lists them without their data.
//
// Benchmark names: varint/<variant>/<dist>/<shape>/<cache>/<size>, memcpy/<dist>/<cache>/<size>
// (benchmark_key.hpp). Each benchmark also carries the same facts as params (its key's workload,
// variant, dist, shape, cache, size_bytes, then items, bytes_per_item, windows) so results can be
// matched on everything but one.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgauge/harness/benchmark.hpp"
#include "perfgauge/harness/system_facts.hpp"
#include "perfgauge/workloads/benchmark_key.hpp"
#include "perfgauge/workloads/cache_sweep.hpp"
#include "perfgauge/workloads/cold_preparation.hpp"
#include "perfgauge/workloads/datasets.hpp"

namespace perfgauge::workloads {

struct SuiteSpec {
    std::vector<std::string> workloads = {"varint", "memcpy"};
    std::vector<std::string> variants = {"branchy", "bmi2"};
    std::vector<Distribution> distributions = {Distribution::log_uniform};
    std::vector<Shape> shapes = {Shape::end_on_end};
    std::vector<CacheState> caches = {CacheState::hot, CacheState::cold};
    std::vector<std::uint64_t> sizes;  ///< working sets in bytes; empty: sweep_sizes()
    CacheSizes cache_sizes;            ///< the sizes the sweep and cold placement use
    /// The caches the machine has, as best known (sysfs, else CPUID); 0 where unknown. Cold is
    /// only cold when its rotation outgrows these, whatever cache_sizes says.
    CacheSizes machine_caches;
    /// cache_sizes were given by the user (--l1d/--l2/--l3), not detected.
    bool cache_sizes_given = false;
    /// How cold data is made cold: rotation over 2x the last-level cache, or (no usable
    /// last-level size) evicted before every iteration (choose_cold_preparation).
    ColdPreparation cold;
    std::uint64_t data_seed = 1;
    /// Counters are simulated under valgrind for this run: variants valgrind cannot run are
    /// skipped (with the reason), so every benchmark has every counter.
    bool simulated = false;
    /// Check every variant against the reference decoder on the data before building the
    /// benchmarks. The simulation child (same data seed, so the same bytes) leaves it to its
    /// parent, which checked before measuring: under valgrind it would decode the whole arena
    /// once more per variant, at valgrind's speed.
    bool check_decoders = true;
    /// Simulation only (0: off): an end-on-end varint iteration of more than this many items
    /// decodes just the first this-many of its window, since per-item counts have converged
    /// long before a 64M working set ends (README: the convergence table). bytes_per_iteration
    /// stays the whole window's: it is the working set whose cache behaviour the prefix stands
    /// for (the simulation warms up only what fits in the last-level cache). memcpy always
    /// copies whole windows: glibc takes another path for shorter copies.
    std::uint64_t max_items_per_iteration = 0;
};

/// A selection that cannot be run (unknown names, nothing left to run).
class SuiteError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Suite {
    std::vector<harness::Benchmark> benchmarks;
    std::vector<std::string> notes;  ///< skipped variants and combinations, CPU caveats
    std::vector<std::pair<std::string, std::string>> context;  ///< recorded with the result
};

/// Why `spec` cannot mean what it says, checked before anything is allocated; "" when it can.
/// One-shot varints with cold as the only cache state: one varint decoded again and again stays
/// in L1, so it is never cold. Cold with a given last-level cache so small that the rotation over
/// 2x it fits in the machine's L1d: cold would run hot under the label cold. (A given cache
/// above that but below the machine's last level, or none known, is noted by build_suite
/// instead: cold is then cold for the cache given, and for the simulated one, only partly for
/// the machine.)
std::string selection_refusal(const SuiteSpec& spec);

/// The bytes build_suite allocates for `spec`, all held while the suite runs: per distribution
/// the varint arena (cold: every window) and memcpy's destination per cache state and size.
/// Saturates at UINT64_MAX.
std::uint64_t suite_bytes_needed(const SuiteSpec& spec);

/// The working-set sizes `spec` runs (its own, or the sweep), largest form (one-item point: 1).
std::vector<std::uint64_t> suite_sizes(const SuiteSpec& spec);

/// Generates the data, checks every variant against the reference on it (SuiteError if one
/// disagrees), and builds the benchmarks. Variants this CPU cannot run (or valgrind, when
/// spec.simulated) are skipped with a note.
Suite build_suite(const SuiteSpec& spec, const harness::CpuInfo& cpu);

/// One benchmark build_suite would build: its name and its key's params (not the measured
/// ones: items, bytes_per_item and windows follow from the data).
struct ListedBenchmark {
    std::string name;
    BenchmarkParams params;
    BenchmarkKey key;
};

struct SuiteListing {
    std::vector<ListedBenchmark> benchmarks;
    std::vector<std::string> notes;  ///< build_suite's, word for word
};

/// The benchmarks build_suite(spec, cpu) builds, in its order and under its names, with its
/// notes and its SuiteErrors, without allocating their data: the few facts of the data a name
/// depends on (the first varint's length, the sweep's one-item point) are drawn from the same
/// seeded generator, one value at a time. No decoder is checked.
SuiteListing enumerate(const SuiteSpec& spec, const harness::CpuInfo& cpu);

/// The verdicts a run of `benchmarks` answers (perfgauge run's answer): per distribution, cache
/// state and size, every end-on-end decoder against the baseline (branchy where it is among
/// them, else the first decoder), memcpy at the same point riding along. Sizes with one decoder
/// form no group.
std::vector<harness::VerdictGroup> verdict_groups(
    const std::vector<harness::Benchmark>& benchmarks);

}  // namespace perfgauge::workloads
