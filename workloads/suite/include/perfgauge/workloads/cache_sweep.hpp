// Working-set sizes: cache sizes (from sysfs, overridable), size parsing and labels, and the
// default log-spaced sweep with points placed relative to each cache level.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/harness/system_facts.hpp"

namespace perfgauge::workloads {

struct CacheSizes {
    std::uint64_t l1d = 0;
    std::uint64_t l2 = 0;
    std::uint64_t l3 = 0;  ///< the last level; 0 when the machine reports none
    std::uint64_t last_level() const { return l3 ? l3 : l2 ? l2 : l1d; }
};

/// Data/unified caches by level; levels the machine does not report stay 0.
CacheSizes cache_sizes_from(const std::vector<harness::CacheLevel>& caches);

/// "4096", "4K", "256K", "64M", "1G" (binary multiples, case-insensitive, optional "B"/"iB").
/// nullopt for anything else, zero, or overflow.
std::optional<std::uint64_t> parse_size(std::string_view text);

/// The shortest exact label: "24K", "16M", "3B" (used in benchmark names).
std::string size_label(std::uint64_t bytes);

/// Whether `size` is a power of 4 the sweep leaves out as adding nothing within its cache
/// level: beyond L1, between the level's first power of 4 (above the level below) and the
/// level's own point (L2/2 for L2, L3/2 for L3). L1 keeps every power of 4.
bool inside_a_level(const CacheSizes& caches, std::uint64_t size);

/// From `smallest` (one item) to 2x the last-level cache: powers of 4 from 16 bytes, plus
/// 3/4 L1d, L2/2, L3/2 and 2 L3 (those the machine has), which replace a power of 4 within 25%
/// of them, less those inside_a_level(); sorted, without duplicates.
std::vector<std::uint64_t> sweep_sizes(const CacheSizes& caches, std::uint64_t smallest);

}  // namespace perfgauge::workloads
