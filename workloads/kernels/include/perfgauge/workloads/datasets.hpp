// Seeded, reproducible varint data sets. The random mapping is written out here (mt19937_64 and
// Lemire's multiply-shift range reduction) rather than taken from std::uniform_int_distribution,
// whose output differs between standard libraries: the same seed gives the same bytes anywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string_view>
#include <vector>

#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::workloads {

enum class Distribution { fixed1, fixed2, fixed3, fixed4, fixed5, uniform, log_uniform };

/// "fixed1".."fixed5", "uniform", "log-uniform".
std::string_view distribution_name(Distribution d);
std::optional<Distribution> parse_distribution(std::string_view name);
std::span<const Distribution> all_distributions();

/// Draws values: fixedN uniformly among the values that encode in exactly N bytes; uniform over
/// all of u32; log-uniform picks a bit width 0..32 uniformly, then a value of that width (small
/// values dominate, lengths are unpredictable: mean 2.76 bytes).
class ValueGenerator {
  public:
    ValueGenerator(Distribution d, std::uint64_t seed);
    std::uint32_t next();

  private:
    std::uint64_t below(std::uint64_t bound);  // uniform in [0, bound)
    Distribution dist_;
    std::mt19937_64 engine_;  // its output sequence is fixed by the standard
};

/// Varints end on end in a padded buffer.
struct VarintArena {
    PaddedBytes bytes;
    std::size_t count = 0;  ///< varints in bytes
    double mean_size() const {
        return count ? static_cast<double>(bytes.size()) / static_cast<double>(count) : 0.0;
    }
};

/// At least `min_bytes` of varints drawn from `d` with `seed` (whole varints only).
VarintArena make_varint_arena(Distribution d, std::size_t min_bytes, std::uint64_t seed);

/// At least `min_bytes` of varints: make_varint_arena(d, period_bytes, seed)'s varints (all of
/// them when min_bytes is smaller), then the same bytes again, whole, until min_bytes is
/// reached. For the simulation: its decoders parse stretches far shorter than the period, and
/// what it copies with memcpy counts the same whatever the bytes; drawing each varint under
/// valgrind is what costs (288 MB: 6 s of a 20 s simulation).
VarintArena repeated_varint_arena(Distribution d, std::size_t min_bytes, std::uint64_t seed,
                                  std::size_t period_bytes);

/// What make_varint_arena(d, min_bytes, seed) holds, without holding it: the same values drawn
/// one at a time and only their lengths added up (no memory; the generator's time).
struct VarintArenaExtent {
    std::size_t bytes = 0;      ///< the arena's bytes.size()
    std::size_t count = 0;      ///< its varints
    double mean_size() const {  // as VarintArena::mean_size
        return count ? static_cast<double>(bytes) / static_cast<double>(count) : 0.0;
    }
};
VarintArenaExtent varint_arena_extent(Distribution d, std::size_t min_bytes, std::uint64_t seed);

/// Bytes taken by the `n` well-formed varints starting at p (counts terminating bytes);
/// nullopt when [p, end) holds fewer.
std::optional<std::size_t> span_of_varints(const std::uint8_t* p, const std::uint8_t* end,
                                           std::size_t n);

/// The first varint boundary at or after `offset` in a well-formed stream (a byte whose
/// predecessor has its high bit clear, or offset 0).
std::size_t next_varint_boundary(const VarintArena& arena, std::size_t offset);

}  // namespace perfgauge::workloads
