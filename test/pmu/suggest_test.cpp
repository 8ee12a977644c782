#include "perfgauge/pmu/suggest.hpp"

#include <gtest/gtest.h>

namespace perfgauge::pmu {
namespace {

TEST(EditDistance, CountsInsertDeleteSubstituteAndSwap) {
    EXPECT_EQ(edit_distance("cycles", "cycles"), 0u);
    EXPECT_EQ(edit_distance("cyclez", "cycles"), 1u);
    EXPECT_EQ(edit_distance("cyles", "cycles"), 1u);
    EXPECT_EQ(edit_distance("cycless", "cycles"), 1u);
    EXPECT_EQ(edit_distance("cylces", "cycles"), 1u);  // adjacent swap counts once
    EXPECT_EQ(edit_distance("CYCLES", "cycles"), 0u);  // case-insensitive
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(ClosestMatches, NearestFirstAndLimited) {
    const std::vector<std::string> names = {"instructions", "cycles",   "cpu-cycles", "ref-cycles",
                                            "bus-cycles",   "branches", "task-clock"};
    const auto m = closest_matches("cyclez", names);
    ASSERT_FALSE(m.empty());
    EXPECT_EQ(m.front(), "cycles");
    EXPECT_LE(closest_matches("cycles", names, 2).size(), 2u);
}

TEST(ClosestMatches, NothingCloseGivesNothing) {
    EXPECT_TRUE(closest_matches("zzzzzz", {"cycles", "instructions"}).empty());
}

TEST(ClosestMatches, SubstringMatchesRankAfterSpellingMatches) {
    const auto m = closest_matches("RETIRED", {"RETIRED_INSTRUCTIONS", "RETIRES"});
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0], "RETIRES");
    EXPECT_EQ(m[1], "RETIRED_INSTRUCTIONS");
}

TEST(ClosestMatches, DuplicatesDifferingOnlyInCaseAppearOnce) {
    EXPECT_EQ(closest_matches("cycle", {"cycles", "CYCLES"}).size(), 1u);
}

}  // namespace
}  // namespace perfgauge::pmu
