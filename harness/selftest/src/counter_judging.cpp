#include "perfgauge/harness/counter_judging.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace perfgauge::harness {

namespace {

CounterCheck judged(std::string name, bool pass, double measured, std::optional<double> expected,
                    std::string unit, std::string detail) {
    return {std::move(name), pass ? CheckVerdict::pass : CheckVerdict::fail,
            measured,        expected,
            std::move(unit), std::move(detail)};
}

// "1e+04" would read badly: iteration counts as plain integers.
std::string iterations_text(const std::vector<LoopCount>& counts) {
    std::vector<std::uint64_t> ns;
    for (const auto& c : counts)
        ns.push_back(c.iterations);
    std::sort(ns.begin(), ns.end());
    ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
    return fmt::format("{}", fmt::join(ns, ", "));
}

// Per loop size, the smallest count (the one least disturbed) of each.
std::map<std::uint64_t, double> smallest_by_size(const std::vector<LoopCount>& counts) {
    std::map<std::uint64_t, double> out;
    for (const auto& c : counts) {
        auto [it, inserted] = out.emplace(c.iterations, c.count);
        if (!inserted)
            it->second = std::min(it->second, c.count);
    }
    return out;
}

// The loop's own count between the smallest and the largest size: each path's fixed cost
// cancels. nullopt: fewer than two sizes.
std::optional<double> loop_difference(const std::vector<LoopCount>& counts,
                                      std::uint64_t* span = nullptr) {
    const auto by_size = smallest_by_size(counts);
    if (by_size.size() < 2)
        return std::nullopt;
    if (span != nullptr)
        *span = by_size.rbegin()->first - by_size.begin()->first;
    return by_size.rbegin()->second - by_size.begin()->second;
}

}  // namespace

std::optional<LineFit> fit_line(const std::vector<LoopCount>& counts) {
    if (counts.size() < 2)
        return std::nullopt;
    double mean_n = 0, mean_c = 0;
    for (const auto& c : counts) {
        mean_n += static_cast<double>(c.iterations);
        mean_c += c.count;
    }
    mean_n /= static_cast<double>(counts.size());
    mean_c /= static_cast<double>(counts.size());
    double sxx = 0, sxy = 0;
    for (const auto& c : counts) {
        const double dn = static_cast<double>(c.iterations) - mean_n;
        sxx += dn * dn;
        sxy += dn * (c.count - mean_c);
    }
    if (sxx == 0)
        return std::nullopt;
    const double a = sxy / sxx;
    return LineFit{a, mean_c - a * mean_n};
}

double exact_tolerance(double count) {
    return 2 + 1e-6 * std::fabs(count);
}

CounterCheck judge_exact_instructions(const std::vector<LoopCount>& counts,
                                      unsigned per_iteration) {
    const auto fit = fit_line(counts);
    if (!fit)
        return unavailable_check("instructions", "fewer than two loop sizes were counted");
    // b of each count, given the known a: one b for every size, to the instruction.
    std::vector<double> bs;
    for (const auto& c : counts)
        bs.push_back(c.count -
                     static_cast<double>(per_iteration) * static_cast<double>(c.iterations));
    std::vector<double> sorted = bs;
    std::sort(sorted.begin(), sorted.end());
    const double b = sorted[sorted.size() / 2];
    double worst = 0, worst_tolerance = 0;
    bool exact = true;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const double off = std::fabs(bs[i] - b);
        const double tolerance = exact_tolerance(counts[i].count);
        exact = exact && off <= tolerance;
        if (off > worst) {
            worst = off;
            worst_tolerance = tolerance;
        }
    }
    const std::string where =
        fmt::format("{} counts of n = {} iterations", counts.size(), iterations_text(counts));
    if (exact) {
        return judged("instructions", true, fit->a, per_iteration, "instructions per iteration",
                      fmt::format("{} n + {:.0f} exactly for {} (every count within {:.0f} of the "
                                  "line)",
                                  per_iteration, b, where, worst));
    }
    return judged("instructions", false, fit->a, per_iteration, "instructions per iteration",
                  fmt::format("not {} n + b with one b: b = {:.0f} .. {:.0f} over {}, {:.0f} off "
                              "where {:.0f} is allowed (fitted: {:.4f} n + {:.0f})",
                              per_iteration, sorted.front(), sorted.back(), where, worst,
                              worst_tolerance, fit->a, fit->b));
}

CounterCheck judge_cycles(double instructions, double cycles) {
    if (instructions <= 0)
        return unavailable_check("cycles", "the loop's instructions were not counted");
    const double cpi = cycles / instructions;
    const bool plausible =
        cycles > 0 && cpi >= kMinCyclesPerInstruction && cpi <= kMaxCyclesPerInstruction;
    return judged("cycles", plausible, cpi, std::nullopt, "cycles per instruction",
                  fmt::format("{:.0f} cycles for {:.0f} instructions: {:.3f} per instruction "
                              "({}plausible: {:g} to {:g})",
                              cycles, instructions, cpi, plausible ? "" : "not ",
                              kMinCyclesPerInstruction, kMaxCyclesPerInstruction));
}

CounterCheck judge_branch_misses(std::string name, double misses, std::uint64_t iterations,
                                 double expected, double tolerance) {
    if (iterations == 0)
        return unavailable_check(std::move(name), "no iteration was counted");
    const double per = misses / static_cast<double>(iterations);
    const bool near = std::fabs(per - expected) <= tolerance;
    return judged(
        std::move(name), near, per, expected, "branch-misses per iteration",
        fmt::format("{:.0f} misses in {} iterations: {:.4f} per iteration ({} {:g} "
                    "within {:g})",
                    misses, iterations, per, near ? "near" : "not near", expected, tolerance));
}

CounterCheck judge_multiplexed(const std::vector<ScaledEvent>& events, double exact) {
    const std::string name = "multiplexing";
    if (events.empty() || exact <= 0)
        return unavailable_check(name, "no multiplexed list was counted");
    double least_running = 1;
    double farthest = exact, worst = 0;
    std::size_t uncounted = 0;
    for (const auto& e : events) {
        if (!e.counted) {
            ++uncounted;
            continue;
        }
        least_running = std::min(least_running, e.running_fraction);
        const double off = std::fabs(e.scaled - exact) / exact;
        if (off >= worst) {
            worst = off;
            farthest = e.scaled;
        }
    }
    if (uncounted == 0 && least_running >= 1) {
        return unavailable_check(
            name, fmt::format("nothing was multiplexed: the PMU counted all {} events at once",
                              events.size()));
    }
    const bool pass = uncounted == 0 && worst <= kMultiplexTolerance;
    std::string detail = fmt::format(
        "{} events, the least running {:.0f}% of the time: scaled counts within {:.3f}% of the "
        "unmultiplexed {:.0f} ({:g}% allowed)",
        events.size(), 100 * least_running, 100 * worst, exact, 100 * kMultiplexTolerance);
    if (uncounted > 0)
        detail =
            fmt::format("{} of {} events never ran (not counted); ", uncounted, events.size()) +
            detail;
    return judged(name, pass, farthest, exact, "instructions", detail);
}

CounterCheck judge_user_reads(const std::vector<LoopCount>& user_reads,
                              const std::vector<LoopCount>& read_calls, unsigned per_iteration) {
    const std::string name = "user-space reads";
    std::uint64_t span = 0;
    const auto user = loop_difference(user_reads, &span);
    const auto syscall = loop_difference(read_calls);
    if (!user || !syscall)
        return unavailable_check(name, "fewer than two loop sizes were counted both ways");
    const double known = static_cast<double>(per_iteration) * static_cast<double>(span);
    const double tolerance = exact_tolerance(known);
    const bool pass =
        std::fabs(*user - *syscall) <= tolerance && std::fabs(*user - known) <= tolerance;
    return judged(name, pass, *user, *syscall, "instructions",
                  fmt::format("{} more iterations counted {:.0f} through user-space reads and "
                              "{:.0f} through read() (the loop executes {:.0f}; {:.0f} allowed)",
                              span, *user, *syscall, known, tolerance));
}

CounterCheck judge_regions(const std::vector<RegionCount>& regions) {
    const std::string name = "regions";
    if (regions.empty())
        return unavailable_check(name, "no region was measured");
    const RegionCount* worst = &regions.front();
    std::vector<std::string> parts;
    for (const auto& r : regions) {
        const double off = r.corrected_per_entry - r.work_per_entry;
        if (std::fabs(off) > std::fabs(worst->corrected_per_entry - worst->work_per_entry))
            worst = &r;
        parts.push_back(fmt::format("{} (depth {}) {:+.1f}", r.name, r.depth, off));
    }
    const bool pass =
        std::fabs(worst->corrected_per_entry - worst->work_per_entry) <= kRegionTolerance;
    return judged(name, pass, worst->corrected_per_entry, worst->work_per_entry,
                  "instructions per entry",
                  fmt::format("corrected count per entry against the loop's known work: {} "
                              "({:g} allowed)",
                              fmt::join(parts, ", "), kRegionTolerance));
}

}  // namespace perfgauge::harness
