// Session regions around work whose instruction count is known exactly, for the arm64 guest
// (scripts/arm64-guest.sh), where -icount makes counts exact: "inner" spins kInner iterations
// of a 3-instruction loop; "outer" spins kOuter and holds two "inner" entries. Prints, as JSON,
// each region's entries and its corrected instructions next to what the work alone executes;
// scripts/arm64/check_suite.py holds them to the calibration's noise.
#include <cstdint>
#include <cstdio>

#include "../pmu/known_loop.hpp"  // exactly 3 instructions per iteration
#include "perfgauge/harness/session.hpp"

namespace {

using namespace perfgauge;

constexpr std::uint64_t kInner = 100000;
constexpr std::uint64_t kOuter = 300000;
constexpr int kEntries = 4;

[[gnu::always_inline]] inline void spin(std::uint64_t n) {
    test::known_loop(n);
}

}  // namespace

int main(int argc, char** argv) {
    // An event list may be given (the first event must be instructions): the regions' cost
    // with a group of two hardware events, say.
    perfgauge::harness::Session session(argc > 1 ? argv[1] : "instructions:u");
    for (int i = 0; i < kEntries; ++i) {
        auto outer = session.region("outer");
        spin(kOuter);
        for (int j = 0; j < 2; ++j) {
            auto inner = session.region("inner");
            spin(kInner);
        }
    }
    std::fprintf(stderr, "%s\n", session.report().c_str());
    // overhead: what an empty region's measurement leaves inside it; nested_overhead: what a
    // whole enter + leave costs the region around it (the region's cost to its user).
    std::printf(
        "{\"unsupported\": %zu, \"overhead\": %.1f, \"nested_overhead\": %.1f, "
        "\"regions\": [",
        session.unsupported_events().size(),
        session.counter_overhead().empty() ? -1.0 : session.counter_overhead()[0],
        session.nested_counter_overhead().empty() ? -1.0 : session.nested_counter_overhead()[0]);
    const char* sep = "";
    for (const auto& r : session.results()) {
        const double work = r.name == "inner" ? 3.0 * kInner : 3.0 * kOuter + 2 * 3.0 * kInner;
        std::printf(
            "%s{\"name\": \"%s\", \"depth\": %zu, \"count\": %zu, \"raw\": %.1f, "
            "\"corrected\": %.1f, \"work_per_entry\": %.1f}",
            sep, r.name.c_str(), r.depth, r.count, r.counters.empty() ? -1.0 : r.counters[0],
            r.corrected_counters.empty() ? -1.0 : r.corrected_counters[0], work);
        sep = ", ";
    }
    std::printf("]}\n");
    return 0;
}
