#include "perfgauge/workloads/suite.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "perfgauge/workloads/placement.hpp"
#include "suite_plan.hpp"

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
    // The next window of a rotation, when benchmarks share it (slices: see SliceTable);
    // none: each benchmark rotates on its own.
    std::shared_ptr<std::size_t> cursor;
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
        auto cursor = readying.cursor ? readying.cursor : std::make_shared<std::size_t>(0);
        b.run = [arena, placement, parse, cursor](harness::BatchState& s) {
            const auto& windows = placement->windows;
            std::size_t& next = *cursor;
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

// The key's params, then the facts that follow from where its data lies: items per iteration,
// bytes per item and the windows it rotates over.
std::vector<Param> params(const BenchmarkKey& key, const harness::Benchmark& b,
                          std::size_t windows) {
    auto all = key_params(key);
    all.emplace_back("items", fmt::format("{}", b.items_per_iteration));
    all.emplace_back("bytes_per_item",
                     fmt::format("{:.4f}", b.bytes_per_iteration / b.items_per_iteration));
    all.emplace_back("windows", std::to_string(windows));
    return all;
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

// What is recorded with the result: the caches used, the data seed, how the measured code was
// compiled, and how cold was made cold (the mean varint size per distribution follows).
std::vector<Param> suite_context(const SuiteSpec& spec) {
    std::vector<Param> context = {{"l1d_bytes", std::to_string(spec.cache_sizes.l1d)},
                                  {"l2_bytes", std::to_string(spec.cache_sizes.l2)},
                                  {"l3_bytes", std::to_string(spec.cache_sizes.l3)},
                                  {"data_seed", std::to_string(spec.data_seed)},
                                  // how the measured code was compiled (-O3 in optimised builds)
                                  {"cxx_flags", PERFGAUGE_WORKLOADS_CXX_FLAGS}};
    if (selected(spec.caches, CacheState::cold))  // how "cold" was made cold
        context.emplace_back("cold_method", cold_method_name(spec.cold.method));
    return context;
}

// Every variant against the reference decoder on the arena, before anything is timed.
void check_decoders(const std::vector<const VarintVariant*>& variants, const VarintArena& arena,
                    Distribution dist) {
    const auto expected =
        parse_varints_reference(arena.bytes.data(), arena.bytes.end(), arena.count);
    for (const auto* v : variants)
        check_against_reference(*v, arena, dist, expected);
}

harness::Benchmark one_shot_benchmark(const BenchmarkKey& key,
                                      std::shared_ptr<const VarintArena> arena) {
    auto b = varint_one_shot(*find_varint_variant(key.variant), std::move(arena), key.cache);
    b.bytes_per_iteration = static_cast<double>(key.size_bytes);  // the varint's length
    b.name = benchmark_name(key);
    b.params = params(key, b, 1);
    return b;
}

// One working set of a distribution (cache state and size): where its data lies, shared by
// the decoders and memcpy measured there.
struct Point {
    CacheState cache = CacheState::hot;
    std::uint64_t size = 0;
    Readying ready;
    std::shared_ptr<const Placement> whole;
    std::shared_ptr<const Placement> placement;  // whole, or the simulation's prefix of it
    std::optional<SharedSlices> sliced;          // the decoders' slices of whole, or none
};

Point place_point(const SuiteSpec& spec, const std::shared_ptr<const VarintArena>& arena,
                  const std::shared_ptr<std::vector<std::uint8_t>>& eviction, CacheState cache,
                  std::uint64_t size, SliceTable& slices) {
    Point point{cache, size, readying(cache, spec.cold, eviction), nullptr, nullptr, std::nullopt};
    // Evicted data lives in one window, as hot data does.
    point.whole = std::make_shared<const Placement>(
        place(*arena, size, point.ready.rotate ? CacheState::cold : CacheState::hot,
              spec.cache_sizes, spec.data_seed ^ size, spec.max_items_per_iteration));
    point.placement = prefix_of(point.whole, spec.max_items_per_iteration, *arena);
    // Past twice the last-level cache every part of a pass comes from memory, hot or cold: a
    // decoder's sample takes the next slices of the pass rather than all of it (methodology.md,
    // "Working sets in memory"). The simulation, which counts a prefix, is left as it was.
    const bool rereadable = cache == CacheState::hot || point.ready.rotate;
    if (spec.max_items_per_iteration == 0 && rereadable &&
        sliced_working_set(size, spec.cache_sizes, spec.machine_caches))
        point.sliced = slices.slices_of(*arena, *point.whole);
    return point;
}

harness::Benchmark sized_benchmark(const BenchmarkKey& key,
                                   const std::shared_ptr<const VarintArena>& arena,
                                   const Point& point) {
    if (key.shape) {
        Readying ready = point.ready;
        if (point.sliced) {  // one slice after the other, in order
            ready.rotate = true;
            ready.cursor = point.sliced->cursor;
        }
        const auto& decoded = point.sliced ? point.sliced->slices : point.placement;
        auto b = varint_end_on_end(*find_varint_variant(key.variant), arena, decoded, ready);
        b.bytes_per_iteration = (point.sliced ? point.sliced->slices : point.whole)->mean_span();
        b.name = benchmark_name(key);
        b.params = params(key, b, decoded->windows.size());
        return b;
    }
    // Whole: glibc's memcpy takes another path for a shorter copy (per-item counts differ
    // ninefold between 40 KB and 2 MB), and even 64M is cheap.
    auto b = memcpy_benchmark(arena, point.whole, point.ready);
    b.name = benchmark_name(key);
    b.params = params(key, b, point.placement->windows.size());
    return b;
}

// One distribution's data, checked, and its benchmarks in distribution_keys' order.
void add_distribution(Suite& suite, const SuiteSpec& spec, const SuitePlan& plan, Distribution dist,
                      std::uint64_t bytes,
                      const std::shared_ptr<std::vector<std::uint8_t>>& eviction) {
    const auto arena = std::make_shared<const VarintArena>(
        spec.max_items_per_iteration > 0
            ? repeated_varint_arena(dist, bytes, spec.data_seed, kSimulatedDrawnBytes)
            : make_varint_arena(dist, bytes, spec.data_seed));
    if (spec.check_decoders && !plan.variants.empty())
        check_decoders(plan.variants, *arena, dist);
    suite.context.emplace_back("mean_bytes_per_item_" + std::string(distribution_name(dist)),
                               fmt::format("{:.4f}", arena->mean_size()));
    const ArenaFacts facts{
        arena->mean_size(),
        decode_varint32_reference(arena->bytes.data(), arena->bytes.end()).length};
    std::optional<Point> point;
    SliceTable slices;
    for (const auto& key : distribution_keys(spec, plan, dist, facts)) {
        if (key.shape == Shape::one_shot) {
            suite.benchmarks.push_back(one_shot_benchmark(key, arena));
            continue;
        }
        if (!point || point->cache != key.cache || point->size != key.size_bytes)
            point = place_point(spec, arena, eviction, key.cache, key.size_bytes, slices);
        suite.benchmarks.push_back(sized_benchmark(key, arena, *point));
    }
}

}  // namespace

Suite build_suite(const SuiteSpec& spec, const harness::CpuInfo& cpu) {
    const SuitePlan plan = plan_suite(spec, cpu);
    Suite suite;
    suite.notes = plan.notes;
    suite.context = suite_context(spec);
    const std::uint64_t bytes = arena_bytes(spec, plan);
    // One eviction buffer for every cold benchmark, when that is how cold is made cold.
    std::shared_ptr<std::vector<std::uint8_t>> eviction;
    if (selected(spec.caches, CacheState::cold) && spec.cold.method == ColdMethod::eviction_buffer)
        eviction = std::make_shared<std::vector<std::uint8_t>>(spec.cold.eviction_bytes);
    for (const Distribution dist : spec.distributions)
        add_distribution(suite, spec, plan, dist, bytes, eviction);
    if (suite.benchmarks.empty())
        throw SuiteError("nothing to run: the selection leaves no benchmark");
    return suite;
}

}  // namespace perfgauge::workloads
