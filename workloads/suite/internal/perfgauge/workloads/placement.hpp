// Where each working set of the sweep lives in the data arena (hot and flush: one window; cold:
// many, together larger than the last-level cache, visited in shuffled order), and evicting a
// window's lines; working sets in memory cut into consecutive slices. Internal to the suite
// builder (and its tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "perfgauge/workloads/cache_sweep.hpp"
#include "perfgauge/workloads/datasets.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::workloads {

// Every x86-64 CPU and most arm64 ones (a 128-byte line is flushed twice); clflush and dc civac
// work on this granule.
inline constexpr std::size_t kCacheLine = 64;

struct Window {
    std::size_t offset = 0;
    std::size_t span = 0;  // bytes of the window's `items` varints
};

/// Where one working set lives in the arena: one window (hot, flush) or many (cold).
struct Placement {
    std::size_t items = 0;  // varints per iteration
    std::vector<Window> windows;
    double mean_span() const;
};

/// clflush every line of [p, p + bytes), then a fence: the flushes are complete on return.
void flush_lines(const std::uint8_t* p, std::size_t bytes);

/// The windows for `bytes` of varints in `cache` state; throws SuiteError when none fits.
/// `parsed_items` as for cold_windows_needed.
Placement place(const VarintArena& arena, std::uint64_t bytes, CacheState cache,
                const CacheSizes& caches, std::uint64_t seed, std::uint64_t parsed_items = 0);

/// A working set this many times the last-level cache or more is read from memory however it
/// is visited (each part is evicted by the rest before its turn comes again): its decoders'
/// samples take consecutive slices of it (slice_whole_pass) rather than whole passes.
inline constexpr std::uint64_t kSlicedFromLastLevels = 2;
/// The slices a working set that large is cut into: one sample decodes one or a few of them.
inline constexpr std::size_t kSlicesPerPass = 64;

/// Whether a working set of `bytes` is past kSlicedFromLastLevels x the larger of the two
/// last-level sizes (0 where unknown: never sliced when neither is known).
bool sliced_working_set(std::uint64_t bytes, const CacheSizes& used, const CacheSizes& machine);

/// `whole` (one window) cut into kSlicesPerPass consecutive windows of equal items, in order:
/// visited in turn they read the working set front to back, as one pass does, a slice per
/// iteration. The few items that do not divide evenly are left out. nullopt when `whole` is
/// not one window of at least kSlicesPerPass varints (nothing to slice).
std::optional<Placement> slice_whole_pass(const VarintArena& arena, const Placement& whole);

/// The slices of one working set in memory and the next one to decode.
struct SharedSlices {
    std::shared_ptr<const Placement> slices;
    std::shared_ptr<std::size_t> cursor;
};

/// One SharedSlices per whole window, so that every decoder over the same bytes, hot and cold,
/// takes the slice after the last one any of them took. With a cursor each they stepped
/// through the slices in lockstep, and all but the first of a round decoded a slice another
/// had just brought into the last-level cache.
class SliceTable {
  public:
    /// whole's slices and their cursor, made on first use; nullopt when nothing is sliced.
    std::optional<SharedSlices> slices_of(const VarintArena& arena, const Placement& whole);

  private:
    std::map<std::pair<std::size_t, std::size_t>, SharedSlices> by_window_;  // offset, items
};

/// How large the arena must be for every size of the sweep (cold: all windows); saturates at
/// UINT64_MAX, so that an absurd --sizes is refused by the memory check rather than wrapping.
std::uint64_t arena_bytes_needed(const std::vector<std::uint64_t>& sizes, bool cold,
                                 const CacheSizes& caches, std::uint64_t parsed_items = 0);

/// How many windows a cold working set of `bytes` rotates over (1: the same buffer every time).
std::size_t cold_window_count(const CacheSizes& caches, std::uint64_t bytes);

/// The simulation parses a benchmark at most twice (a warm-up and the counted batch), each time
/// at most SuiteSpec::max_items_per_iteration varints' worth of iterations.
inline constexpr std::uint64_t kSimulatedPasses = 2;

/// The simulation draws this much of its arena's varints and repeats them after
/// (repeated_varint_arena): every prefix it decodes (SuiteSpec::max_items_per_iteration
/// varints, a few hundred KB by default) is drawn data, and one that repeats data drawn 32 MiB
/// earlier is the same to callgrind, whose branch predictor holds nothing that old and whose
/// caches see other addresses.
inline constexpr std::size_t kSimulatedDrawnBytes = std::size_t{32} << 20;

/// The windows cold needs for `bytes`: cold_window_count's, or, when a benchmark parses at most
/// `parsed_items` varints per pass (the simulation; 0: no limit), no more than those passes
/// reach, each window visited once. Under valgrind this keeps the arena to megabytes: 2x the
/// last-level cache of data, generated at valgrind's speed, cost the simulation 15 s.
std::size_t cold_windows_needed(const CacheSizes& caches, std::uint64_t bytes,
                                std::uint64_t parsed_items);

/// a + b and a * b, saturating at UINT64_MAX.
std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b);
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b);

}  // namespace perfgauge::workloads
