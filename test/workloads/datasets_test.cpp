#include "perfgauge/workloads/datasets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "perfgauge/workloads/cache_sweep.hpp"

namespace perfgauge::workloads {
namespace {

TEST(Datasets, NamesRoundTrip) {
    for (const auto d : all_distributions())
        EXPECT_EQ(parse_distribution(distribution_name(d)), d);
    EXPECT_EQ(parse_distribution("loguniform"), std::nullopt);
}

TEST(Datasets, SameSeedSameBytesOtherSeedOtherBytes) {
    const auto a = make_varint_arena(Distribution::log_uniform, 1 << 16, 5);
    const auto b = make_varint_arena(Distribution::log_uniform, 1 << 16, 5);
    const auto c = make_varint_arena(Distribution::log_uniform, 1 << 16, 6);
    ASSERT_EQ(a.bytes.size(), b.bytes.size());
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size()), 0);
    EXPECT_NE(std::memcmp(a.bytes.data(), c.bytes.data(), std::min(a.bytes.size(), c.bytes.size())),
              0);
}

TEST(Datasets, FixedWidthsEncodeInExactlyThatManyBytes) {
    for (int width = 1; width <= 5; ++width) {
        const auto d = static_cast<Distribution>(width - 1);
        const auto arena = make_varint_arena(d, 10000, 1);
        EXPECT_DOUBLE_EQ(arena.mean_size(), width) << distribution_name(d);
        EXPECT_EQ(arena.bytes.size() % static_cast<std::size_t>(width), 0u);
    }
}

// The means follow from the definitions: uniform u32 is 5 bytes unless below 2^28 (1/16 of the
// range: 4 bytes, ...), E = 5 - 15/16 * (1 + 1/128 + ...) ~= 4.94; log-uniform picks a width
// 0..32 uniformly: (8*1 + 7*2 + 7*3 + 7*4 + 4*5) / 33 = 91/33 ~= 2.76.
TEST(Datasets, MeanEncodedSizes) {
    EXPECT_NEAR(make_varint_arena(Distribution::uniform, 1 << 20, 1).mean_size(), 4.94, 0.01);
    EXPECT_NEAR(make_varint_arena(Distribution::log_uniform, 1 << 20, 1).mean_size(), 91.0 / 33,
                0.02);
}

TEST(Datasets, ArenaIsWholeVarintsAndAtLeastTheRequestedSize) {
    const auto arena = make_varint_arena(Distribution::uniform, 1001, 3);
    EXPECT_GE(arena.bytes.size(), 1001u);
    EXPECT_LT(arena.bytes.size(), 1001u + 5);
    const auto parsed = parse_varints_reference(arena.bytes.data(), arena.bytes.end(), arena.count);
    EXPECT_EQ(parsed.status, VarintStatus::ok);
    EXPECT_EQ(parsed.consumed, arena.bytes.size());
}

TEST(Datasets, ExtentIsTheArenasWithoutIt) {
    for (const auto d : all_distributions()) {
        for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{100003}}) {
            const auto arena = make_varint_arena(d, bytes, 11);
            const auto extent = varint_arena_extent(d, bytes, 11);
            EXPECT_EQ(extent.bytes, arena.bytes.size()) << distribution_name(d) << " " << bytes;
            EXPECT_EQ(extent.count, arena.count) << distribution_name(d) << " " << bytes;
            EXPECT_EQ(extent.mean_size(), arena.mean_size()) << distribution_name(d);
        }
    }
}

TEST(Datasets, SpansAndBoundaries) {
    const std::uint8_t data[] = {0x01, 0x80, 0x01, 0xff, 0xff, 0x03, 0x05};
    EXPECT_EQ(span_of_varints(data, data + 7, 0), 0u);
    EXPECT_EQ(span_of_varints(data, data + 7, 2), 3u);
    EXPECT_EQ(span_of_varints(data, data + 7, 4), 7u);
    EXPECT_EQ(span_of_varints(data, data + 7, 5), std::nullopt);
    // Longer than a word, against a bytewise count, for every n and every start.
    // Words without a terminator, words of terminators only, and the 0x7f/0x80 boundary.
    std::vector<std::uint8_t> stream;
    for (int i = 0; i < 300; ++i)
        stream.push_back(static_cast<std::uint8_t>(i % 3 == 0 || i % 7 == 0 ? 0x81 : 0x05));
    stream.insert(stream.end(), 20, 0x80);
    stream.push_back(0x7f);
    stream.insert(stream.end(), 17, 0x00);
    stream.insert(stream.end(), 9, 0xff);
    stream.push_back(0x01);
    for (std::size_t start = 0; start < 9; ++start) {
        std::size_t seen = 0;
        for (std::size_t i = start; i < stream.size(); ++i) {
            seen += stream[i] < 0x80;
            if (stream[i] < 0x80) {
                EXPECT_EQ(
                    span_of_varints(stream.data() + start, stream.data() + stream.size(), seen),
                    i + 1 - start)
                    << start << " " << seen;
            }
        }
        EXPECT_EQ(span_of_varints(stream.data() + start, stream.data() + stream.size(), seen + 1),
                  std::nullopt);
    }
    VarintArena arena{PaddedBytes(7), 4};
    std::memcpy(arena.bytes.data(), data, 7);
    EXPECT_EQ(next_varint_boundary(arena, 0), 0u);
    EXPECT_EQ(next_varint_boundary(arena, 1), 1u);
    EXPECT_EQ(next_varint_boundary(arena, 2), 3u);
    EXPECT_EQ(next_varint_boundary(arena, 4), 6u);
}

TEST(CacheSweep, ParsesSizes) {
    EXPECT_EQ(parse_size("4096"), 4096u);
    EXPECT_EQ(parse_size("4K"), 4096u);
    EXPECT_EQ(parse_size("4k"), 4096u);
    EXPECT_EQ(parse_size("256KiB"), 256u << 10);
    EXPECT_EQ(parse_size("64M"), 64u << 20);
    EXPECT_EQ(parse_size("64MB"), 64u << 20);
    EXPECT_EQ(parse_size("1G"), 1u << 30);
    EXPECT_EQ(parse_size("12B"), 12u);
    for (const char* bad :
         {"", "K", "0", "4Q", "-4K", "4 K", "99999999999999999999", "17179869184G"}) {
        EXPECT_EQ(parse_size(bad), std::nullopt) << bad;
    }
}

TEST(CacheSweep, Labels) {
    EXPECT_EQ(size_label(3), "3B");
    EXPECT_EQ(size_label(24 << 10), "24K");
    EXPECT_EQ(size_label(1536), "1536B");
    EXPECT_EQ(size_label(16u << 20), "16M");
    EXPECT_EQ(size_label(std::uint64_t{2} << 30), "2G");
}

TEST(CacheSweep, SweepCoversTheCachesOfAZen3) {
    const CacheSizes zen3{32 << 10, 512 << 10, 32 << 20};
    const auto sizes = sweep_sizes(zen3, 3);
    ASSERT_FALSE(sizes.empty());
    EXPECT_EQ(sizes.front(), 3u);
    EXPECT_EQ(sizes.back(), 64u << 20);  // 2x L3
    EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
    EXPECT_EQ(std::adjacent_find(sizes.begin(), sizes.end()), sizes.end());
    for (const std::uint64_t point : {24u << 10, 256u << 10, 16u << 20, 64u << 20})
        EXPECT_NE(std::find(sizes.begin(), sizes.end(), point), sizes.end()) << point;
}

TEST(CacheSweep, APowerOfFourNearACachePointIsLeftOut) {
    // A 36 MiB L3 (35.75 MiB, as a Cascade Lake VM reports): L3/2 and 2 L3 are 18304K and
    // 73216K, within 25% of 16M and 64M, which would take as long to measure again.
    const CacheSizes clx{32 << 10, 1 << 20, 36608u << 10};
    const auto sizes = sweep_sizes(clx, 1);
    for (const std::uint64_t gone : {16u << 20, 64u << 20})
        EXPECT_EQ(std::find(sizes.begin(), sizes.end(), gone), sizes.end()) << gone;
    for (const std::uint64_t kept : {24u << 10, 16u << 10, 64u << 10, 512u << 10, 1u << 20,
                                     4u << 20, 18304u << 10, 73216u << 10})
        EXPECT_NE(std::find(sizes.begin(), sizes.end(), kept), sizes.end()) << kept;
    EXPECT_EQ(sizes.back(), 73216u << 10);  // 2x L3
    EXPECT_EQ(sizes.size(), 14u);           // 256K is inside L2, between 64K and L2/2 (below)
}

TEST(CacheSweep, PowersOfFourInsideALevelBeyondL1AreLeftOut) {
    // Sapphire Rapids VM: 48K L1d, 2M L2, a measured 128M last level. L2 keeps 64K (its first
    // power of 4) and 1M (L2/2); L3 keeps 4M and 64M (L3/2): 256K and 16M measure them again.
    const CacheSizes spr{48 << 10, 2 << 20, 128u << 20};
    EXPECT_EQ(sweep_sizes(spr, 3),
              (std::vector<std::uint64_t>{3, 16, 64, 256, 1 << 10, 4 << 10, 16 << 10, 36 << 10,
                                          64 << 10, 1 << 20, 4 << 20, 64u << 20, 256u << 20}));
    EXPECT_TRUE(inside_a_level(spr, 256 << 10));
    EXPECT_TRUE(inside_a_level(spr, 16u << 20));
    for (const std::uint64_t kept : {16u, 4u << 10, 16u << 10, 64u << 10, 4u << 20})
        EXPECT_FALSE(inside_a_level(spr, kept)) << kept;
    // Zen 3 (32K, 512K, 32M): 4M lies between L3's 1M and its 16M point.
    const CacheSizes zen3{32 << 10, 512 << 10, 32 << 20};
    EXPECT_TRUE(inside_a_level(zen3, 4u << 20));
    EXPECT_FALSE(inside_a_level(zen3, 64u << 10));
    // A level whose point is not above the level below has nothing inside; a huge given L2
    // ends the search for L3's first power of 4 instead of overflowing it.
    EXPECT_FALSE(inside_a_level(CacheSizes{32 << 10, 48 << 10, 0}, 64u << 10));
    const CacheSizes huge{32 << 10, std::uint64_t{3} << 61,
                          std::numeric_limits<std::uint64_t>::max()};
    EXPECT_FALSE(inside_a_level(huge, std::uint64_t{1} << 62));
    EXPECT_TRUE(inside_a_level(huge, (std::uint64_t{1} << 62) + 1));
}

TEST(CacheSweep, WithoutAnL3TheLastLevelIsL2) {
    const auto sizes = sweep_sizes(CacheSizes{32 << 10, 1 << 20, 0}, 1);
    EXPECT_EQ(sizes.back(), 2u << 20);
    // 2x a 576K L2 is 1152K: 1M, within 25% of it, is left out as beside the other points.
    const auto odd = sweep_sizes(CacheSizes{32 << 10, 576 << 10, 0}, 1);
    EXPECT_EQ(odd.back(), 1152u << 10);
    EXPECT_EQ(std::find(odd.begin(), odd.end(), 1u << 20), odd.end());
}

TEST(CacheSweep, AHugeLastLevelCacheEndsTheSweepWithoutOverflowing) {
    const std::uint64_t huge = std::uint64_t{1} << 63;
    const auto sizes = sweep_sizes(CacheSizes{32 << 10, 1 << 20, huge}, 1);
    EXPECT_EQ(sizes.back(), std::numeric_limits<std::uint64_t>::max());
    EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
    EXPECT_LT(sizes.size(), 40u);
    EXPECT_EQ(std::count(sizes.begin(), sizes.end(), 0u), 0);
}

TEST(CacheSweep, CacheSizesFromSysfsLevels) {
    const std::vector<harness::CacheLevel> levels = {{1, "Data", 32768, 64, 1, 8},
                                                     {1, "Instruction", 65536, 64, 1},
                                                     {2, "Unified", 524288, 64, 1, 8},
                                                     {3, "Unified", 33554432, 64, 8, 16}};
    const auto c = cache_sizes_from(levels);
    EXPECT_EQ(c.l1d, 32768u);
    EXPECT_EQ(c.l2, 524288u);
    EXPECT_EQ(c.l3, 33554432u);
}

TEST(RepeatedVarintArena, DrawsThePeriodThenRepeatsItWhole) {
    const auto drawn = make_varint_arena(Distribution::log_uniform, 1000, 3);
    const auto arena = repeated_varint_arena(Distribution::log_uniform, 10'000, 3, 1000);
    ASSERT_GE(arena.bytes.size(), 10'000u);
    ASSERT_EQ(arena.bytes.size() % drawn.bytes.size(), 0u);  // whole periods: whole varints
    const std::size_t times = arena.bytes.size() / drawn.bytes.size();
    EXPECT_EQ(arena.count, times * drawn.count);
    for (std::size_t k = 0; k < times; ++k) {
        EXPECT_TRUE(std::equal(drawn.bytes.data(), drawn.bytes.end(),
                               arena.bytes.data() + k * drawn.bytes.size()))
            << "period " << k;
    }
    EXPECT_EQ(parse_varints_reference(arena.bytes.data(), arena.bytes.end(), arena.count).consumed,
              arena.bytes.size());
    // No longer than asked: exactly make_varint_arena's.
    const auto short_one = repeated_varint_arena(Distribution::log_uniform, 500, 3, 1000);
    const auto direct = make_varint_arena(Distribution::log_uniform, 500, 3);
    EXPECT_EQ(short_one.count, direct.count);
    EXPECT_TRUE(std::equal(direct.bytes.data(), direct.bytes.end(), short_one.bytes.data()));
}

}  // namespace
}  // namespace perfgauge::workloads
