// What makes one built-in benchmark: the selection's words (shape, cache state) and a
// benchmark's key (workload, variant, distribution, shape, cache state, working-set size), from
// which its name and its identifying params follow. Plain data: enumerate lists keys without
// the data, build_suite builds a benchmark for each, and a measuring child is handed one key's
// selection.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgauge/workloads/datasets.hpp"

namespace perfgauge::workloads {

/// one-shot: the same varint decoded again and again (its address hidden from the compiler);
/// end-on-end: a buffer parsed in sequence, each start depending on the previous length.
enum class Shape { one_shot, end_on_end };
/// hot: the same buffer every iteration; cold: rotate over buffers totalling >= 2x the last-
/// level cache in shuffled order, at least a cache line apart (or, without a usable last-level
/// size, evict the buffer as SuiteSpec::cold says, paused as flush is); flush: clflush the buffer
/// before every iteration with the timer and counters paused (the calibrated pause cost is
/// subtracted).
enum class CacheState { hot, cold, flush };

std::string_view shape_name(Shape s);
std::optional<Shape> parse_shape(std::string_view name);
std::string_view cache_state_name(CacheState c);
std::optional<CacheState> parse_cache_state(std::string_view name);

using BenchmarkParams = std::vector<std::pair<std::string, std::string>>;

/// One benchmark of a suite, as selected.
struct BenchmarkKey {
    std::string workload;  ///< "varint" or "memcpy"
    std::string variant;   ///< the decoder's name; "memcpy" for memcpy
    Distribution dist = Distribution::log_uniform;
    std::optional<Shape> shape;  ///< nullopt for memcpy (its params say "-")
    CacheState cache = CacheState::hot;
    std::uint64_t size_bytes = 0;  ///< the working set; one-shot: the varint's own length
    friend bool operator==(const BenchmarkKey&, const BenchmarkKey&) = default;
};

/// varint/<variant>/<dist>/<shape>/<cache>/<size>, memcpy/<dist>/<cache>/<size>: size labelled
/// like 256K (one-shot: the varint's length, like 3B).
std::string benchmark_name(const BenchmarkKey& key);

/// The key as params, in this order: workload, variant, dist, shape, cache, size_bytes.
BenchmarkParams key_params(const BenchmarkKey& key);

/// The key that key_params wrote (std::logic_error when one is missing or unreadable: the
/// params of a built-in benchmark always hold them).
BenchmarkKey key_from_params(const BenchmarkParams& params);

}  // namespace perfgauge::workloads
