#include "perfgauge/pmu/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace perfgauge::pmu {

namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

}  // namespace

std::string to_lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), lower);
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Three rows suffice for the transposition rule.
    std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const bool same = lower(a[i - 1]) == lower(b[j - 1]);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1])) {
                cur[j] = std::min(cur[j], prev2[j - 2] + 1);
            }
        }
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string>& candidates,
                                         std::size_t limit) {
    const std::size_t threshold = std::max<std::size_t>(2, word.size() / 5);
    const std::string needle = to_lower(word);
    struct Scored {
        std::size_t score;
        std::size_t order;
        const std::string* name;
    };
    std::vector<Scored> scored;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string& candidate = candidates[i];
        if (!seen.insert(to_lower(candidate)).second)
            continue;
        const std::size_t distance = edit_distance(word, candidate);
        const std::string hay = to_lower(candidate);
        const bool contains = needle.size() >= 3 && (hay.find(needle) != std::string::npos ||
                                                     needle.find(hay) != std::string::npos);
        if (distance <= threshold) {
            scored.push_back({distance, i, &candidate});
        } else if (contains) {
            // Substring matches rank after every near-miss spelling.
            scored.push_back({threshold + 1 + distance, i, &candidate});
        }
    }
    std::stable_sort(scored.begin(), scored.end(), [](const Scored& x, const Scored& y) {
        return x.score != y.score ? x.score < y.score : x.order < y.order;
    });
    std::vector<std::string> result;
    for (const auto& s : scored) {
        if (result.size() == limit)
            break;
        result.push_back(*s.name);
    }
    return result;
}

}  // namespace perfgauge::pmu
