#pragma once
// Whether the runs joined on the two sides of a comparison were taken in turn, so that run i
// of one side can be paired with run i of the other (compare_results' paired_runs).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfgauge::harness {

/// Milliseconds since the epoch of an ISO 8601 date with seconds, an optional fraction of a
/// second and an optional UTC offset ("2026-11-25T07:08:24.120+0000", "...+00:00", "...+01",
/// "...Z"; none: taken as UTC, so dates without one order among themselves); nullopt for
/// anything else (signs or spaces inside a field, impossible days or times, offsets beyond
/// 23:59).
std::optional<long long> parse_iso_milliseconds(const std::string& date);

/// The order that sorts `dates` from the earliest, ties in their given order; dates that do not
/// parse go last.
std::vector<std::size_t> by_date(const std::vector<std::string>& dates);

struct RunPairing {
    /// Run i of each side, by date, next to run i of the other: every run of pair i ended
    /// before any run of pair i + 1 (A B A B, A B B A, ...), with at least two pairs.
    bool in_turn = false;
    std::size_t pairs = 0;           ///< the runs a side joined, when both joined as many
    std::size_t baseline_first = 0;  ///< in turn: the pairs whose baseline run came first
    std::string why_not;             ///< not in turn: why, in words
};

/// Each side's run dates, earliest first (by_date). Equal dates cannot be ordered and end the
/// pairing.
RunPairing pair_runs(const std::vector<std::string>& baseline_dates,
                     const std::vector<std::string>& contender_dates);

}  // namespace perfgauge::harness
