#include "perfgauge/workloads/placement.hpp"

#include <gtest/gtest.h>

#include "perfgauge/workloads/datasets.hpp"

namespace perfgauge::workloads {
namespace {

constexpr CacheSizes kCaches{1 << 10, 4 << 10, 16 << 10};

TEST(SlicedWorkingSet, FromTwiceTheLargerLastLevel) {
    EXPECT_FALSE(sliced_working_set(32 << 10, {}, {}));  // no last level known: never
    EXPECT_FALSE(sliced_working_set((32 << 10) - 1, kCaches, {}));
    EXPECT_TRUE(sliced_working_set(32 << 10, kCaches, {}));
    // A --l3 below the machine's cache does not slice what the machine holds.
    EXPECT_FALSE(sliced_working_set(32 << 10, kCaches, {0, 0, 1 << 20}));
    EXPECT_TRUE(sliced_working_set(2 << 20, kCaches, {0, 0, 1 << 20}));
    EXPECT_TRUE(sliced_working_set(32 << 10, {}, {0, 0, 16 << 10}));  // sysfs silent, CPUID not
}

TEST(SliceWholePass, SlicesTileThePassInOrderWithEqualItems) {
    const auto arena = make_varint_arena(Distribution::log_uniform, 1 << 20, 7);
    const Placement whole = place(arena, 256 << 10, CacheState::hot, kCaches, 1);
    ASSERT_EQ(whole.windows.size(), 1u);
    const auto cut = slice_whole_pass(arena, whole);
    ASSERT_TRUE(cut.has_value());
    const Placement& sliced = *cut;
    ASSERT_EQ(sliced.windows.size(), kSlicesPerPass);
    EXPECT_EQ(sliced.items, whole.items / kSlicesPerPass);
    std::size_t at = whole.windows[0].offset;
    for (const Window& w : sliced.windows) {
        EXPECT_EQ(w.offset, at);  // each starts where the last ended: one pass, front to back
        EXPECT_EQ(span_of_varints(arena.bytes.data() + w.offset, arena.bytes.end(), sliced.items),
                  w.span);
        at += w.span;
    }
    // All but the remainder of whole.items / 64 varints: the pass's bytes, to within 64 varints.
    EXPECT_LE(at - whole.windows[0].offset, whole.windows[0].span);
    EXPECT_GE(at - whole.windows[0].offset + 64 * kMaxVarintBytes, whole.windows[0].span);
}

TEST(SliceWholePass, LeavesRotationsAndTinySetsAlone) {
    const auto arena = make_varint_arena(Distribution::log_uniform, 1 << 20, 7);
    const Placement cold = place(arena, 1 << 10, CacheState::cold, kCaches, 1);
    EXPECT_FALSE(slice_whole_pass(arena, cold).has_value());
    const Placement tiny = place(arena, 16, CacheState::hot, kCaches, 1);  // < 64 varints
    EXPECT_FALSE(slice_whole_pass(arena, tiny).has_value());
}

TEST(SliceTable, DecodersOverTheSameBytesShareTheSlicesAndTheCursor) {
    const auto arena = make_varint_arena(Distribution::log_uniform, 1 << 20, 7);
    const Placement hot = place(arena, 256 << 10, CacheState::hot, kCaches, 1);
    const Placement cold = place(arena, 256 << 10, CacheState::cold, {0, 0, 64 << 10}, 2);
    ASSERT_EQ(cold.windows.size(), 1u);  // 2 x 64K over 256K: one window, the same bytes
    SliceTable table;
    const auto a = table.slices_of(arena, hot);
    const auto b = table.slices_of(arena, cold);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->cursor, b->cursor);  // one cursor: the next slice is the next after any
    EXPECT_EQ(a->slices, b->slices);
    const Placement other = place(arena, 128 << 10, CacheState::hot, kCaches, 1);
    const auto c = table.slices_of(arena, other);
    ASSERT_TRUE(c);
    EXPECT_NE(c->cursor, a->cursor);  // other bytes, their own
    EXPECT_FALSE(table.slices_of(arena, place(arena, 16, CacheState::hot, kCaches, 1)));
}

TEST(ColdWindowsNeeded, TheSimulationsPassesBoundTheRotation) {
    // 2 x 16K over 64-byte windows: 512; the run parses them all, in turn.
    EXPECT_EQ(cold_windows_needed(kCaches, 64, 0), 512u);
    // At most 40 varints a pass: a 64-byte window holds at least 6, so 7 iterations a pass,
    // 2 passes (warm-up and counted batch): 14 windows, each visited once.
    EXPECT_EQ(cold_windows_needed(kCaches, 64, 40), 2u * 7u);
    EXPECT_EQ(cold_windows_needed(kCaches, 64, 1'000'000), 512u);  // never more than the run's
    EXPECT_LT(arena_bytes_needed({64, 1 << 10}, true, kCaches, 40),
              arena_bytes_needed({64, 1 << 10}, true, kCaches, 0));
}

}  // namespace
}  // namespace perfgauge::workloads
