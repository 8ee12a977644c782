#include "perfgauge/workloads/cache_sweep.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/workloads/placement.hpp"

namespace perfgauge::workloads {

CacheSizes cache_sizes_from(const std::vector<harness::CacheLevel>& caches) {
    CacheSizes sizes;
    for (const auto& c : caches) {
        if (c.type != "Data" && c.type != "Unified")
            continue;
        const auto bytes = static_cast<std::uint64_t>(c.size_bytes);
        if (c.level == 1)
            sizes.l1d = bytes;
        else if (c.level == 2)
            sizes.l2 = bytes;
        else if (c.level == 3)
            sizes.l3 = bytes;
    }
    return sizes;
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
    std::uint64_t number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || end == text.data())
        return std::nullopt;
    std::string suffix(end, text.data() + text.size());
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (suffix.ends_with("IB"))
        suffix.erase(suffix.size() - 2);
    else if (suffix.size() > 1 && suffix.ends_with("B"))
        suffix.pop_back();
    else if (suffix == "B")
        suffix.clear();
    unsigned shift = 0;
    if (suffix == "K")
        shift = 10;
    else if (suffix == "M")
        shift = 20;
    else if (suffix == "G")
        shift = 30;
    else if (!suffix.empty())
        return std::nullopt;
    if (number == 0 || number > (std::numeric_limits<std::uint64_t>::max() >> shift))
        return std::nullopt;
    return number << shift;
}

std::string size_label(std::uint64_t bytes) {
    constexpr std::pair<unsigned, const char*> units[] = {{30, "G"}, {20, "M"}, {10, "K"}};
    for (const auto& [shift, unit] : units) {
        const std::uint64_t one = std::uint64_t{1} << shift;
        if (bytes >= one && bytes % one == 0)
            return fmt::format("{}{}", bytes >> shift, unit);
    }
    return fmt::format("{}B", bytes);
}

bool inside_a_level(const CacheSizes& caches, std::uint64_t size) {
    // Beyond L1, a level's first power of 4 and its point (L2/2, L3/2) already say what the
    // level does; the powers of 4 between them measure it again. Not in L1, where a hot
    // buffer's size decides whether the branch predictor learns it: on a Sapphire Rapids VM
    // bmi2 against branchy was slower up to 4K, undecided at 16K, faster from 36K.
    const std::pair<std::uint64_t, std::uint64_t> levels[] = {{caches.l1d, caches.l2 / 2},
                                                              {caches.l2, caches.l3 / 2}};
    for (const auto& [below, point] : levels) {
        if (below == 0 || point <= below)
            continue;
        std::uint64_t first = 16;  // the level's first power of 4
        while (first <= below && first <= std::numeric_limits<std::uint64_t>::max() / 4)
            first *= 4;
        if (size > first && size < point)
            return true;
    }
    return false;
}

std::vector<std::uint64_t> sweep_sizes(const CacheSizes& caches, std::uint64_t smallest) {
    const std::uint64_t llc = caches.last_level();
    // 2x the last-level cache is past it, hot or cold (the cold rotation spans that much): here
    // every workload's time at 4x agreed with 2x within 1%, and the 4x point (143M on a 36 MiB
    // L3) took the longest samples of the default suite, half of its time.
    // Saturating: --l3 takes any size, and the memory check refuses what does not fit later.
    const std::uint64_t largest = llc ? saturating_mul(2, llc) : std::uint64_t{64} << 20;
    std::vector<std::uint64_t> points = {largest};  // where the caches are
    for (const std::uint64_t point :
         {caches.l1d / 4 * 3, caches.l2 / 2, caches.l3 / 2, saturating_mul(2, caches.l3)}) {
        if (point > 0)
            points.push_back(point);
    }
    // A power of 4 within 25% of a cache's point measures the same thing again: 16M beside a
    // 36 MiB L3's 18304K, 64M beside its 73216K (the largest working sets cost the most time).
    const auto near_a_point = [&](std::uint64_t s) {
        return std::any_of(points.begin(), points.end(), [s](std::uint64_t point) {
            const std::uint64_t low = std::min(s, point);
            return s != point && std::max(s, point) - low < low / 4;
        });
    };
    std::vector<std::uint64_t> sizes = {std::max<std::uint64_t>(1, smallest)};
    for (std::uint64_t s = 16; s < largest; s = s <= largest / 4 ? s * 4 : largest) {
        if (!near_a_point(s) && !inside_a_level(caches, s))
            sizes.push_back(s);
    }
    sizes.insert(sizes.end(), points.begin(), points.end());
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

}  // namespace perfgauge::workloads
