#include "perfgauge/workloads/suite_here.hpp"

#include <valgrind/valgrind.h>

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "perfgauge/harness/cache_probe.hpp"
#include "perfgauge/harness/system_info.hpp"

namespace perfgauge::workloads {

namespace {

// "1.1 TiB (1209462790553 bytes)": readable, and exact for whoever checks.
std::string bytes_text(std::uint64_t bytes) {
    constexpr const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024 && unit + 1 < std::size(units)) {
        value /= 1024;
        ++unit;
    }
    if (unit == 0)
        return fmt::format("{} bytes", bytes);
    return fmt::format("{:.1f} {} ({} bytes)", value, units[unit], bytes);
}

// The machine's caches as best known: sysfs, else CPUID (some hypervisors give no sysfs cache
// directory; CPUID, via glibc, may still know them), never a last level no CPU has.
CacheSizes machine_caches(CacheSizes known, std::uint64_t l3_ceiling) {
    const auto cpuid = cache_sizes_from(harness::cpuid_cache_levels());
    const auto fill = [](std::uint64_t& level, std::uint64_t fallback) {
        if (level == 0)
            level = fallback;
    };
    fill(known.l1d, cpuid.l1d);
    fill(known.l2, cpuid.l2);
    if (cpuid.l3 <= l3_ceiling)
        fill(known.l3, cpuid.l3);
    return known;
}

}  // namespace

std::optional<std::string> fit_caches_here(SuiteSpec& spec, const CacheSizes& detected,
                                           const GivenCaches& given) {
    std::optional<std::string> found_by;
    spec.cache_sizes = detected;
    // sysfs may report no last-level cache, or one no CPU has (a hypervisor's figure): measure
    // it rather than label data cold that the cache holds (cache_probe.hpp; kept per machine).
    // Not measured under valgrind: the simulation child reads the kept answer, or does without.
    const bool under_valgrind = RUNNING_ON_VALGRIND != 0;
    std::uint64_t cpuid_l3_ceiling = harness::kLargestPlausibleLastLevel;
    if (!given.l3 && (detected.l3 == 0 || detected.l3 > harness::kLargestPlausibleLastLevel)) {
        const auto llc = harness::find_last_level_cache(
            detected.l3, harness::detect_cpu().model_name, !under_valgrind);
        spec.cache_sizes.l3 = llc.bytes;
        found_by = llc.how;
        cpuid_l3_ceiling = 0;  // what was measured stands; CPUID's figure does not replace it
    }
    auto known = detected;
    known.l3 = spec.cache_sizes.l3;
    spec.cache_sizes.l1d = given.l1d.value_or(spec.cache_sizes.l1d);
    spec.cache_sizes.l2 = given.l2.value_or(spec.cache_sizes.l2);
    spec.cache_sizes.l3 = given.l3.value_or(spec.cache_sizes.l3);
    spec.cache_sizes_given = given.l1d || given.l2 || given.l3;
    spec.machine_caches = machine_caches(known, cpuid_l3_ceiling);
    // Without a believable last-level size cold data is evicted before each iteration instead
    // of rotated (cold_preparation.hpp): "cold" stays cold.
    // Under valgrind plain clflush (VEX decodes it; the flush is paused, so never counted).
    auto flush = flush_instructions_here();
    flush.clflushopt = flush.clflushopt && !under_valgrind;
    spec.cold =
        choose_cold_preparation({spec.cache_sizes.l3, given.l3.has_value(), spec.machine_caches.l2,
                                 harness::kLargestPlausibleLastLevel},
                                flush);
    return found_by;
}

std::string memory_refusal(const SuiteSpec& spec, std::optional<std::uint64_t> available) {
    if (!available)
        return "";  // unknown: let the allocation decide (main reports a failed one plainly)
    const std::uint64_t needed = suite_bytes_needed(spec);
    if (harness::fits_in_memory(needed, *available))
        return "";
    const auto sizes = suite_sizes(spec);
    const std::uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
    return fmt::format(
        "{}: the largest working set, {}, makes the run allocate {} of data (varints{}{}), but "
        "only {} is available (MemAvailable); perfgauge uses at most 90% of it. Give smaller "
        "--sizes{}",
        spec.sizes.empty() ? "the sweep" : "--sizes", size_label(largest), bytes_text(needed),
        std::find(spec.caches.begin(), spec.caches.end(), CacheState::cold) != spec.caches.end()
            ? ", cold windows over 2x the last-level cache"
            : "",
        std::find(spec.workloads.begin(), spec.workloads.end(), "memcpy") != spec.workloads.end()
            ? ", memcpy's copies"
            : "",
        bytes_text(*available), spec.sizes.empty() ? " (or a smaller --l3)" : "");
}

}  // namespace perfgauge::workloads
