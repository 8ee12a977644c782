// Turns a selection (workloads, variants, distributions, shapes, cache states, sizes) into
// runner benchmarks with their data placed in memory, after checking every selected variant
// against the reference decoder on that very data.
//
// Benchmark names: varint/<variant>/<dist>/<shape>/<cache>/<size>, memcpy/<dist>/<cache>/<size>
// (size = working set in bytes, labelled like 256K; one-shot uses the varint's own length).
// Each benchmark also carries the same facts as params (workload, variant, dist, shape, cache,
// size_bytes, items, bytes_per_item, windows) so results can be matched on everything but one.
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
#include "perfgauge/workloads/cache_sweep.hpp"
#include "perfgauge/workloads/datasets.hpp"

namespace perfgauge::workloads {

/// one-shot: the same varint decoded again and again (its address hidden from the compiler);
/// end-on-end: a buffer parsed in sequence, each start depending on the previous length.
enum class Shape { one_shot, end_on_end };
/// hot: the same buffer every iteration; cold: rotate over buffers totalling >= 2x the last-
/// level cache in shuffled order, at least a cache line apart; flush: clflush the buffer before
/// every iteration with the timer and counters paused (the calibrated pause cost is subtracted).
enum class CacheState { hot, cold, flush };

std::string_view shape_name(Shape s);
std::optional<Shape> parse_shape(std::string_view name);
std::string_view cache_state_name(CacheState c);
std::optional<CacheState> parse_cache_state(std::string_view name);

struct SuiteSpec {
    std::vector<std::string> workloads = {"varint", "memcpy"};
    std::vector<std::string> variants = {"branchy", "bmi2"};
    std::vector<Distribution> distributions = {Distribution::log_uniform};
    std::vector<Shape> shapes = {Shape::end_on_end};
    std::vector<CacheState> caches = {CacheState::hot, CacheState::cold};
    std::vector<std::uint64_t> sizes;  ///< working sets in bytes; empty: sweep_sizes()
    CacheSizes cache_sizes;
    std::uint64_t data_seed = 1;
    /// Counters are simulated under valgrind for this run: variants valgrind cannot run are
    /// skipped (with the reason), so every benchmark has every counter.
    bool simulated = false;
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

/// Generates the data, checks every variant against the reference on it (SuiteError if one
/// disagrees), and builds the benchmarks. Variants this CPU cannot run (or valgrind, when
/// spec.simulated) are skipped with a note.
Suite build_suite(const SuiteSpec& spec, const harness::CpuInfo& cpu);

}  // namespace perfgauge::workloads
