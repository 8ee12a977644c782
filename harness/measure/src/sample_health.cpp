#include "perfgauge/harness/sample_health.hpp"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cmath>
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

double disturbance_tolerance_ns(double wall_ns, double cpu_clock_slack_ns) {
    return kDisturbedWallShare * wall_ns + cpu_clock_slack_ns;
}

bool is_disturbed(const SampleHealth& h, double cpu_clock_slack_ns) {
    return h.involuntary_switches > 0 || h.probe_slowdown > 1 + kProbeSlowdown ||
           h.wall_ns - h.cpu_ns > disturbance_tolerance_ns(h.wall_ns, cpu_clock_slack_ns);
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
