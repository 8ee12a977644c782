#include "perfgauge/workloads/suite.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "perfgauge/workloads/variant_availability.hpp"
#include "placement.hpp"

namespace perfgauge::workloads {

namespace {

using Param = std::pair<std::string, std::string>;

// Every variant must reproduce the reference exactly on the data it is about to be timed on
// (`expected`: the reference's parse of the whole arena, computed once for every variant).
void check_against_reference(const VarintVariant& v, const VarintArena& arena, Distribution dist,
                             const VarintParse& expected) {
    const auto* begin = arena.bytes.data();
    const auto got = v.parse(begin, arena.bytes.end(), arena.count);
    const auto one_expected = decode_varint32_reference(begin, arena.bytes.end());
    if (got != expected || v.decode(begin, arena.bytes.end()) != one_expected ||
        v.repeat(begin, arena.bytes.end(), 3) !=
            3 * (std::uint64_t{one_expected.value} + one_expected.length)) {
        throw SuiteError(fmt::format(
            "variant '{}' disagrees with the reference decoder on {} data ({} varints): sum {} "
            "vs {}, parsed {} vs {}, status {} vs {}; not measuring a wrong decoder",
            v.name, distribution_name(dist), arena.count, got.sum, expected.sum, got.parsed,
            expected.parsed, status_name(got.status), status_name(expected.status)));
    }
}

// How a benchmark's data is readied before each iteration: nothing (hot), the next window (cold
// by rotation), or evicted with the timer and counters paused (flush; cold without a usable
// last-level size, by the method SuiteSpec::cold chose).
struct Readying {
    bool rotate = false;
    std::optional<ColdMethod> evict_by;
    std::shared_ptr<std::vector<std::uint8_t>> eviction;  // eviction_buffer's
};

Readying readying(CacheState cache, const ColdPreparation& cold,
                  const std::shared_ptr<std::vector<std::uint8_t>>& eviction) {
    Readying r;
    if (cache == CacheState::flush) {
#if defined(__aarch64__)
        r.evict_by = ColdMethod::dc_civac;
#else
        r.evict_by = ColdMethod::clflush;
#endif
    } else if (cache == CacheState::cold) {
        r.rotate = cold.method == ColdMethod::rotation;
        if (!r.rotate) {
            r.evict_by = cold.method;
            r.eviction = eviction;
        }
    }
    return r;
}

harness::Benchmark varint_end_on_end(const VarintVariant& v,
                                     std::shared_ptr<const VarintArena> arena,
                                     std::shared_ptr<const Placement> placement,
                                     const Readying& readying) {
    harness::Benchmark b;
    b.items_per_iteration = static_cast<double>(placement->items);
    b.bytes_per_iteration = placement->mean_span();
    const auto parse = v.parse;
    if (readying.rotate) {
        b.run = [arena, placement, parse, next = std::size_t{0}](harness::BatchState& s) mutable {
            const auto& windows = placement->windows;
            for (std::uint64_t i = 0; i < s.iterations(); ++i) {
                const std::uint8_t* p = arena->bytes.data() + windows[next].offset;
                next = next + 1 == windows.size() ? 0 : next + 1;
                harness::benchmark_sink(parse(p, arena->bytes.end(), placement->items).sum);
            }
        };
    } else if (readying.evict_by) {
        b.run = [arena, placement, parse, method = *readying.evict_by,
                 eviction = readying.eviction](harness::BatchState& s) {
            const Window& w = placement->windows[0];
            const std::uint8_t* p = arena->bytes.data() + w.offset;
            for (std::uint64_t i = 0; i < s.iterations(); ++i) {
                s.pause();
                evict(method, p, w.span, eviction.get());
                s.resume();
                harness::benchmark_sink(parse(p, arena->bytes.end(), placement->items).sum);
            }
        };
    } else {
        b.run = [arena, placement, parse](harness::BatchState& s) {
            const std::uint8_t* p = arena->bytes.data() + placement->windows[0].offset;
            for (std::uint64_t i = 0; i < s.iterations(); ++i)
                harness::benchmark_sink(parse(p, arena->bytes.end(), placement->items).sum);
        };
    }
    return b;
}

harness::Benchmark varint_one_shot(const VarintVariant& v, std::shared_ptr<const VarintArena> arena,
                                   CacheState cache) {
    harness::Benchmark b;
    const auto repeat = v.repeat;
    if (cache == CacheState::flush) {
        b.run = [arena, repeat](harness::BatchState& s) {
            const std::uint8_t* p = arena->bytes.data();
            for (std::uint64_t i = 0; i < s.iterations(); ++i) {
                s.pause();
                flush_lines(p, kMaxVarintBytes);
                s.resume();
                harness::benchmark_sink(repeat(p, arena->bytes.end(), 1));
            }
        };
    } else {
        b.run = [arena, repeat](harness::BatchState& s) {
            harness::benchmark_sink(
                repeat(arena->bytes.data(), arena->bytes.end(), s.iterations()));
        };
    }
    return b;
}

harness::Benchmark memcpy_benchmark(std::shared_ptr<const VarintArena> arena,
                                    std::shared_ptr<const Placement> placement,
                                    const Readying& readying) {
    harness::Benchmark b;
    b.items_per_iteration = static_cast<double>(placement->items);
    b.bytes_per_iteration = placement->mean_span();
    std::size_t largest = 0;
    for (const auto& w : placement->windows)
        largest = std::max(largest, w.span);
    auto destination = std::make_shared<PaddedBytes>(largest);
    b.run = [arena, placement, destination, rotate = readying.rotate, evict_by = readying.evict_by,
             eviction = readying.eviction, next = std::size_t{0}](harness::BatchState& s) mutable {
        const auto& windows = placement->windows;
        std::uint8_t* dst = destination->data();
        for (std::uint64_t i = 0; i < s.iterations(); ++i) {
            const Window& w = windows[next];
            if (rotate)
                next = next + 1 == windows.size() ? 0 : next + 1;
            const std::uint8_t* src = arena->bytes.data() + w.offset;
            if (evict_by) {
                s.pause();
                evict(*evict_by, src, w.span, eviction.get());
                s.resume();
            }
            std::memcpy(dst, src, w.span);
            harness::benchmark_sink(reinterpret_cast<std::uintptr_t>(dst));  // and the memory
        }
    };
    return b;
}

std::vector<Param> params(std::string_view workload, std::string_view variant, Distribution dist,
                          std::string_view shape, CacheState cache, std::uint64_t size_bytes,
                          const harness::Benchmark& b, std::size_t windows) {
    return {
        {"workload", std::string(workload)},
        {"variant", std::string(variant)},
        {"dist", std::string(distribution_name(dist))},
        {"shape", std::string(shape)},
        {"cache", std::string(cache_state_name(cache))},
        {"size_bytes", std::to_string(size_bytes)},
        {"items", fmt::format("{}", b.items_per_iteration)},
        {"bytes_per_item", fmt::format("{:.4f}", b.bytes_per_iteration / b.items_per_iteration)},
        {"windows", std::to_string(windows)}};
}

// The first `max_items` varints of each window (and their bytes, for flush): the simulation's
// prefix of a long iteration. Unchanged when the iteration is no longer.
std::shared_ptr<const Placement> prefix_of(std::shared_ptr<const Placement> placement,
                                           std::uint64_t max_items, const VarintArena& arena) {
    if (max_items == 0 || placement->items <= max_items)
        return placement;
    Placement prefix = *placement;
    prefix.items = static_cast<std::size_t>(max_items);
    for (auto& w : prefix.windows) {
        const std::uint8_t* p = arena.bytes.data() + w.offset;
        w.span = parse_varints_reference(p, arena.bytes.end(), prefix.items).consumed;
    }
    return std::make_shared<const Placement>(std::move(prefix));
}

template <class T>
bool selected(const std::vector<T>& list, const T& e) {
    return std::find(list.begin(), list.end(), e) != list.end();
}

// Cold data placed in windows over 2x the last-level cache (not evicted before each iteration).
bool cold_rotates(const SuiteSpec& spec) {
    return selected(spec.caches, CacheState::cold) && spec.cold.method == ColdMethod::rotation;
}

constexpr const char* kOneShotNeverCold =
    "one-shot decodes one varint again and again, so it is never cold";

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

}  // namespace

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
        sized ? arena_bytes_needed(sizes, cold_rotates(spec), spec.cache_sizes) : 4096;
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

Suite build_suite(const SuiteSpec& spec, const harness::CpuInfo& cpu) {
    Suite suite;
    const bool want_varint =
        std::find(spec.workloads.begin(), spec.workloads.end(), "varint") != spec.workloads.end();
    const bool want_memcpy =
        std::find(spec.workloads.begin(), spec.workloads.end(), "memcpy") != spec.workloads.end();
    for (const auto& w : spec.workloads) {
        if (w != "varint" && w != "memcpy")
            throw SuiteError(fmt::format("unknown workload '{}' (known: varint, memcpy)", w));
    }
    std::vector<const VarintVariant*> variants;
    for (const auto& name : want_varint ? spec.variants : std::vector<std::string>{}) {
        const VarintVariant* v = find_varint_variant(name);
        if (v == nullptr)
            throw SuiteError(fmt::format("unknown varint variant '{}'", name));
        if (const auto why = unavailable_reason(*v, cpu); !why.empty()) {
            suite.notes.push_back(fmt::format("skipped: {}", why));
            continue;
        }
        if (const auto why = unsimulated_reason(*v); spec.simulated && !why.empty()) {
            suite.notes.push_back(fmt::format(
                "skipped: {}, and this run simulates counters; for its times: --backend perf, "
                "or -e with software events only",
                why));
            continue;
        }
        if (const auto c = caveat(*v, cpu); !c.empty())
            suite.notes.push_back(c);
        variants.push_back(v);
    }
    if (variants.empty() && !want_memcpy)
        throw SuiteError("nothing to run: no selected varint variant runs on this CPU");
    const bool one_shot = !variants.empty() && selected(spec.shapes, Shape::one_shot);
    const bool end_on_end = selected(spec.shapes, Shape::end_on_end);
    if (one_shot && selected(spec.caches, CacheState::cold))
        suite.notes.push_back(
            fmt::format("{}: one-shot runs hot and flush only", kOneShotNeverCold));
    if (const auto caveat = cold_caveat(spec); !caveat.empty())
        suite.notes.push_back(caveat);

    suite.context = {{"l1d_bytes", std::to_string(spec.cache_sizes.l1d)},
                     {"l2_bytes", std::to_string(spec.cache_sizes.l2)},
                     {"l3_bytes", std::to_string(spec.cache_sizes.l3)},
                     {"data_seed", std::to_string(spec.data_seed)},
                     // how the measured code was compiled (-O3 in optimised builds)
                     {"cxx_flags", PERFGAUGE_WORKLOADS_CXX_FLAGS}};
    if (selected(spec.caches, CacheState::cold))  // how "cold" was made cold
        suite.context.emplace_back("cold_method", cold_method_name(spec.cold.method));
    // Sizes in the largest form they can take (the one-item point needs the arena's mean).
    const auto sizes_for = [&](double mean) {
        return spec.sizes.empty()
                   ? sweep_sizes(spec.cache_sizes, static_cast<std::uint64_t>(std::ceil(mean)))
                   : spec.sizes;
    };
    const bool sized = want_memcpy || (!variants.empty() && end_on_end);
    const std::uint64_t arena_bytes =
        sized ? arena_bytes_needed(suite_sizes(spec), cold_rotates(spec), spec.cache_sizes) : 4096;
    // One eviction buffer for every cold benchmark, when that is how cold is made cold.
    std::shared_ptr<std::vector<std::uint8_t>> eviction;
    if (selected(spec.caches, CacheState::cold) && spec.cold.method == ColdMethod::eviction_buffer)
        eviction = std::make_shared<std::vector<std::uint8_t>>(spec.cold.eviction_bytes);

    for (const Distribution dist : spec.distributions) {
        const auto arena = std::make_shared<const VarintArena>(
            make_varint_arena(dist, arena_bytes, spec.data_seed));
        if (spec.check_decoders && !variants.empty()) {
            const auto expected =
                parse_varints_reference(arena->bytes.data(), arena->bytes.end(), arena->count);
            for (const auto* v : variants)
                check_against_reference(*v, *arena, dist, expected);
        }
        const std::string dist_name(distribution_name(dist));
        suite.context.emplace_back("mean_bytes_per_item_" + dist_name,
                                   fmt::format("{:.4f}", arena->mean_size()));

        if (one_shot) {
            const auto length =
                decode_varint32_reference(arena->bytes.data(), arena->bytes.end()).length;
            for (const CacheState cache : spec.caches) {
                if (cache == CacheState::cold)
                    continue;
                for (const auto* v : variants) {
                    auto b = varint_one_shot(*v, arena, cache);
                    b.bytes_per_iteration = length;
                    b.name = fmt::format("varint/{}/{}/one-shot/{}/{}B", v->name, dist_name,
                                         cache_state_name(cache), length);
                    b.params = params("varint", v->name, dist, "one-shot", cache, length, b, 1);
                    suite.benchmarks.push_back(std::move(b));
                }
            }
        }
        if (!sized)
            continue;
        for (const CacheState cache : spec.caches) {
            const Readying ready = readying(cache, spec.cold, eviction);
            for (const std::uint64_t size : sizes_for(arena->mean_size())) {
                // Evicted data lives in one window, as hot data does.
                const auto whole = std::make_shared<const Placement>(
                    place(*arena, size, ready.rotate ? CacheState::cold : CacheState::hot,
                          spec.cache_sizes, spec.data_seed ^ size));
                const auto placement = prefix_of(whole, spec.max_items_per_iteration, *arena);
                const std::string label = size_label(size);
                if (end_on_end) {
                    for (const auto* v : variants) {
                        auto b = varint_end_on_end(*v, arena, placement, ready);
                        b.bytes_per_iteration = whole->mean_span();
                        b.name = fmt::format("varint/{}/{}/end-on-end/{}/{}", v->name, dist_name,
                                             cache_state_name(cache), label);
                        b.params = params("varint", v->name, dist, "end-on-end", cache, size, b,
                                          placement->windows.size());
                        suite.benchmarks.push_back(std::move(b));
                    }
                }
                if (want_memcpy) {
                    // Whole: glibc's memcpy takes another path for a shorter copy (per-item
                    // counts differ ninefold between 40 KB and 2 MB), and even 64M is cheap.
                    auto b = memcpy_benchmark(arena, whole, ready);
                    b.name =
                        fmt::format("memcpy/{}/{}/{}", dist_name, cache_state_name(cache), label);
                    b.params = params("memcpy", "memcpy", dist, "-", cache, size, b,
                                      placement->windows.size());
                    suite.benchmarks.push_back(std::move(b));
                }
            }
        }
    }
    if (suite.benchmarks.empty())
        throw SuiteError("nothing to run: the selection leaves no benchmark");
    return suite;
}

}  // namespace perfgauge::workloads
