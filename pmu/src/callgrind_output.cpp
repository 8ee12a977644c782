#include "perfgauge/pmu/callgrind_output.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include <fmt/format.h>

namespace perfgauge::pmu {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    while (true) {
        s = trim(s);
        if (s.empty())
            return out;
        const auto end = s.find_first_of(" \t");
        out.push_back(s.substr(0, end));
        if (end == std::string_view::npos)
            return out;
        s.remove_prefix(end);
    }
}

bool starts_with(std::string_view line, std::string_view prefix) {
    return line.substr(0, prefix.size()) == prefix;
}

std::vector<std::uint64_t> parse_totals(std::string_view text, std::size_t events) {
    std::vector<std::uint64_t> totals;
    for (const auto word : words(text)) {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
        if (error != std::errc{} || end != word.data() + word.size())
            throw SimulationError(fmt::format("callgrind output: '{}' is not a count", word));
        totals.push_back(value);
    }
    if (totals.size() > events) {
        throw SimulationError(
            fmt::format("callgrind output: {} totals for {} events", totals.size(), events));
    }
    totals.resize(events, 0);  // callgrind omits trailing zeros
    return totals;
}

}  // namespace

bool CallgrindDump::has(std::string_view event) const {
    return std::find(events.begin(), events.end(), event) != events.end();
}

std::uint64_t CallgrindDump::count(std::string_view event) const {
    const auto it = std::find(events.begin(), events.end(), event);
    if (it == events.end()) {
        throw SimulationError(fmt::format(
            "callgrind recorded no '{}' (events: {}); it needs --cache-sim=yes --branch-sim=yes",
            event, fmt::join(events, " ")));
    }
    return totals[static_cast<std::size_t>(it - events.begin())];
}

CallgrindDump parse_callgrind_dump(std::string_view text) {
    CallgrindDump dump;
    std::string_view summary, totals;
    bool is_callgrind = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = std::min(text.find('\n', pos), text.size());
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (starts_with(line, "# callgrind format") || starts_with(line, "creator: callgrind"))
            is_callgrind = true;
        if (starts_with(line, "creator:"))
            dump.creator = std::string(trim(line.substr(8)));
        else if (starts_with(line, "pid:"))
            dump.pid = parse_totals(line.substr(4), 1).front();
        else if (starts_with(line, "part:"))
            dump.part = parse_totals(line.substr(5), 1).front();
        else if (starts_with(line, "desc: Trigger:"))
            dump.trigger = std::string(trim(line.substr(14)));
        else if (starts_with(line, "events:")) {
            for (const auto word : words(line.substr(7)))
                dump.events.emplace_back(word);
        } else if (starts_with(line, "summary:"))
            summary = line.substr(8);
        else if (starts_with(line, "totals:"))
            totals = line.substr(7);
    }
    if (!is_callgrind)
        throw SimulationError("not a callgrind output file (no '# callgrind format' header)");
    if (dump.events.empty())
        throw SimulationError("callgrind output has no 'events:' line");
    if (summary.empty() && totals.empty())
        throw SimulationError("callgrind output has no 'summary:' or 'totals:' line");
    dump.totals = parse_totals(summary.empty() ? totals : summary, dump.events.size());
    // callgrind 3.19 writes "summary: 0" in a dump taken while instrumentation is off (a
    // program that ends after CALLGRIND_STOP_INSTRUMENTATION: `stat --markers`), while its
    // "totals:" still sum the instrumented costs.
    if (!summary.empty() && !totals.empty() &&
        std::all_of(dump.totals.begin(), dump.totals.end(), [](std::uint64_t v) { return v == 0; }))
        dump.totals = parse_totals(totals, dump.events.size());
    return dump;
}

const std::vector<SimulatedEvent>& simulated_events() {
    static const std::vector<SimulatedEvent> events = {
        {"instructions", {"Ir"}, "instructions executed (Ir)"},
        {"branches", {"Bc", "Bi"}, "conditional and indirect branches executed (Bc+Bi)"},
        {"branch-instructions", {"Bc", "Bi"}, "the same as branches (Bc+Bi)"},
        {"branch-misses",
         {"Bcm", "Bim"},
         "mispredicted branches, callgrind's simple predictor (Bcm+Bim)"},
        {"L1-dcache-loads", {"Dr"}, "data reads (Dr)"},
        {"L1-dcache-stores", {"Dw"}, "data writes (Dw)"},
        {"L1-dcache-load-misses", {"D1mr"}, "L1 data read misses (D1mr)"},
        {"L1-dcache-store-misses", {"D1mw"}, "L1 data write misses (D1mw)"},
        {"L1-dcache-misses", {"D1mr", "D1mw"}, "L1 data misses, reads and writes (D1mr+D1mw)"},
        {"L1-icache-load-misses", {"I1mr"}, "L1 instruction misses (I1mr)"},
        {"LLC-load-misses", {"DLmr"}, "last-level data read misses (DLmr)"},
        {"LLC-store-misses", {"DLmw"}, "last-level data write misses (DLmw)"},
        {"LLC-misses", {"DLmr", "DLmw"}, "last-level data misses, reads and writes (DLmr+DLmw)"},
        {"est-cycles",
         {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bcm", "Bim"},
         "estimated cycles, not measured ones: L1 hits + 5*LL hits + 35*memory accesses + "
         "15*mispredicted branches",
         true},
    };
    return events;
}

const SimulatedEvent* find_simulated_event(std::string_view name) {
    for (const auto& e : simulated_events()) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

CacheHits cache_hits(const CallgrindCosts& c) {
    // In double: the calibrated corrections subtract whole dumps, and a count never wraps.
    const double accesses =
        static_cast<double>(c.ir) + static_cast<double>(c.dr) + static_cast<double>(c.dw);
    const double l1_misses =
        static_cast<double>(c.i1mr) + static_cast<double>(c.d1mr) + static_cast<double>(c.d1mw);
    const double ram =
        static_cast<double>(c.ilmr) + static_cast<double>(c.dlmr) + static_cast<double>(c.dlmw);
    return {accesses - l1_misses, l1_misses - ram, ram};
}

double estimated_cycles(const CallgrindCosts& c) {
    const CacheHits h = cache_hits(c);
    return h.l1 + kEstLlHitCycles * h.ll + kEstRamCycles * h.ram +
           kEstBranchMissCycles * (static_cast<double>(c.bcm) + static_cast<double>(c.bim));
}

std::string_view estimated_cycles_formula() {
    return "est-cycles = L1 hits + 5*LL hits + 35*memory accesses + 15*mispredicted branches, "
           "where L1 hits = Ir+Dr+Dw - (I1mr+D1mr+D1mw), LL hits = I1mr+D1mr+D1mw - "
           "(ILmr+DLmr+DLmw), memory accesses = ILmr+DLmr+DLmw, mispredicted branches = Bcm+Bim "
           "(gungraun/iai-callgrind's EstimatedCycles plus a branch-miss penalty; an estimate, "
           "not a measured cycle count)";
}

bool needs_cache_simulation(const SimulatedEvent& event) {
    return std::any_of(event.callgrind_events.begin(), event.callgrind_events.end(),
                       [](std::string_view e) {
                           return e != "Ir" && e != "Bc" && e != "Bcm" && e != "Bi" && e != "Bim";
                       });
}

double simulated_count(const SimulatedEvent& event, const CallgrindDump& dump) {
    if (event.estimate) {
        return estimated_cycles({dump.count("Ir"), dump.count("Dr"), dump.count("Dw"),
                                 dump.count("I1mr"), dump.count("D1mr"), dump.count("D1mw"),
                                 dump.count("ILmr"), dump.count("DLmr"), dump.count("DLmw"),
                                 dump.count("Bcm"), dump.count("Bim")});
    }
    std::uint64_t sum = 0;
    for (const auto part : event.callgrind_events)
        sum += dump.count(part);
    return static_cast<double>(sum);
}

std::string not_simulated_reason(std::string_view name) {
    std::vector<std::string_view> names;
    for (const auto& e : simulated_events())
        names.push_back(e.name);
    const bool timing = name == "cycles" || name == "cpu-cycles" || name == "ref-cycles" ||
                        name == "bus-cycles" || name.find("stalled") != std::string_view::npos;
    return fmt::format(
        "callgrind does not simulate {}{}; simulated events are {}",
        timing ? "time or cycles" : "this event",
        timing ? " (time is always measured natively: see time/item and task-clock; est-cycles "
                 "is an estimate from simulated cache hits and branch misses)"
               : "",
        fmt::join(names, ", "));
}

}  // namespace perfgauge::pmu
