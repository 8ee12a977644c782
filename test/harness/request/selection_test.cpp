// A selection names each benchmark once: repeats of an earlier value, however written, fold
// into it, and the note names each as written.
#include <gtest/gtest.h>

#include <cstdint>

#include "perfgauge/harness/selection.hpp"

namespace perfgauge::harness {
namespace {

TEST(Selection, RepeatsFoldIntoTheFirstInOrder) {
    std::vector<Repeat> repeats;
    const auto sizes = without_repeats<std::uint64_t>(
        {{4096, "4K"}, {1024, "1K"}, {4096, "4096"}, {1024, "1K"}, {65536, "64K"}}, repeats);
    EXPECT_EQ(sizes, (std::vector<std::uint64_t>{4096, 1024, 65536}));
    ASSERT_EQ(repeats.size(), 2u);
    EXPECT_EQ(repeats[0].text, "4096");
    EXPECT_EQ(repeats[0].earlier, "4K");
    EXPECT_EQ(repeats[1].text, "1K");
    EXPECT_EQ(repeats[1].earlier, "1K");
}

TEST(Selection, NoRepeatsNoNote) {
    std::vector<Repeat> repeats;
    const auto names = without_repeats<std::string>({{"hot", "hot"}, {"cold", "cold"}}, repeats);
    EXPECT_EQ(names, (std::vector<std::string>{"hot", "cold"}));
    EXPECT_TRUE(repeats.empty());
    EXPECT_EQ(repeats_note("--cache", repeats), "");
}

TEST(Selection, TheNoteNamesEachRepeatAsWritten) {
    EXPECT_EQ(repeats_note("--sizes", {{"4096", "4K"}, {"1K", "1K"}}),
              "--sizes: '4096' is '4K' again, '1K' is given twice; each is measured once");
}

}  // namespace
}  // namespace perfgauge::harness
