#include "perfgauge/workloads/datasets.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace perfgauge::workloads {

namespace {

__extension__ typedef unsigned __int128 Uint128;  // GCC/Clang builtin; -Wpedantic wants this

constexpr std::array<Distribution, 7> kAll = {
    Distribution::fixed1, Distribution::fixed2,  Distribution::fixed3,     Distribution::fixed4,
    Distribution::fixed5, Distribution::uniform, Distribution::log_uniform};
constexpr std::array<std::string_view, 7> kNames = {"fixed1", "fixed2",  "fixed3",     "fixed4",
                                                    "fixed5", "uniform", "log-uniform"};

}  // namespace

std::string_view distribution_name(Distribution d) {
    return kNames[static_cast<std::size_t>(d)];
}

std::optional<Distribution> parse_distribution(std::string_view name) {
    for (std::size_t i = 0; i < kAll.size(); ++i) {
        if (kNames[i] == name)
            return kAll[i];
    }
    return std::nullopt;
}

std::span<const Distribution> all_distributions() {
    return kAll;
}

ValueGenerator::ValueGenerator(Distribution d, std::uint64_t seed) : dist_(d), engine_(seed) {}

std::uint64_t ValueGenerator::below(std::uint64_t bound) {
    // Lemire's multiply-shift: the high half of a 64x64 product; bias < bound / 2^64.
    return static_cast<std::uint64_t>((static_cast<Uint128>(engine_()) * bound) >> 64);
}

std::uint32_t ValueGenerator::next() {
    auto in_range = [this](std::uint64_t lo, std::uint64_t hi) {  // inclusive
        return static_cast<std::uint32_t>(lo + below(hi - lo + 1));
    };
    switch (dist_) {
        case Distribution::fixed1:
        case Distribution::fixed2:
        case Distribution::fixed3:
        case Distribution::fixed4:
        case Distribution::fixed5: {
            const unsigned bytes = static_cast<unsigned>(dist_) + 1;
            const std::uint64_t lo = bytes == 1 ? 0 : std::uint64_t{1} << (7 * (bytes - 1));
            const std::uint64_t hi =
                bytes == 5 ? 0xffffffffu : (std::uint64_t{1} << (7 * bytes)) - 1;
            return in_range(lo, hi);
        }
        case Distribution::uniform:
            return static_cast<std::uint32_t>(engine_() >> 32);
        case Distribution::log_uniform: {
            const unsigned width = static_cast<unsigned>(below(33));  // 0..32 significant bits
            if (width == 0)
                return 0;
            const std::uint64_t lo = std::uint64_t{1} << (width - 1);
            return in_range(lo, (lo << 1) - 1);
        }
    }
    throw std::logic_error("unknown distribution");
}

VarintArena make_varint_arena(Distribution d, std::size_t min_bytes, std::uint64_t seed) {
    // Room for the last varint to straddle min_bytes; the unused tail becomes padding.
    VarintArena arena{PaddedBytes(min_bytes + 5), 0};
    ValueGenerator gen(d, seed);
    std::size_t used = 0;
    while (used < min_bytes) {
        used += encode_varint32(gen.next(), arena.bytes.data() + used);
        ++arena.count;
    }
    arena.bytes.shrink(used);
    return arena;
}

VarintArena repeated_varint_arena(Distribution d, std::size_t min_bytes, std::uint64_t seed,
                                  std::size_t period_bytes) {
    VarintArena period = make_varint_arena(d, std::min(min_bytes, period_bytes), seed);
    const std::size_t once = period.bytes.size();
    if (once >= min_bytes || once == 0)
        return period;
    const std::size_t times = (min_bytes + once - 1) / once;
    VarintArena arena{PaddedBytes(times * once), times * period.count};
    for (std::size_t k = 0; k < times; ++k)
        std::memcpy(arena.bytes.data() + k * once, period.bytes.data(), once);
    return arena;
}

std::optional<std::size_t> span_of_varints(const std::uint8_t* p, const std::uint8_t* end,
                                           std::size_t n) {
    // Eight bytes at a time while the n-th terminator is further on (placing the cold windows
    // scans 2x the last-level cache per working set, in every measuring process), then bytewise.
    constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
    constexpr std::uint64_t kLowBits = 0x0101010101010101ULL;
    const std::uint8_t* q = p;
    std::size_t seen = 0;
    while (end - q >= 8) {
        std::uint64_t word;
        std::memcpy(&word, q, sizeof word);
        // One bit per byte, so a multiply sums them into the top byte: std::popcount is a
        // library call here (the kernels are built for any x86-64, without POPCNT), and was a
        // third of placing the cold windows.
        const auto terminators =
            static_cast<std::size_t>((((~word & kHighBits) >> 7) * kLowBits) >> 56);
        if (seen + terminators >= n)
            break;
        seen += terminators;
        q += 8;
    }
    for (; seen < n; ++q) {
        if (q == end)
            return std::nullopt;
        seen += *q < 0x80;
    }
    return static_cast<std::size_t>(q - p);
}

std::size_t next_varint_boundary(const VarintArena& arena, std::size_t offset) {
    const std::uint8_t* bytes = arena.bytes.data();
    while (offset > 0 && offset < arena.bytes.size() && bytes[offset - 1] >= 0x80)
        ++offset;
    return offset;
}

}  // namespace perfgauge::workloads
