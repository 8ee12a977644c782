// Session regions around work whose instruction count is known exactly, for the arm64 guest
// (scripts/arm64-guest.sh), where -icount makes counts exact: "outer" spins kOuter iterations
// of a 3-instruction loop and holds two "inner" entries, each spinning kInner and holding one
// "leaf" of kLeaf. Prints, as JSON, each region's entries and its corrected instructions next
// to what the work alone executes; scripts/arm64/check_suite.py holds them to the
// calibration's noise. Also what a region costs (docs/library.md, "What a region costs"):
// `nested_overhead`, the whole enter + leave one region costs the code around it, entered by
// its RegionId; `lookup_overhead`, what entering by name adds; `overhead`, what an empty
// region's own measurement leaves inside it.
//
//   perfgauge_session_exact [EVENTS [ids|names]]
// EVENTS (default instructions:u; the first must be instructions), the regions entered by
// RegionId (default) or by name.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "../pmu/known_loop.hpp"  // exactly 3 instructions per iteration
#include "perfgauge/harness/session.hpp"

namespace {

using namespace perfgauge;

constexpr std::uint64_t kLeaf = 20000;
constexpr std::uint64_t kInner = 100000;
constexpr std::uint64_t kOuter = 300000;
constexpr int kEntries = 4;

[[gnu::always_inline]] inline void spin(std::uint64_t n) {
    test::known_loop(n);
}

double work_of(std::string_view name) {
    if (name == "leaf")
        return 3.0 * kLeaf;
    if (name == "inner")
        return 3.0 * (kInner + kLeaf);
    return 3.0 * kOuter + 2 * 3.0 * (kInner + kLeaf);
}

// The same nest, entered by id or by name.
template <class Key>
void run(harness::Session& session, Key outer, Key inner, Key leaf) {
    for (int i = 0; i < kEntries; ++i) {
        auto o = session.region(outer);
        spin(kOuter);
        for (int j = 0; j < 2; ++j) {
            auto in = session.region(inner);
            spin(kInner);
            auto l = session.region(leaf);
            spin(kLeaf);
        }
    }
}

double first(const std::vector<double>& v) {
    return v.empty() ? -1.0 : v[0];
}

}  // namespace

int main(int argc, char** argv) {
    harness::Session session(argc > 1 ? argv[1] : "instructions:u");
    const bool by_name = argc > 2 && std::strcmp(argv[2], "names") == 0;
    if (by_name) {
        run<std::string_view>(session, "outer", "inner", "leaf");
    } else {
        run(session, session.region_id("outer"), session.region_id("inner"),
            session.region_id("leaf"));
    }
    std::fprintf(stderr, "%s\n", session.report().c_str());
    std::printf(
        "{\"unsupported\": %zu, \"entered_by\": \"%s\", \"overhead\": %.1f, "
        "\"nested_overhead\": %.1f, \"lookup_overhead\": %.1f, \"regions\": [",
        session.unsupported_events().size(), by_name ? "name" : "id",
        first(session.counter_overhead()), first(session.nested_counter_overhead()),
        first(session.lookup_counter_overhead()));
    const char* sep = "";
    for (const auto& r : session.results()) {
        std::printf(
            "%s{\"name\": \"%s\", \"depth\": %zu, \"count\": %zu, \"raw\": %.1f, "
            "\"corrected\": %.1f, \"work_per_entry\": %.1f}",
            sep, r.name.c_str(), r.depth, r.count, first(r.counters), first(r.corrected_counters),
            work_of(r.name));
        sep = ", ";
    }
    std::printf("]}\n");
    return 0;
}
