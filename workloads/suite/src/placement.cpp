#include "perfgauge/workloads/placement.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include <fmt/format.h>

namespace perfgauge::workloads {

namespace {

std::size_t items_for(std::uint64_t bytes, double mean_size) {
    return std::max<std::size_t>(
        1, static_cast<std::size_t>(std::llround(static_cast<double>(bytes) / mean_size)));
}

// Cold windows start a cache line apart at least (a window never shares a line with another)
// and together cover twice the last-level cache, so each is evicted before its next turn.
std::size_t cold_stride(std::uint64_t bytes) {
    return std::max<std::size_t>(bytes, kCacheLine);
}
}  // namespace

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    std::uint64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::uint64_t>::max() : sum;
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<std::uint64_t>::max()
                                                  : product;
}

std::size_t cold_window_count(const CacheSizes& caches, std::uint64_t bytes) {
    const std::uint64_t total =
        saturating_mul(2, std::max<std::uint64_t>(caches.last_level(), kCacheLine));
    return std::max<std::size_t>(1, total / cold_stride(bytes) + (total % cold_stride(bytes) != 0));
}

std::size_t cold_windows_needed(const CacheSizes& caches, std::uint64_t bytes,
                                std::uint64_t parsed_items) {
    const std::size_t rotation = cold_window_count(caches, bytes);
    if (parsed_items == 0)
        return rotation;
    // Fewest varints a window of `bytes` can hold: the most iterations a pass can take.
    const std::uint64_t fewest_items = std::max<std::uint64_t>(1, bytes / kMaxVarintBytes);
    const std::uint64_t iterations = (parsed_items + fewest_items - 1) / fewest_items;
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(rotation, saturating_mul(kSimulatedPasses, iterations)));
}

double Placement::mean_span() const {
    double total = 0;
    for (const auto& w : windows)
        total += static_cast<double>(w.span);
    return total / static_cast<double>(windows.size());
}

void flush_lines(const std::uint8_t* p, std::size_t bytes) {
    const auto first = reinterpret_cast<std::uintptr_t>(p) & ~(kCacheLine - 1);
#if defined(__aarch64__)
    // dc civac: clean and invalidate to the point of coherency (Linux lets user space run it).
    for (auto line = first; line < reinterpret_cast<std::uintptr_t>(p) + bytes; line += kCacheLine)
        asm volatile("dc civac, %0" : : "r"(line) : "memory");
    asm volatile("dsb ish" : : : "memory");  // the flushes are complete before the timer restarts
#else
    for (auto line = first; line < reinterpret_cast<std::uintptr_t>(p) + bytes; line += kCacheLine)
        _mm_clflush(reinterpret_cast<const void*>(line));
    _mm_mfence();  // the flushes are complete before the timer restarts
#endif
}

Placement place(const VarintArena& arena, std::uint64_t bytes, CacheState cache,
                const CacheSizes& caches, std::uint64_t seed, std::uint64_t parsed_items) {
    Placement placement;
    placement.items = items_for(bytes, arena.mean_size());
    const std::size_t count =
        cache == CacheState::cold ? cold_windows_needed(caches, bytes, parsed_items) : 1;
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t offset = next_varint_boundary(arena, k * cold_stride(bytes));
        const auto span =
            span_of_varints(arena.bytes.data() + offset, arena.bytes.end(), placement.items);
        if (!span)
            break;  // the arena is sized so this does not happen; fewer windows if it does
        placement.windows.push_back({offset, *span});
    }
    if (placement.windows.empty())
        throw SuiteError(fmt::format("internal: no room for {} varints", placement.items));
    // Visit in shuffled order so that no prefetcher can follow from one window to the next.
    std::shuffle(placement.windows.begin(), placement.windows.end(), std::mt19937_64(seed));
    return placement;
}

bool sliced_working_set(std::uint64_t bytes, const CacheSizes& used, const CacheSizes& machine) {
    const std::uint64_t llc = std::max(used.last_level(), machine.last_level());
    return llc > 0 && bytes / kSlicedFromLastLevels >= llc;
}

std::optional<Placement> slice_whole_pass(const VarintArena& arena, const Placement& whole) {
    if (whole.windows.size() != 1 || whole.items < kSlicesPerPass)
        return std::nullopt;
    Placement sliced;
    sliced.items = whole.items / kSlicesPerPass;
    std::size_t offset = whole.windows.front().offset;
    for (std::size_t k = 0; k < kSlicesPerPass; ++k) {
        const auto span =
            span_of_varints(arena.bytes.data() + offset, arena.bytes.end(), sliced.items);
        if (!span)  // within the whole window's span: cannot happen
            throw SuiteError(fmt::format("internal: slice {} runs past the arena", k));
        sliced.windows.push_back({offset, *span});
        offset += *span;
    }
    return sliced;
}

std::optional<SharedSlices> SliceTable::slices_of(const VarintArena& arena,
                                                  const Placement& whole) {
    if (whole.windows.size() != 1)
        return std::nullopt;
    const auto key = std::pair(whole.windows.front().offset, whole.items);
    if (const auto found = by_window_.find(key); found != by_window_.end())
        return found->second;
    auto cut = slice_whole_pass(arena, whole);
    if (!cut)
        return std::nullopt;
    SharedSlices made{std::make_shared<const Placement>(std::move(*cut)),
                      std::make_shared<std::size_t>(0)};
    by_window_.emplace(key, made);
    return made;
}

std::uint64_t arena_bytes_needed(const std::vector<std::uint64_t>& sizes, bool cold,
                                 const CacheSizes& caches, std::uint64_t parsed_items) {
    std::uint64_t need = 4096;
    for (const auto s : sizes) {
        const std::uint64_t windows = cold ? cold_windows_needed(caches, s, parsed_items) : 1;
        // + 1/8 for the spread of the last window's varint lengths around the mean.
        const std::uint64_t last = saturating_add(s, s / 8 + 4096);
        need = std::max(need, saturating_add(saturating_mul(windows - 1, cold_stride(s)), last));
    }
    return need;
}

}  // namespace perfgauge::workloads
