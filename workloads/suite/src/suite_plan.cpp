#include "suite_plan.hpp"

#include <cmath>

#include <fmt/format.h>

#include "perfgauge/workloads/placement.hpp"
#include "perfgauge/workloads/variant_availability.hpp"

namespace perfgauge::workloads {

namespace {

// The largest working set that cold would place in a single window - the hot buffer again -
// although it fits in the machine's last-level cache; 0 when there is none.
std::uint64_t largest_hot_cold_size(const SuiteSpec& spec,
                                    const std::vector<std::uint64_t>& sizes) {
    const std::uint64_t machine = spec.machine_caches.last_level();
    std::uint64_t largest = 0;
    if (!cold_rotates(spec))
        return 0;
    for (const std::uint64_t size : sizes) {
        if (cold_window_count(spec.cache_sizes, size) == 1 && size <= machine)
            largest = std::max(largest, size);
    }
    return largest;
}

// Cold rotates over windows covering 2x the last-level cache *used*; when that is smaller than
// the machine's, native cold data partly stays cached. Said, not refused: --l3 below the real
// cache keeps test data small, and the simulated caches are sized from it (there cold is cold).
std::string cold_caveat(const SuiteSpec& spec) {
    const std::uint64_t used = spec.cache_sizes.last_level();
    const std::uint64_t machine = spec.machine_caches.last_level();
    if (!selected(spec.caches, CacheState::cold))
        return "";
    if (!cold_rotates(spec)) {
        return fmt::format(
            "cold is evicted, not rotated: {}, so every cold iteration's data is evicted from "
            "the caches by {} first, with the timer and counters paused",
            spec.cold.why.empty() ? std::string("no last-level cache size") : spec.cold.why,
            cold_method_name(spec.cold.method));
    }
    if (used == 0 && machine == 0) {
        return "cold cannot be cold: no last-level cache size is known (sysfs, CPUID), so its "
               "rotation has a single window for working sets of 128 bytes or more; give --l3";
    }
    if (used >= machine)
        return "";
    if (const auto hot = largest_hot_cold_size(spec, suite_sizes(spec)); hot > 0) {
        return fmt::format(
            "cold is hot up to {}: {}, so the cold rotation has a single window for those "
            "working sets although they fit in this machine's {} last-level cache; give --l3 "
            "{}",
            size_label(hot),
            spec.cache_sizes_given
                ? fmt::format("the last-level cache given is {}", size_label(used))
                : std::string("sysfs reports no last-level cache"),
            size_label(machine), size_label(machine));
    }
    return fmt::format(
        "cold rotates over windows covering 2x the last-level cache used ({}), which is smaller "
        "than this machine's ({}): cold data may still be served by the machine's own caches, so "
        "native cold times are not fully cold (simulated counts use the cache given)",
        size_label(used), size_label(machine));
}

// The selected variants that run here (on `cpu`, and under valgrind when simulated), each
// skipped one said in `notes` with why, with the caveats of those kept.
std::vector<const VarintVariant*> runnable_variants(const SuiteSpec& spec,
                                                    const harness::CpuInfo& cpu,
                                                    std::vector<std::string>& notes) {
    std::vector<const VarintVariant*> variants;
    for (const auto& name : spec.variants) {
        const VarintVariant* v = find_varint_variant(name);
        if (v == nullptr)
            throw SuiteError(fmt::format("unknown varint variant '{}'", name));
        if (const auto why = unavailable_reason(*v, cpu); !why.empty()) {
            notes.push_back(fmt::format("skipped: {}", why));
            continue;
        }
        if (const auto why = unsimulated_reason(*v); spec.simulated && !why.empty()) {
            notes.push_back(fmt::format(
                "skipped: {}, and this run simulates counters; for its times: --backend perf, "
                "or -e with software events only",
                why));
            continue;
        }
        if (const auto c = caveat(*v, cpu); !c.empty())
            notes.push_back(c);
        variants.push_back(v);
    }
    return variants;
}

}  // namespace

bool cold_rotates(const SuiteSpec& spec) {
    return selected(spec.caches, CacheState::cold) && spec.cold.method == ColdMethod::rotation;
}

SuitePlan plan_suite(const SuiteSpec& spec, const harness::CpuInfo& cpu) {
    SuitePlan plan;
    const bool want_varint = selected<std::string>(spec.workloads, "varint");
    plan.memcpy = selected<std::string>(spec.workloads, "memcpy");
    for (const auto& w : spec.workloads) {
        if (w != "varint" && w != "memcpy")
            throw SuiteError(fmt::format("unknown workload '{}' (known: varint, memcpy)", w));
    }
    if (want_varint)
        plan.variants = runnable_variants(spec, cpu, plan.notes);
    if (plan.variants.empty() && !plan.memcpy)
        throw SuiteError("nothing to run: no selected varint variant runs on this CPU");
    plan.one_shot = !plan.variants.empty() && selected(spec.shapes, Shape::one_shot);
    plan.end_on_end = selected(spec.shapes, Shape::end_on_end);
    if (plan.one_shot && selected(spec.caches, CacheState::cold))
        plan.notes.push_back(
            fmt::format("{}: one-shot runs hot and flush only", kOneShotNeverCold));
    if (const auto caveat = cold_caveat(spec); !caveat.empty())
        plan.notes.push_back(caveat);
    plan.sized = plan.memcpy || (!plan.variants.empty() && plan.end_on_end);
    return plan;
}

std::uint64_t arena_bytes(const SuiteSpec& spec, const SuitePlan& plan) {
    return plan.sized ? arena_bytes_needed(suite_sizes(spec), cold_rotates(spec), spec.cache_sizes,
                                           spec.max_items_per_iteration)
                      : 4096;
}

std::vector<std::uint64_t> sizes_for(const SuiteSpec& spec, double mean_size) {
    // Sizes in the largest form they can take (the one-item point needs the arena's mean).
    return spec.sizes.empty()
               ? sweep_sizes(spec.cache_sizes, static_cast<std::uint64_t>(std::ceil(mean_size)))
               : spec.sizes;
}

std::vector<BenchmarkKey> distribution_keys(const SuiteSpec& spec, const SuitePlan& plan,
                                            Distribution dist, const ArenaFacts& facts) {
    std::vector<BenchmarkKey> keys;
    if (plan.one_shot) {
        for (const CacheState cache : spec.caches) {
            if (cache == CacheState::cold)
                continue;
            for (const auto* v : plan.variants)
                keys.push_back({"varint", std::string(v->name), dist, Shape::one_shot, cache,
                                facts.first_length});
        }
    }
    if (!plan.sized)
        return keys;
    for (const CacheState cache : spec.caches) {
        for (const std::uint64_t size : sizes_for(spec, facts.mean_size)) {
            if (plan.end_on_end) {
                for (const auto* v : plan.variants)
                    keys.push_back(
                        {"varint", std::string(v->name), dist, Shape::end_on_end, cache, size});
            }
            if (plan.memcpy)
                keys.push_back({"memcpy", "memcpy", dist, std::nullopt, cache, size});
        }
    }
    return keys;
}

SuiteListing enumerate(const SuiteSpec& spec, const harness::CpuInfo& cpu) {
    const SuitePlan plan = plan_suite(spec, cpu);
    SuiteListing listing;
    listing.notes = plan.notes;
    const std::uint64_t bytes = arena_bytes(spec, plan);
    for (const Distribution dist : spec.distributions) {
        ArenaFacts facts;
        if (plan.one_shot)  // the arena's first varint is the generator's first value
            facts.first_length = varint32_size(ValueGenerator(dist, spec.data_seed).next());
        if (plan.sized && spec.sizes.empty())  // the sweep starts at one varint of the mean
            facts.mean_size = varint_arena_extent(dist, bytes, spec.data_seed).mean_size();
        for (auto& key : distribution_keys(spec, plan, dist, facts)) {
            auto name = benchmark_name(key);
            auto params = key_params(key);
            listing.benchmarks.push_back({std::move(name), std::move(params), std::move(key)});
        }
    }
    if (listing.benchmarks.empty())
        throw SuiteError("nothing to run: the selection leaves no benchmark");
    return listing;
}

}  // namespace perfgauge::workloads
