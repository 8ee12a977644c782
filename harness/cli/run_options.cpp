#include "run_options.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "perfgauge/harness/cache_probe.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/suggest.hpp"
#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::cli {

namespace {

std::vector<std::string> split_list(const std::string& text, const char* option) {
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty())
            throw UsageError(fmt::format("{}: empty name in '{}'", option, text));
        items.push_back(item);
    }
    if (items.empty())
        throw UsageError(fmt::format("{}: empty list", option));
    return items;
}

[[noreturn]] void unknown_name(const char* option, const std::string& name,
                               const std::vector<std::string>& known) {
    const auto close = pmu::closest_matches(name, known, 3);
    std::string message = fmt::format("{}: unknown name '{}'", option, name);
    if (!close.empty())
        message += fmt::format(" (did you mean {}?)", fmt::join(close, ", "));
    throw UsageError(message + fmt::format("; known: {}", fmt::join(known, ", ")));
}

template <class T, class Parse, class Names>
std::vector<T> parse_names(const std::string& text, const char* option, Parse parse, Names names) {
    std::vector<T> out;
    for (const auto& name : split_list(text, option)) {
        const std::optional<T> value = parse(name);
        if (!value)
            unknown_name(option, name, names());
        out.push_back(*value);
    }
    return out;
}

std::vector<std::string> variant_names() {
    std::vector<std::string> names;
    for (const auto& v : workloads::varint_variants())
        names.emplace_back(v.name);
    return names;
}

std::vector<std::string> distribution_names() {
    std::vector<std::string> names;
    for (const auto d : workloads::all_distributions())
        names.emplace_back(workloads::distribution_name(d));
    return names;
}

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

}  // namespace

std::uint64_t size_option(const std::string& text, const char* option) {
    const auto bytes = workloads::parse_size(text);
    if (!bytes) {
        throw UsageError(fmt::format(
            "{}: '{}' is not a size (a positive number of bytes, optionally with K, M or G)",
            option, text));
    }
    return *bytes;
}

workloads::SuiteSpec suite_spec_from(const po::variables_map& vm,
                                     const workloads::CacheSizes& detected,
                                     std::string* last_level_found_by) {
    workloads::SuiteSpec spec;
    spec.workloads = split_list(vm["workload"].as<std::string>(), "--workload");
    for (const auto& w : spec.workloads) {
        if (w != "varint" && w != "memcpy")
            unknown_name("--workload", w, {"varint", "memcpy"});
    }
    const std::string variants = vm["variant"].as<std::string>();
    spec.variants = variants == "all" ? variant_names() : split_list(variants, "--variant");
    for (const auto& v : spec.variants) {
        if (workloads::find_varint_variant(v) == nullptr)
            unknown_name("--variant", v, variant_names());
    }
    spec.distributions = parse_names<workloads::Distribution>(
        vm["dist"].as<std::string>(), "--dist", workloads::parse_distribution, distribution_names);
    spec.shapes = parse_names<workloads::Shape>(
        vm["shape"].as<std::string>(), "--shape", workloads::parse_shape, [] {
            return std::vector<std::string>{"one-shot", "end-on-end"};
        });
    spec.caches = parse_names<workloads::CacheState>(
        vm["cache"].as<std::string>(), "--cache", workloads::parse_cache_state, [] {
            return std::vector<std::string>{"hot", "cold", "flush"};
        });
    if (vm.count("sizes")) {
        for (const auto& s : split_list(vm["sizes"].as<std::string>(), "--sizes"))
            spec.sizes.push_back(size_option(s, "--sizes"));
    }
    spec.cache_sizes = detected;
    // sysfs may report no last-level cache, or one no CPU has (a hypervisor's figure): measure
    // it rather than label data cold that the cache holds (cache_probe.hpp; kept per machine).
    // Not under valgrind (the simulation child reads the kept answer, or does without).
    std::uint64_t cpuid_l3_ceiling = harness::kLargestPlausibleLastLevel;
    if (!vm.count("l3") &&
        (detected.l3 == 0 || detected.l3 > harness::kLargestPlausibleLastLevel) &&
        !pmu::callgrind::running_on_valgrind()) {
        const auto llc =
            harness::find_last_level_cache(detected.l3, harness::detect_cpu().model_name);
        spec.cache_sizes.l3 = llc.bytes;
        if (last_level_found_by)
            *last_level_found_by = llc.how;
        cpuid_l3_ceiling = 0;  // what was measured stands; CPUID's figure does not replace it
    }
    auto measured = spec.cache_sizes;
    if (vm.count("l1d"))
        spec.cache_sizes.l1d = size_option(vm["l1d"].as<std::string>(), "--l1d");
    if (vm.count("l2"))
        spec.cache_sizes.l2 = size_option(vm["l2"].as<std::string>(), "--l2");
    if (vm.count("l3"))
        spec.cache_sizes.l3 = size_option(vm["l3"].as<std::string>(), "--l3");
    spec.cache_sizes_given = vm.count("l1d") || vm.count("l2") || vm.count("l3");
    spec.machine_caches = detected;
    spec.machine_caches.l3 = measured.l3;
    // Some hypervisors give no sysfs cache directory; CPUID (via glibc) may still know them.
    const auto cpuid = workloads::cache_sizes_from(harness::cpuid_cache_levels());
    const auto fill = [](std::uint64_t& level, std::uint64_t fallback) {
        if (level == 0)
            level = fallback;
    };
    fill(spec.machine_caches.l1d, cpuid.l1d);
    fill(spec.machine_caches.l2, cpuid.l2);
    if (cpuid.l3 <= cpuid_l3_ceiling)  // never a size no CPU has
        fill(spec.machine_caches.l3, cpuid.l3);
    spec.data_seed = vm["data-seed"].as<std::uint64_t>();
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

std::vector<std::string> suite_arguments(const po::variables_map& vm) {
    std::vector<std::string> out;
    for (const char* name :
         {"workload", "variant", "dist", "shape", "cache", "sizes", "l1d", "l2", "l3"}) {
        if (vm.count(name))
            out.push_back(fmt::format("--{}={}", name, vm[name].as<std::string>()));
    }
    out.push_back(fmt::format("--data-seed={}", vm["data-seed"].as<std::uint64_t>()));
    return out;
}

}  // namespace perfgauge::cli
