// Checks of a SuiteSpec made before any data exists: whether it can mean what it says, the
// sizes it runs and the bytes it will allocate.
#include <algorithm>

#include <fmt/format.h>

#include "perfgauge/workloads/placement.hpp"
#include "suite_plan.hpp"

namespace perfgauge::workloads {

std::vector<std::uint64_t> suite_sizes(const SuiteSpec& spec) {
    return spec.sizes.empty() ? sweep_sizes(spec.cache_sizes, 1) : spec.sizes;
}

std::string selection_refusal(const SuiteSpec& spec) {
    const bool varint = selected<std::string>(spec.workloads, "varint");
    const bool cold = selected(spec.caches, CacheState::cold);
    if (varint && cold && spec.caches.size() == 1 && !selected(spec.shapes, Shape::end_on_end)) {
        return fmt::format(
            "--shape one-shot with --cache cold only: {} (its few bytes stay in L1 whatever runs "
            "between decodes), so nothing would run cold; a cold single varint is --cache flush "
            "(clflush before every decode), cold data is --shape end-on-end",
            kOneShotNeverCold);
    }
    // Cold rotates over 2x the given last-level cache (at least two lines); when even that
    // fits in the machine's L1d, every window stays in L1 and cold runs hot. A larger given
    // cache is cold at least for itself (and for the simulated one): build_suite notes when it
    // is below the machine's own.
    const std::uint64_t given = spec.cache_sizes.last_level();
    const std::uint64_t rotation = saturating_mul(2, std::max<std::uint64_t>(given, kCacheLine));
    const std::uint64_t l1d = spec.machine_caches.l1d;
    if (cold && spec.cache_sizes_given && rotation < l1d) {
        return fmt::format(
            "--cache cold with a last-level cache of {} (--l3, or --l2/--l1d without it): the "
            "cold rotation covers 2x that, {}, which fits in this machine's {} L1 data cache, so "
            "cold would run hot under the label cold. Give the real last-level cache size, or "
            "leave out cold",
            size_label(given), size_label(rotation), size_label(l1d));
    }
    return "";
}

std::uint64_t suite_bytes_needed(const SuiteSpec& spec) {
    const bool memcpy = selected<std::string>(spec.workloads, "memcpy");
    const bool sized = memcpy || (selected<std::string>(spec.workloads, "varint") &&
                                  selected(spec.shapes, Shape::end_on_end));
    const auto sizes = suite_sizes(spec);
    std::uint64_t per_distribution =
        sized ? arena_bytes_needed(sizes, cold_rotates(spec), spec.cache_sizes,
                                   spec.max_items_per_iteration)
              : 4096;
    if (memcpy) {
        // One destination per memcpy benchmark, as large as its largest window (+1/8 spread).
        for (std::size_t c = 0; c < spec.caches.size(); ++c) {
            for (const std::uint64_t size : sizes)
                per_distribution = saturating_add(per_distribution,
                                                  saturating_add(size, size / 8 + kVarintPadding));
        }
    }
    const std::uint64_t eviction =
        selected(spec.caches, CacheState::cold) && spec.cold.method == ColdMethod::eviction_buffer
            ? spec.cold.eviction_bytes
            : 0;
    return saturating_add(
        saturating_mul(per_distribution, std::max<std::uint64_t>(1, spec.distributions.size())),
        eviction);
}

}  // namespace perfgauge::workloads
