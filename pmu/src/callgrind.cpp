#include "perfgauge/pmu/callgrind.hpp"

#include <unistd.h>

#include <bit>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>
#include <valgrind/callgrind.h>

namespace perfgauge::pmu {

namespace {

constexpr unsigned kMinLine = 16;  // valgrind refuses smaller lines

}  // namespace

std::optional<FittedCache> fit_cache_for_valgrind(const SimCache& c) {
    if (c.size == 0 || c.ways == 0 || c.line < kMinLine || !std::has_single_bit(c.line) ||
        c.size < std::uint64_t{c.ways} * c.line)
        return std::nullopt;
    const std::uint64_t sets = c.size / (std::uint64_t{c.ways} * c.line);
    if (std::has_single_bit(sets) && sets * c.ways * c.line == c.size)
        return FittedCache{c, ""};
    const std::uint64_t fitted_sets = std::bit_floor(sets);
    FittedCache out{c, ""};
    if (c.size % (fitted_sets * c.line) == 0) {
        out.cache.ways = static_cast<unsigned>(c.size / (fitted_sets * c.line));
    } else {
        out.cache.size = fitted_sets * c.ways * c.line;
    }
    out.note = fmt::format(
        "{} B {}-way (line {} B) has {} sets, not a power of two as valgrind needs: simulated as "
        "{} B {}-way",
        c.size, c.ways, c.line, sets, out.cache.size, out.cache.ways);
    return out;
}

std::string cache_flag(std::string_view which, const SimCache& cache) {
    return fmt::format("--{}={},{},{}", which, cache.size, cache.ways, cache.line);
}

std::vector<std::string> callgrind_command(const CallgrindSetup& setup,
                                           const std::vector<std::string>& program) {
    std::vector<std::string> argv = {
        setup.valgrind, "-q", "--tool=callgrind", "--branch-sim=yes", "--cache-sim=yes",
        setup.instrument_from_start ? "--instr-atstart=yes" : "--instr-atstart=no",
        // Counts only: no per-line or per-instruction tables.
        "--dump-line=no", "--dump-instr=no"};
    if (setup.i1)
        argv.push_back(cache_flag("I1", *setup.i1));
    if (setup.d1)
        argv.push_back(cache_flag("D1", *setup.d1));
    if (setup.ll)
        argv.push_back(cache_flag("LL", *setup.ll));
    if (setup.trace_children)
        argv.emplace_back("--trace-children=yes");
    if (!setup.out_file.empty())
        argv.push_back("--callgrind-out-file=" + setup.out_file);
    if (!setup.log_file.empty())
        argv.push_back("--log-file=" + setup.log_file);
    argv.emplace_back("--");
    argv.insert(argv.end(), program.begin(), program.end());
    return argv;
}

std::optional<std::string> find_valgrind() {
    if (const char* forced = std::getenv("PERFGAUGE_VALGRIND"); forced && *forced) {
        if (::access(forced, X_OK) == 0)
            return std::string(forced);
        return std::nullopt;
    }
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/valgrind";
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return std::nullopt;
}

const char* valgrind_incompatibility() {
#if defined(__SANITIZE_ADDRESS__)
    return "this perfgauge is built with AddressSanitizer, which valgrind cannot run; use a "
           "release build (scripts/build.sh release) for simulated counts";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return "this perfgauge is built with AddressSanitizer, which valgrind cannot run; use a "
           "release build (scripts/build.sh release) for simulated counts";
#endif
#endif
    return nullptr;
}

namespace callgrind {

// The macros expand to a magic instruction sequence valgrind recognises; natively it does
// nothing, so the measured binary needs no separate build for simulation.
bool running_on_valgrind() {
    return RUNNING_ON_VALGRIND != 0;
}
void start_instrumentation() {
    CALLGRIND_START_INSTRUMENTATION;
}
void stop_instrumentation() {
    CALLGRIND_STOP_INSTRUMENTATION;
}
void zero_stats() {
    CALLGRIND_ZERO_STATS;
}
void dump_stats(const char* reason) {
    CALLGRIND_DUMP_STATS_AT(reason);
}
void toggle_collect() {
    CALLGRIND_TOGGLE_COLLECT;
}

}  // namespace callgrind

}  // namespace perfgauge::pmu
