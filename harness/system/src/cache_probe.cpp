#include "perfgauge/harness/cache_probe.hpp"

#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "perfgauge/harness/output_file.hpp"

namespace perfgauge::harness {

namespace fs = std::filesystem;

std::optional<std::uint64_t> last_level_from_staircase(std::span<const LatencyStep> steps) {
    if (steps.size() < 4)
        return std::nullopt;
    for (std::size_t i = 1; i < steps.size(); ++i) {
        if (steps[i].bytes <= steps[i - 1].bytes || !(steps[i].ns_per_load > 0))
            return std::nullopt;
    }
    if (!(steps.front().ns_per_load > 0))
        return std::nullopt;
    const double memory = steps.back().ns_per_load;
    const double before = steps[steps.size() - 2].ns_per_load;
    if (std::max(memory, before) > 1.25 * std::min(memory, before))
        return std::nullopt;  // still climbing: the largest buffer did not reach memory
    if (memory < 2 * steps.front().ns_per_load)
        return std::nullopt;  // no step up at all: nothing tells a cache from memory
    // An upper bound, on purpose: cold data rotates over twice this, so a size too large only
    // costs memory, while one too small would label cached data cold.
    std::optional<std::uint64_t> largest;
    for (const auto& s : steps) {
        if (s.ns_per_load < 0.9 * memory)
            largest = s.bytes;
    }
    return largest;
}

namespace {

// One cache line of the chain: the index of the next line to load.
struct alignas(64) ChainLine {
    std::size_t next = 0;
};

// Anonymous memory, huge pages asked for (fewer TLB misses muddying the staircase).
struct Mapping {
    void* data = MAP_FAILED;
    std::size_t size = 0;
    explicit Mapping(std::size_t bytes) : size(bytes) {
        data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (data != MAP_FAILED)
            ::madvise(data, bytes, MADV_HUGEPAGE);
    }
    ~Mapping() {
        if (data != MAP_FAILED)
            ::munmap(data, size);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
};

double chase_ns_per_load(std::uint64_t bytes, std::uint64_t loads, std::mt19937_64& random) {
    const std::size_t lines = static_cast<std::size_t>(bytes / sizeof(ChainLine));
    Mapping memory(lines * sizeof(ChainLine));
    if (memory.data == MAP_FAILED || lines < 2)
        return 0;
    auto* chain = static_cast<ChainLine*>(memory.data);
    // One random cycle through every line: no line's successor is predictable.
    std::vector<std::size_t> order(lines);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), random);
    for (std::size_t i = 0; i < lines; ++i)
        chain[order[i]].next = order[(i + 1) % lines];
    std::size_t at = order.front();
    for (std::size_t i = 0; i < lines; ++i)  // one warm pass: the buffer as the cache keeps it
        at = chain[at].next;
    // The thread's CPU time, not wall time: on a shared machine the thread is switched out for
    // longer than the loads take (wall time gave 300-1900 ns per load here beside other
    // builds), while a load stalled on memory still runs on the CPU. The fastest of three
    // chases: an interruption that still shows (cache refilled after a switch) only slows one.
    const auto cpu_now = [] {
        timespec t{};
        ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
    };
    double best = INFINITY;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const double start = cpu_now();
        for (std::uint64_t i = 0; i < loads; ++i)
            at = chain[at].next;
        best = std::min(best, cpu_now() - start);
    }
    volatile std::size_t sink = at;  // the chain's end is used: the loads cannot be dropped
    (void)sink;
    return best / static_cast<double>(loads);
}

fs::path cache_directory() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return fs::path(xdg) / "perfgauge";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "perfgauge";
    return {};
}

std::string mib(std::uint64_t bytes) {
    return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1 << 20));
}

}  // namespace

std::vector<LatencyStep> measure_latency_staircase(std::uint64_t smallest, std::uint64_t largest,
                                                   std::uint64_t loads) {
    std::mt19937_64 random(12345);  // the same chains every time
    std::vector<LatencyStep> steps;
    for (std::uint64_t bytes = smallest; bytes <= largest; bytes *= 2)
        steps.push_back({bytes, chase_ns_per_load(bytes, loads, random)});
    return steps;
}

LastLevelCache find_last_level_cache(std::uint64_t reported, const std::string& cpu_model,
                                     bool may_measure) {
    if (reported > 0 && reported <= kLargestPlausibleLastLevel)
        return {reported, "sysfs"};
    const std::string why = reported == 0
                                ? "sysfs reports none"
                                : fmt::format("sysfs reports an implausible {}", mib(reported));
    // Cached per machine: the CPU model and what sysfs says identify it well enough, and a
    // changed guest (another CPU) measures again.
    const std::string key = fmt::format("{} | sysfs {}", cpu_model, reported);
    const fs::path dir = cache_directory();
    const fs::path file = dir.empty() ? fs::path() : dir / "last-level-cache.txt";
    std::string kept;
    if (!file.empty()) {
        std::ifstream in(file);
        std::ostringstream all;
        all << in.rdbuf();
        kept = all.str();
        std::istringstream lines(kept);
        for (std::string line; std::getline(lines, line);) {
            const auto tab = line.rfind('\t');
            if (tab == std::string::npos || line.substr(0, tab) != key)
                continue;
            try {
                const std::uint64_t bytes = std::stoull(line.substr(tab + 1));
                if (bytes == 0)
                    return {0, fmt::format("{}, and a latency staircase measured earlier showed no "
                                           "step to memory ({})",
                                           why, file.string())};
                return {bytes, fmt::format("measured earlier ({}; {})", why, file.string())};
            } catch (const std::exception&) {
                break;  // a damaged entry: measure again
            }
        }
    }
    if (!may_measure)
        return {0, fmt::format("{}, and no staircase measured earlier", why)};
    const auto steps =
        measure_latency_staircase(std::uint64_t{1} << 20, std::uint64_t{256} << 20, 500000);
    const auto found = last_level_from_staircase(steps);
    // Kept whether found or not (0): a run's measuring processes each ask again, and must all
    // prepare cold data the same way (rotation over the size, or eviction without one).
    if (!file.empty()) {
        try {
            fs::create_directories(dir);
            write_output_file(file.string(),
                              kept + key + "\t" + std::to_string(found.value_or(0)) + "\n");
        } catch (const std::exception&) {
            // Not kept: the next run measures again. The size found is still right.
        }
    }
    if (!found)
        return {0, fmt::format("{}, and a latency staircase up to 256 MiB showed no step to "
                               "memory",
                               why)};
    return {*found, fmt::format("measured: a pointer-chasing latency staircase ({})", why)};
}

}  // namespace perfgauge::harness
