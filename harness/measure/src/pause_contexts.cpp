#include "pause_contexts.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace perfgauge::harness {

namespace {

std::atomic<std::uint64_t> shared_counter{0};

// A permutation of its own indices: each load's address is the load before's value.
constexpr std::size_t kRingSize = 512;  // 4 KiB: stays in L1
const std::array<std::uint64_t, kRingSize> ring = [] {
    std::array<std::uint64_t, kRingSize> r{};
    for (std::size_t i = 0; i < kRingSize; ++i)
        r[i] = (i * 37 + 11) % kRingSize;
    return r;
}();

std::uint64_t multiplies(std::uint64_t x, int n) {
    for (int j = 0; j < n; ++j) {
        x = x * 0x9E3779B97F4A7C15ULL + 1;
        asm volatile("" : "+r"(x));  // each step waits for the one before; none is folded away
    }
    return x;
}

template <class Work>
PauseContext context(const std::string& name, int pairs, Work work) {
    const auto loop = [pairs, work](bool pausing) {
        return [pairs, work, pausing](BatchState& s) {
            std::uint64_t x = s.iterations() + 1;
            for (int i = 0; i < pairs; ++i) {
                if (pausing) {
                    s.pause();
                    s.resume();
                }
                x = work(x);
            }
            benchmark_sink(x);
        };
    };
    return {Benchmark{"(pause calibration: " + name + ")", 1, 0, loop(false), {}},
            Benchmark{"(pause calibration: " + name + ", paused)", 1, 0, loop(true), {}}};
}

}  // namespace

std::vector<PauseContext> pause_contexts(int pairs) {
    std::vector<PauseContext> out;
    out.push_back(context("4 multiplies", pairs, [](std::uint64_t x) { return multiplies(x, 4); }));
    out.push_back(context("1 multiply", pairs, [](std::uint64_t x) { return multiplies(x, 1); }));
    out.push_back(
        context("16 multiplies", pairs, [](std::uint64_t x) { return multiplies(x, 16); }));
    out.push_back(context("1 atomic add", pairs, [](std::uint64_t x) {
        return x + shared_counter.fetch_add(1, std::memory_order_relaxed);
    }));
    out.push_back(context("4 loads", pairs, [](std::uint64_t x) {
        for (int j = 0; j < 4; ++j)
            x = ring[x % kRingSize];
        return x;
    }));
    out.push_back(context("4 independent chains of 4 adds or xors", pairs, [](std::uint64_t x) {
        std::uint64_t a = x, b = x + 1, c = x + 2, d = x + 3;
        for (int j = 0; j < 4; ++j) {
            a += 3;
            b ^= 5;
            c += 7;
            d ^= 9;
            asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
        }
        return a + b + c + d;
    }));
    return out;
}

}  // namespace perfgauge::harness
