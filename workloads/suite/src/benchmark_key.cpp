#include "perfgauge/workloads/benchmark_key.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/workloads/cache_sweep.hpp"

namespace perfgauge::workloads {

namespace {

const std::string& param(const BenchmarkParams& params, const std::string& key) {
    for (const auto& [k, v] : params) {
        if (k == key)
            return v;
    }
    throw std::logic_error("a built-in benchmark without the param " + key);
}

template <class T>
T parsed(std::optional<T> value, const std::string& key, const std::string& text) {
    if (!value)
        throw std::logic_error(fmt::format("a built-in benchmark's {} '{}' is unknown", key, text));
    return *value;
}

}  // namespace

std::string_view shape_name(Shape s) {
    return s == Shape::one_shot ? "one-shot" : "end-on-end";
}

std::optional<Shape> parse_shape(std::string_view name) {
    if (name == "one-shot")
        return Shape::one_shot;
    if (name == "end-on-end")
        return Shape::end_on_end;
    return std::nullopt;
}

std::string_view cache_state_name(CacheState c) {
    switch (c) {
        case CacheState::hot:
            return "hot";
        case CacheState::cold:
            return "cold";
        case CacheState::flush:
            return "flush";
    }
    return "?";
}

std::optional<CacheState> parse_cache_state(std::string_view name) {
    for (const auto c : {CacheState::hot, CacheState::cold, CacheState::flush}) {
        if (cache_state_name(c) == name)
            return c;
    }
    return std::nullopt;
}

std::string benchmark_name(const BenchmarkKey& key) {
    const auto dist = distribution_name(key.dist);
    const auto cache = cache_state_name(key.cache);
    if (!key.shape)
        return fmt::format("memcpy/{}/{}/{}", dist, cache, size_label(key.size_bytes));
    if (*key.shape == Shape::one_shot)  // the varint's own length, in bytes
        return fmt::format("varint/{}/{}/one-shot/{}/{}B", key.variant, dist, cache,
                           key.size_bytes);
    return fmt::format("varint/{}/{}/end-on-end/{}/{}", key.variant, dist, cache,
                       size_label(key.size_bytes));
}

BenchmarkParams key_params(const BenchmarkKey& key) {
    return {{"workload", key.workload},
            {"variant", key.variant},
            {"dist", std::string(distribution_name(key.dist))},
            {"shape", key.shape ? std::string(shape_name(*key.shape)) : std::string("-")},
            {"cache", std::string(cache_state_name(key.cache))},
            {"size_bytes", std::to_string(key.size_bytes)}};
}

BenchmarkKey key_from_params(const BenchmarkParams& params) {
    BenchmarkKey key;
    key.workload = param(params, "workload");
    key.variant = param(params, "variant");
    const auto& dist = param(params, "dist");
    key.dist = parsed(parse_distribution(dist), "dist", dist);
    if (const auto& shape = param(params, "shape"); shape != "-")
        key.shape = parsed(parse_shape(shape), "shape", shape);
    const auto& cache = param(params, "cache");
    key.cache = parsed(parse_cache_state(cache), "cache", cache);
    key.size_bytes = std::stoull(param(params, "size_bytes"));
    return key;
}

}  // namespace perfgauge::workloads
