#include "run_options.hpp"

#include <optional>
#include <sstream>
#include <vector>

#include <fmt/format.h>

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
                                     const workloads::CacheSizes& detected) {
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
    if (vm.count("l1d"))
        spec.cache_sizes.l1d = size_option(vm["l1d"].as<std::string>(), "--l1d");
    if (vm.count("l2"))
        spec.cache_sizes.l2 = size_option(vm["l2"].as<std::string>(), "--l2");
    if (vm.count("l3"))
        spec.cache_sizes.l3 = size_option(vm["l3"].as<std::string>(), "--l3");
    spec.data_seed = vm["data-seed"].as<std::uint64_t>();
    return spec;
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
