#include "run/suite.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "perfgauge/harness/cache_probe.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/callgrind.hpp"

namespace perfgauge::cli {

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

std::string param(const std::vector<std::pair<std::string, std::string>>& params,
                  const std::string& key) {
    for (const auto& [k, v] : params) {
        if (k == key)
            return v;
    }
    throw std::logic_error("a built-in benchmark without the param " + key);
}

// The machine's caches as best known: sysfs, else CPUID (some hypervisors give no sysfs cache
// directory; CPUID, via glibc, may still know them), never a last level no CPU has.
workloads::CacheSizes machine_caches(workloads::CacheSizes known, std::uint64_t l3_ceiling) {
    const auto cpuid = workloads::cache_sizes_from(harness::cpuid_cache_levels());
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

workloads::SuiteSpec suite_spec_from(const harness::SuiteSelection& selection,
                                     const workloads::CacheSizes& detected,
                                     std::string* last_level_found_by) {
    workloads::SuiteSpec spec;
    spec.workloads = selection.workloads;
    spec.variants = selection.variants;
    spec.distributions = selection.distributions;
    spec.shapes = selection.shapes;
    spec.caches = selection.caches;
    spec.sizes = selection.sizes;
    spec.cache_sizes = detected;
    // sysfs may report no last-level cache, or one no CPU has (a hypervisor's figure): measure
    // it rather than label data cold that the cache holds (cache_probe.hpp; kept per machine).
    // Not measured under valgrind: the simulation child reads the kept answer, or does without.
    const bool under_valgrind = pmu::callgrind::running_on_valgrind();
    std::uint64_t cpuid_l3_ceiling = harness::kLargestPlausibleLastLevel;
    if (!selection.l3 && (detected.l3 == 0 || detected.l3 > harness::kLargestPlausibleLastLevel)) {
        const auto llc = harness::find_last_level_cache(
            detected.l3, harness::detect_cpu().model_name, !under_valgrind);
        spec.cache_sizes.l3 = llc.bytes;
        if (last_level_found_by)
            *last_level_found_by = llc.how;
        cpuid_l3_ceiling = 0;  // what was measured stands; CPUID's figure does not replace it
    }
    auto known = detected;
    known.l3 = spec.cache_sizes.l3;
    spec.cache_sizes.l1d = selection.l1d.value_or(spec.cache_sizes.l1d);
    spec.cache_sizes.l2 = selection.l2.value_or(spec.cache_sizes.l2);
    spec.cache_sizes.l3 = selection.l3.value_or(spec.cache_sizes.l3);
    spec.cache_sizes_given = selection.l1d || selection.l2 || selection.l3;
    spec.machine_caches = machine_caches(known, cpuid_l3_ceiling);
    // Without a believable last-level size cold data is evicted before each iteration instead
    // of rotated (cold_preparation.hpp): "cold" stays cold.
    // Under valgrind plain clflush (VEX decodes it; the flush is paused, so never counted).
    auto flush = workloads::flush_instructions_here();
    flush.clflushopt = flush.clflushopt && !under_valgrind;
    spec.cold = workloads::choose_cold_preparation(
        {spec.cache_sizes.l3, selection.l3.has_value(), spec.machine_caches.l2,
         harness::kLargestPlausibleLastLevel},
        flush);
    spec.data_seed = selection.data_seed;
    if (const auto why = workloads::selection_refusal(spec); !why.empty())
        throw UsageError(why);
    return spec;
}

void check_suite_memory(const workloads::SuiteSpec& spec) {
    const auto available = harness::available_memory_bytes();
    if (!available)
        return;  // unknown: let the allocation decide (main reports a failed one plainly)
    const std::uint64_t needed = workloads::suite_bytes_needed(spec);
    if (harness::fits_in_memory(needed, *available))
        return;
    const auto sizes = workloads::suite_sizes(spec);
    const std::uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
    throw UsageError(fmt::format(
        "{}: the largest working set, {}, makes the run allocate {} of data (varints{}{}), but "
        "only {} is available (MemAvailable); perfgauge uses at most 90% of it. Give smaller "
        "--sizes{}",
        spec.sizes.empty() ? "the sweep" : "--sizes", workloads::size_label(largest),
        bytes_text(needed),
        std::find(spec.caches.begin(), spec.caches.end(), workloads::CacheState::cold) !=
                spec.caches.end()
            ? ", cold windows over 2x the last-level cache"
            : "",
        std::find(spec.workloads.begin(), spec.workloads.end(), "memcpy") != spec.workloads.end()
            ? ", memcpy's copies"
            : "",
        bytes_text(*available), spec.sizes.empty() ? " (or a smaller --l3)" : ""));
}

harness::SuiteSelection single_benchmark_selection(
    const harness::SuiteSelection& selection,
    const std::vector<std::pair<std::string, std::string>>& params) {
    harness::SuiteSelection one;
    one.workloads = {param(params, "workload")};
    if (one.workloads.front() == "varint") {  // memcpy has neither ("memcpy" and "-")
        one.variants = {param(params, "variant")};
        one.shapes = {*workloads::parse_shape(param(params, "shape"))};
    }
    one.distributions = {*workloads::parse_distribution(param(params, "dist"))};
    one.caches = {*workloads::parse_cache_state(param(params, "cache"))};
    one.sizes = {std::stoull(param(params, "size_bytes"))};
    one.l1d = selection.l1d;
    one.l2 = selection.l2;
    one.l3 = selection.l3;
    one.data_seed = selection.data_seed;
    return one;
}

}  // namespace perfgauge::cli
