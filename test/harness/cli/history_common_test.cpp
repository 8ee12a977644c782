// Where an accepted baseline starts in a series: the acceptances `history check` (issue 48)
// and `history plot` read (harness/history's queries), matched on plain data by the command
// line's matcher (RE2), without a store.
#include "history/common.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <vector>

#include "common/cli_common.hpp"

namespace perfgauge::cli {
namespace {

using harness::Acceptance;
using harness::SeriesEntry;
using harness::SeriesKey;

std::vector<SeriesEntry> runs(const std::vector<std::int64_t>& ids) {
    std::vector<SeriesEntry> out;
    for (const auto id : ids) {
        SeriesEntry e;
        e.run_id = id;
        out.push_back(e);
    }
    return out;
}

const SeriesKey kVarintTime{"varint/decode/1K", "time", "class"};

TEST(AcceptanceApplies, ByPatternAndMetricEmptyMeaningEvery) {
    EXPECT_TRUE(harness::acceptance_applies({0, 1, "c", "", "", "r", ""}, kVarintTime,
                                            stored_pattern_match()));
    EXPECT_TRUE(harness::acceptance_applies({0, 1, "c", "varint", "time", "r", ""}, kVarintTime,
                                            stored_pattern_match()));
    EXPECT_TRUE(harness::acceptance_applies({0, 1, "c", "^varint/.*/1K$", "", "r", ""}, kVarintTime,
                                            stored_pattern_match()));
    EXPECT_FALSE(harness::acceptance_applies({0, 1, "c", "memcpy", "", "r", ""}, kVarintTime,
                                             stored_pattern_match()));
    EXPECT_FALSE(harness::acceptance_applies({0, 1, "c", "", "instructions", "r", ""}, kVarintTime,
                                             stored_pattern_match()));
    // A pathological pattern on a long name answers (RE2: linear time).
    const SeriesKey huge{std::string(100'000, 'a') + "b", "time", "class"};
    EXPECT_TRUE(harness::acceptance_applies({0, 1, "c", "(a|a)*b", "", "r", ""}, huge,
                                            stored_pattern_match()));
}

TEST(AcceptedFrom, TheFirstRunAtOrAfterTheLatestApplicableAcceptance) {
    const auto entries = runs({2, 4, 6, 8, 10});
    EXPECT_EQ(harness::accepted_from({}, kVarintTime, entries, stored_pattern_match()),
              std::nullopt);
    const Acceptance at6{1, 6, "c6", "", "", "r", ""};
    EXPECT_EQ(harness::accepted_from({at6}, kVarintTime, entries, stored_pattern_match()), 2U);
    // Run 5 was forgotten (or kept no sample): the baseline starts at the next run, 6.
    const Acceptance at5{2, 5, "c5", "", "", "r", ""};
    EXPECT_EQ(harness::accepted_from({at5}, kVarintTime, entries, stored_pattern_match()), 2U);
    // The latest by run wins, whatever order they were recorded in.
    const Acceptance at8{3, 8, "c8", "varint", "time", "r", ""};
    EXPECT_EQ(harness::accepted_from({at8, at6}, kVarintTime, entries, stored_pattern_match()), 3U);
    // One that does not apply is ignored.
    const Acceptance other{4, 10, "c10", "memcpy", "", "r", ""};
    EXPECT_EQ(harness::accepted_from({at6, other}, kVarintTime, entries, stored_pattern_match()),
              2U);
    // After the series' last run: no run of the series is accepted yet.
    const Acceptance later{5, 11, "c11", "", "", "r", ""};
    EXPECT_EQ(harness::accepted_from({at6, later}, kVarintTime, entries, stored_pattern_match()),
              std::nullopt);
}

TEST(HistoryPattern, OneRe2PatternOrEveryName) {
    EXPECT_TRUE(history_pattern({}).found_in("anything"));
    EXPECT_TRUE(history_pattern({"^var"}).found_in("varint"));
    EXPECT_THROW(history_pattern({"a", "b"}), UsageError);
    try {
        history_pattern({"("});
        ADD_FAILURE() << "an invalid pattern was taken";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("REGEX '('"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace perfgauge::cli

namespace perfgauge::cli {
namespace {

// Google Benchmark runs without --benchmark_repetitions have one sample each: a spread of 0
// stored for them is no interval, and a series of them is noisy, not exact (a 10,000-run A/A
// store of such runs "regressed" by 3.7% when they were read as exact).
TEST(Points, ARunOfOneSampleHasNoSpreadAndMakesNoSeriesExact) {
    std::vector<harness::SeriesEntry> entries(3);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        entries[i].point = {100.0 + static_cast<double>(i), 0};
        entries[i].sample_count = i == 0 ? 5 : 1;
    }
    const auto pts = harness::points(entries);
    EXPECT_EQ(pts[0].spread, 0);
    EXPECT_TRUE(std::isnan(pts[1].spread));
    EXPECT_FALSE(harness::deterministic_series(pts));
    EXPECT_TRUE(harness::deterministic_series(std::span(pts).first(1)));
}

}  // namespace
}  // namespace perfgauge::cli
