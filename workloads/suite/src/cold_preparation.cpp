#include "perfgauge/workloads/cold_preparation.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <fmt/format.h>

#include "perfgauge/workloads/placement.hpp"

namespace perfgauge::workloads {

namespace {

std::string mib(std::uint64_t bytes) {
    return bytes >= (std::uint64_t{1} << 20) ? fmt::format("{} MiB", bytes >> 20)
                                             : fmt::format("{} KiB", bytes >> 10);
}

#if defined(__x86_64__) || defined(__i386__)
// clflushopt is weakly ordered against other flushes: many of them overlap, and the fence
// after the loop waits for them all. Compiled for the instruction alone, called only where
// CPUID says the CPU has it.
__attribute__((target("clflushopt"))) void flush_lines_opt(const std::uint8_t* p,
                                                           std::size_t bytes) {
    const auto end = reinterpret_cast<std::uintptr_t>(p) + bytes;
    for (auto line = reinterpret_cast<std::uintptr_t>(p) & ~(kCacheLine - 1); line < end;
         line += kCacheLine)
        _mm_clflushopt(reinterpret_cast<void*>(line));
    _mm_mfence();
}
#endif

// Reads and writes every line of a buffer larger than the caches: whatever they held before
// is evicted by it. Writing too, so that a cache that allocates on read only still turns over.
void sweep(std::vector<std::uint8_t>& buffer) {
    volatile std::uint8_t* bytes = buffer.data();
    for (std::size_t i = 0; i < buffer.size(); i += kCacheLine)
        bytes[i] = static_cast<std::uint8_t>(bytes[i] + 1);
}

}  // namespace

std::string_view cold_method_name(ColdMethod method) {
    switch (method) {
        case ColdMethod::rotation:
            return "rotation";
        case ColdMethod::clflushopt:
            return "clflushopt";
        case ColdMethod::clflush:
            return "clflush";
        case ColdMethod::dc_civac:
            return "dc civac";
        case ColdMethod::eviction_buffer:
            return "eviction buffer";
    }
    return "?";
}

FlushInstructions flush_instructions_here() {
    FlushInstructions flush;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    // The bits by number: GCC's cpuid.h names no CLFSH bit.
    constexpr unsigned kClflush = 1u << 19;     // CPUID.1:EDX
    constexpr unsigned kClflushopt = 1u << 23;  // CPUID.(EAX=7,ECX=0):EBX
    if (__get_cpuid(1, &a, &b, &c, &d))
        flush.clflush = (d & kClflush) != 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        flush.clflushopt = (b & kClflushopt) != 0;
#elif defined(__aarch64__)
    flush.dc_civac = true;
#endif
    return flush;
}

ColdPreparation choose_cold_preparation(const LastLevelEvidence& last_level,
                                        const FlushInstructions& flush) {
    ColdPreparation out;
    const std::uint64_t size = last_level.bytes;
    if (last_level.given)
        return out;  // the user's size: rotation over it (selection_checks.cpp says when it is too small)
    if (size == 0) {
        out.why = "no last-level cache size was found";
    } else if (last_level.l2 > 0 && size <= last_level.l2) {
        out.why = fmt::format("the last-level size found, {}, is not above the L2 ({})", mib(size),
                              mib(last_level.l2));
    } else if (last_level.largest_plausible > 0 && size > last_level.largest_plausible) {
        out.why = fmt::format("the last-level size found, {}, is more than any CPU has", mib(size));
    } else {
        return out;
    }
    if (flush.clflushopt) {
        out.method = ColdMethod::clflushopt;
    } else if (flush.clflush) {
        out.method = ColdMethod::clflush;
    } else if (flush.dc_civac) {
        out.method = ColdMethod::dc_civac;
    } else {
        out.method = ColdMethod::eviction_buffer;
        out.eviction_bytes = 2 * last_level.largest_plausible;
    }
    return out;
}

void evict(ColdMethod method, const std::uint8_t* p, std::size_t bytes,
           std::vector<std::uint8_t>* eviction) {
    switch (method) {
        case ColdMethod::rotation:
            return;
        case ColdMethod::clflushopt:
#if defined(__x86_64__) || defined(__i386__)
            flush_lines_opt(p, bytes);
            return;
#endif
        case ColdMethod::clflush:
        case ColdMethod::dc_civac:
            flush_lines(p, bytes);  // clflush on x86, dc civac on arm64
            return;
        case ColdMethod::eviction_buffer:
            if (eviction != nullptr)
                sweep(*eviction);
            return;
    }
}

}  // namespace perfgauge::workloads
