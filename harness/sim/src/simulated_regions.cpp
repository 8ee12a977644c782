// Simulated counts per Session region: a Session running under perfgauge's simulation dumps
// callgrind's counters at every region boundary ("perfgauge-region:enter:NAME", "...:leave:NAME",
// see session.cpp); each dump holds the counts since the previous one, so it belongs to every
// region open in that process until its boundary.
#include <algorithm>
#include <map>
#include <set>

#include "perfgauge/harness/simulation.hpp"
#include "simulated_event.hpp"

namespace perfgauge::harness {

namespace {

constexpr std::string_view kEnter = "Client Request: perfgauge-region:enter:";
constexpr std::string_view kLeave = "Client Request: perfgauge-region:leave:";

}  // namespace

std::vector<RegionCounts> simulated_regions(std::vector<pmu::CallgrindDump> dumps,
                                            const std::vector<std::string>& events) {
    std::stable_sort(dumps.begin(), dumps.end(), [](const auto& a, const auto& b) {
        return std::pair(a.pid, a.part) < std::pair(b.pid, b.part);
    });
    std::vector<const pmu::SimulatedEvent*> mapped;
    for (const auto& e : events)
        mapped.push_back(&simulated_event_of(e));
    std::vector<RegionCounts> out;
    std::map<std::string, std::size_t> index;
    auto region = [&](const std::string& name) -> RegionCounts& {
        const auto [it, added] = index.emplace(name, out.size());
        if (added) {
            out.push_back({name, 0, {}});
            for (const auto& e : events)
                out.back().counters.emplace_back(e, 0.0);
        }
        return out[it->second];
    };
    std::vector<std::string> open;  // this process's open regions, innermost last
    std::uint64_t pid = 0;
    for (const auto& d : dumps) {
        if (d.pid != pid)
            open.clear();
        pid = d.pid;
        // A name open twice (recursion) is counted once: its total is inclusive.
        for (const auto& name : std::set<std::string>(open.begin(), open.end())) {
            RegionCounts& r = region(name);
            for (std::size_t e = 0; e < mapped.size(); ++e)
                r.counters[e].second += static_cast<double>(pmu::simulated_count(*mapped[e], d));
        }
        const std::string_view trigger = d.trigger;
        if (trigger.starts_with(kEnter)) {
            open.emplace_back(trigger.substr(kEnter.size()));
            ++region(open.back()).count;
        } else if (trigger.starts_with(kLeave) && !open.empty()) {
            open.pop_back();
        }
    }
    return out;
}

}  // namespace perfgauge::harness
