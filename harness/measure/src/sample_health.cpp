#include "perfgauge/harness/sample_health.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

ThreadCpu read_thread_cpu() {
    ThreadCpu out;
    timespec ts{};
    if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        out.cpu_ns = static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
    rusage usage{};
    if (::getrusage(RUSAGE_THREAD, &usage) == 0)
        out.involuntary_switches = static_cast<std::uint64_t>(usage.ru_nivcsw);
    return out;
}

std::optional<std::uint64_t> parse_steal_ticks(std::string_view proc_stat, int cpu) {
    const std::string label = "cpu" + std::to_string(cpu) + " ";
    std::size_t at = 0;
    while (at < proc_stat.size()) {
        const std::size_t end = std::min(proc_stat.find('\n', at), proc_stat.size());
        const std::string_view line = proc_stat.substr(at, end - at);
        at = end + 1;
        if (!line.starts_with(label))
            continue;
        // user nice system idle iowait irq softirq steal ...
        std::size_t pos = label.size();
        for (int field = 1; field <= 8; ++field) {
            while (pos < line.size() && line[pos] == ' ')
                ++pos;
            std::uint64_t value = 0;
            const auto [next, ec] =
                std::from_chars(line.data() + pos, line.data() + line.size(), value);
            if (ec != std::errc{})
                return std::nullopt;
            if (field == 8)
                return value;
            pos = static_cast<std::size_t>(next - line.data());
        }
    }
    return std::nullopt;
}

StealClock::StealClock()
    : fd_(::open("/proc/stat", O_RDONLY | O_CLOEXEC)), text_(std::size_t{1} << 16) {
    const long ticks_per_s = ::sysconf(_SC_CLK_TCK);
    if (!fd_ || ticks_per_s <= 0)
        return;
    ns_per_tick_ = 1e9 / static_cast<double>(ticks_per_s);
    available_ = read(::sched_getcpu()).has_value();
}

std::optional<double> StealClock::steal_ns(int cpu) {
    return available_ ? read(cpu) : std::nullopt;
}

std::optional<double> StealClock::read(int cpu) {
    if (cpu < 0)
        return std::nullopt;
    // From the start each time: /proc/stat is generated afresh on every read.
    const ssize_t n = ::pread(fd_.get(), text_.data(), text_.size(), 0);
    if (n <= 0)
        return std::nullopt;
    std::string_view text(text_.data(), static_cast<std::size_t>(n));
    if (text.size() == text_.size())  // cut short: a partial last line would misread
        text = text.substr(0, text.rfind('\n') + 1);
    const auto ticks = parse_steal_ticks(text, cpu);
    if (!ticks)
        return std::nullopt;
    return static_cast<double>(*ticks) * ns_per_tick_;
}

double disturbance_tolerance_ns(double wall_ns, double cpu_clock_slack_ns) {
    return kDisturbedWallShare * wall_ns + cpu_clock_slack_ns;
}

double switch_cost_bound_ns(const SampleHealth& h) {
    const double away_ns = std::max(0.0, h.wall_ns - h.cpu_ns);
    return static_cast<double>(h.involuntary_switches) * kSwitchCostNs +
           kSwitchAwayFactor * away_ns;
}

SampleHealth timed_part(const SampleHealth& h) {
    if (h.paused.pauses == 0)
        return h;
    SampleHealth t = h;
    t.wall_ns = std::max(0.0, h.wall_ns - h.paused.wall_ns);
    t.cpu_ns = std::max(0.0, h.cpu_ns - h.paused.cpu_ns);
    // The thread cannot have been off the CPU while timed for longer than it was off it at all:
    // the pauses' own readings leave tens of ns per pause on the wrong side (a system call's way
    // in costs more after a system call than after user code), 260 us over a batch of 6662
    // pauses with no time away at all (issue 34, seed 000 with task-clock).
    const double away_at_all = std::max(0.0, h.wall_ns - h.cpu_ns);
    t.cpu_ns = std::max(t.cpu_ns, t.wall_ns - away_at_all);
    t.involuntary_switches =
        h.involuntary_switches - std::min(h.involuntary_switches, h.paused.involuntary_switches);
    t.paused = {};
    return t;
}

Disturbance disturbance_of(const SampleHealth& whole, double cpu_clock_slack_ns) {
    const SampleHealth h = timed_part(whole);
    const double timed_ns = h.timed_ns > 0 ? std::min(h.timed_ns, h.wall_ns) : h.wall_ns;
    if (h.involuntary_switches > 0 && switch_cost_bound_ns(h) > kNegligibleSwitchShare * timed_ns)
        return Disturbance::switched_out;
    if (h.wall_ns - h.cpu_ns > disturbance_tolerance_ns(h.wall_ns, cpu_clock_slack_ns))
        return Disturbance::away;
    if (h.probe_slowdown > 1 + kProbeSlowdown)
        return Disturbance::slow_probe;
    if (h.steal_ns > 0)
        return Disturbance::steal;
    return Disturbance::none;
}

bool is_disturbed(const SampleHealth& h, double cpu_clock_slack_ns) {
    return disturbance_of(h, cpu_clock_slack_ns) != Disturbance::none;
}

std::string_view describe(Disturbance d) {
    switch (d) {
        case Disturbance::switched_out:
            return "switched out while timed";
        case Disturbance::away:
            return "off the CPU while timed";
        case Disturbance::slow_probe:
            return "the machine ran slow around it";
        case Disturbance::steal:
            return "the hypervisor stole time";
        case Disturbance::none:
            break;
    }
    return "";
}

std::string shortfall_warning(std::string_view name, std::size_t clean, std::size_t planned,
                              const DisturbanceCounts& set_aside) {
    std::size_t disturbed = 0;
    std::string reasons;
    for (std::size_t i = 1; i < set_aside.size(); ++i) {
        if (set_aside[i] == 0)
            continue;
        disturbed += set_aside[i];
        reasons += (reasons.empty() ? "" : ", ") + std::to_string(set_aside[i]) + " " +
                   std::string(describe(static_cast<Disturbance>(i)));
    }
    const std::string why = std::to_string(disturbed) + " disturbed" +
                            (reasons.empty() ? std::string() : ": " + reasons);
    if (clean == 0) {
        return std::string(name) + ": no undisturbed sample, no statistic (" + why +
               "); every sample taken is kept in the result as disturbed. Measure again on a "
               "quieter machine, or with more work per iteration between pauses";
    }
    return std::string(name) + ": only " + std::to_string(clean) + " of " +
           std::to_string(planned) + " samples undisturbed (" + why +
           "); its statistics rest on fewer samples";
}

double work_ns_at_least(const SampleHealth& whole, double ns) {
    const SampleHealth h = timed_part(whole);
    const double away_ns = std::max(0.0, h.wall_ns - h.cpu_ns);
    return std::max(0.0, ns - away_ns - h.steal_ns) / std::max(1.0, h.probe_slowdown);
}

double cpu_clock_slack_ns(std::span<const double> wall_minus_cpu_ns) {
    constexpr double kFloorNs = 5000;
    if (wall_minus_cpu_ns.empty())
        return kFloorNs;
    const double centre = median(wall_minus_cpu_ns);
    std::vector<double> stray;
    for (const double gap : wall_minus_cpu_ns)
        stray.push_back(std::fabs(gap - centre));
    return std::max(kFloorNs, quantile(stray, 0.99));
}

}  // namespace perfgauge::harness
