// The caches callgrind simulates: this machine's, from sysfs, fitted to valgrind's limits.
#include "perfgauge/harness/simulation.hpp"

#include <fmt/format.h>

namespace perfgauge::harness {

namespace {

// Last level: the highest level that holds data.
const CacheLevel* find_cache(const std::vector<CacheLevel>& caches, int level, bool instruction) {
    const CacheLevel* found = nullptr;
    for (const auto& c : caches) {
        const bool is_instruction = c.type == "Instruction";
        if (is_instruction != instruction)
            continue;
        if (level > 0 ? c.level == level : (found == nullptr || c.level > found->level))
            found = &c;
    }
    return found;
}

}  // namespace

SimulatedCaches simulated_caches(const std::vector<CacheLevel>& caches,
                                 std::optional<std::uint64_t> l1d_bytes,
                                 std::optional<std::uint64_t> ll_bytes) {
    SimulatedCaches out;
    auto fit = [&](const CacheLevel* c, const char* which,
                   std::optional<std::uint64_t> size) -> std::optional<pmu::SimCache> {
        if (c == nullptr && !size) {
            out.notes.push_back(fmt::format("{}: not found in sysfs; valgrind detects it", which));
            return std::nullopt;
        }
        // A size the user chose (--l1d/--l3) must reach the simulation even where sysfs has no
        // cache directory (some VMs): otherwise "cold" would be evicted from the user's cache
        // size but simulated in valgrind's CPUID-detected one. Geometry is then assumed.
        constexpr unsigned kAssumedWays = 8;
        constexpr unsigned kAssumedLine = 64;
        if (c == nullptr) {
            out.notes.push_back(
                fmt::format("{}: not found in sysfs; simulated with the size given, {}-way, {} B "
                            "lines (assumed)",
                            which, kAssumedWays, kAssumedLine));
        }
        const pmu::SimCache detected =
            c == nullptr ? pmu::SimCache{*size, kAssumedWays, kAssumedLine}
                         : pmu::SimCache{size.value_or(c->size_bytes), c->ways, c->line_size};
        const auto fitted = pmu::fit_cache_for_valgrind(detected);
        if (!fitted) {
            out.notes.push_back(
                fmt::format("{}: {} B {}-way, line {} B cannot be simulated; valgrind detects it",
                            which, detected.size, detected.ways, detected.line));
            return std::nullopt;
        }
        if (!fitted->note.empty())
            out.notes.push_back(fmt::format("{}: {}", which, fitted->note));
        return fitted->cache;
    };
    out.i1 = fit(find_cache(caches, 1, true), "I1", std::nullopt);
    out.d1 = fit(find_cache(caches, 1, false), "D1", l1d_bytes);
    out.ll = fit(find_cache(caches, 0, false), "LL", ll_bytes);
    return out;
}

}  // namespace perfgauge::harness
