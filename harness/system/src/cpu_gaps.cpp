#include "perfgauge/harness/cpu_gaps.hpp"

#include <algorithm>
#include <vector>

#include "perfgauge/harness/doctor.hpp"
#include "perfgauge/harness/statistics.hpp"

namespace perfgauge::harness {

CpuGaps summarize_gaps(std::span<const Gap> gaps, double window_ns, double threshold_ns) {
    CpuGaps out;
    out.window_ns = window_ns;
    out.threshold_ns = threshold_ns;
    std::vector<double> lengths, starts;
    double lost = 0;
    for (const Gap& g : gaps) {
        if (g.length_ns < threshold_ns)
            continue;
        lengths.push_back(g.length_ns);
        starts.push_back(g.start_ns);
        lost += g.length_ns;
    }
    out.count = lengths.size();
    out.lost_share = window_ns > 0 ? std::min(1.0, lost / window_ns) : 0;
    out.typical_gap_ns = lengths.empty() ? 0 : median(lengths);
    std::sort(starts.begin(), starts.end());
    std::vector<double> periods;
    for (std::size_t i = 1; i < starts.size(); ++i)
        periods.push_back(starts[i] - starts[i - 1]);
    out.typical_period_ns = periods.empty() ? 0 : median(periods);
    return out;
}

CpuGaps measure_cpu_gaps(std::chrono::nanoseconds window, std::chrono::nanoseconds threshold) {
    using clock = std::chrono::steady_clock;
    // Room for as many gaps as the window can hold: nothing allocates while it spins.
    std::vector<Gap> gaps;
    gaps.reserve(
        static_cast<std::size_t>(window / std::max(threshold, std::chrono::nanoseconds(1))) + 1);
    const auto start = clock::now();
    const auto end = start + window;
    auto last = start;
    for (;;) {
        const auto now = clock::now();
        if (now - last >= threshold && gaps.size() < gaps.capacity()) {  // always room
            gaps.push_back({std::chrono::duration<double, std::nano>(last - start).count(),
                            std::chrono::duration<double, std::nano>(now - last).count()});
        }
        last = now;
        if (now >= end)
            break;
    }
    return summarize_gaps(gaps, std::chrono::duration<double, std::nano>(last - start).count(),
                          std::chrono::duration<double, std::nano>(threshold).count());
}

void record_cpu_gaps(RunResult& result, const CpuGaps& gaps) {
    result.system.cpu_gaps = gaps;
    const DoctorCheck check = cpu_gaps_check(gaps);
    if (check.level == CheckLevel::warn)
        result.warnings.push_back(check.topic + ": " + check.finding);
}

}  // namespace perfgauge::harness
