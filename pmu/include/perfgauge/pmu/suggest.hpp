// "Did you mean ...?" for unknown event names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perfgauge::pmu {

/// ASCII lower case: event names are matched case-insensitively (libpfm4 does the same).
std::string to_lower(std::string_view text);

/// Optimal-string-alignment edit distance (insert, delete, substitute, swap neighbours),
/// case-insensitive: event names are matched case-insensitively by libpfm4 too.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// Up to `limit` candidates closest to `word`, nearest first (ties keep candidate order).
/// A candidate qualifies when its distance is at most max(2, |word|/5), or when one contains
/// the other case-insensitively (e.g. "RETIRED" for "RETIRED_INSTRUCTIONS").
std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string>& candidates,
                                         std::size_t limit = 5);

}  // namespace perfgauge::pmu
