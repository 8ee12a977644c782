#include "perfgauge/harness/run_pairing.hpp"

#include <gtest/gtest.h>

namespace perfgauge::harness {
namespace {

TEST(RunPairing, ParsesIsoDatesWithTheirOffsets) {
    // date -u -d 2026-11-25T07:08:24Z +%s, in milliseconds
    const long long at = 1795590504000;
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T07:08:24+0000"), at);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T07:08:24Z"), at);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T07:08:24"), at);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T08:08:24+01:00"), at);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T08:08:24+01"), at);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T02:38:24-0430"), at);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T07:08:24.123456+00:00"), at + 123);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T07:08:24.5Z"), at + 500);
    EXPECT_EQ(parse_iso_milliseconds("2026-11-25T07:08:24.120+0000"), at + 120);
    // Leap days, offsets that cross midnight and the year, seconds against milliseconds.
    EXPECT_TRUE(parse_iso_milliseconds("2028-02-29T12:00:00Z").has_value());
    EXPECT_FALSE(parse_iso_milliseconds("2100-02-29T12:00:00Z").has_value());
    EXPECT_EQ(parse_iso_milliseconds("2027-01-01T00:30:00+01:00"),
              parse_iso_milliseconds("2026-12-31T23:30:00Z"));
    EXPECT_EQ(parse_iso_milliseconds("2026-12-31T20:00:00-05:00"),
              parse_iso_milliseconds("2027-01-01T01:00:00Z"));
    EXPECT_LT(parse_iso_milliseconds("2026-11-25T07:08:24+00:00"),
              parse_iso_milliseconds("2026-11-25T07:08:24.001+0000"));
    for (const char* bad :
         {"", "yesterday", "2026-11-25", "2026-13-01T00:00:00", "2026-02-30T00:00:00",
          "2026-11-25T25:00:00", "2026-12-31T23:59:60Z", " 2026-11-25T07:08:24",
          "2026-+1-25T07:08:24", "2026-11-25T 7:08:24", "2026-11-25 07:08:24",
          "2026-11-25T07:08:24.", "2026-11-25T07:08:24+9999", "2026-11-25T07:08:24+0160",
          "2026-11-25T07:08:24+1", "2026-11-25T07:08:24+01:0", "2026-11-25T07:08:24 +0000",
          "2026-11-25T07:08:24+0000x"})
        EXPECT_FALSE(parse_iso_milliseconds(bad).has_value()) << bad;
}

TEST(RunPairing, ByDateSortsEarliestFirstAndUnparsedLast) {
    EXPECT_EQ(by_date({"2026-11-25T07:00:20+0000", "junk", "2026-11-25T08:00:10+0100",
                       "2026-11-25T07:00:20+0000"}),
              (std::vector<std::size_t>{2, 0, 3, 1}));
}

TEST(RunPairing, RunsTakenInTurnPairByDate) {
    const auto at = [](int m) {  // minute m + 5 of an hour, m <= 54
        return "2026-11-25T07:" + std::string(m + 5 < 10 ? "0" : "") + std::to_string(m + 5) +
               ":00+0000";
    };
    // A B A B A B, given out of order: in turn, the baseline first every time.
    auto p = pair_runs({at(40), at(0), at(20)}, {at(10), at(50), at(30)});
    EXPECT_TRUE(p.in_turn) << p.why_not;
    EXPECT_EQ(p.pairs, 3u);
    EXPECT_EQ(p.baseline_first, 3u);
    // A B B A A B: in turn, the order alternates. (A leap second :60 is refused below.)
    p = pair_runs({at(0), at(30), at(40)}, {at(10), at(20), at(50)});
    EXPECT_TRUE(p.in_turn) << p.why_not;
    EXPECT_EQ(p.baseline_first, 2u);
    // A A B A B B: the second pair's runs came after a run of the third.
    p = pair_runs({at(0), at(10), at(30)}, {at(20), at(40), at(45)});
    EXPECT_FALSE(p.in_turn);
    EXPECT_NE(p.why_not.find("not taken in turn"), std::string::npos) << p.why_not;
    // Equal dates cannot be ordered; unequal counts cannot be paired; a date must parse.
    EXPECT_FALSE(pair_runs({at(0), at(20)}, {at(0), at(30)}).in_turn);
    EXPECT_NE(pair_runs({at(0), at(10)}, {at(10), at(20)})
                  .why_not.find("pair 1 and a run of pair 2 have the same date"),
              std::string::npos);
    EXPECT_EQ(pair_runs({at(0), at(0), at(20)}, {at(10), at(30), at(40)}).why_not,
              "two runs of the baseline have the same date");
    // Milliseconds order runs that began within one second.
    p = pair_runs(
        {"2026-11-25T07:00:00.100Z", "2026-11-25T07:00:00.700Z", "2026-11-25T07:00:01.100Z"},
        {"2026-11-25T07:00:00.400Z", "2026-11-25T07:00:00.900Z", "2026-11-25T07:00:01.500Z"});
    EXPECT_TRUE(p.in_turn) << p.why_not;
    EXPECT_NE(pair_runs({at(0)}, {at(10), at(20)}).why_not.find("1 and 2 runs"), std::string::npos);
    EXPECT_NE(pair_runs({at(0), "x"}, {at(10), at(20)}).why_not.find("'x'"), std::string::npos);
}

}  // namespace
}  // namespace perfgauge::harness
