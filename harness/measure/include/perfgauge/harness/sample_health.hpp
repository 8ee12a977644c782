// Was the thread on the CPU for the whole sample? A batch whose wall time exceeds the thread's
// CPU time, or during which the thread was switched out involuntarily, measured something else
// as well (another task, the hypervisor): it is "disturbed", kept for the record and left out of
// the statistics.
#pragma once

#include <cstdint>
#include <span>

namespace perfgauge::harness {

/// The calling thread's CPU time and involuntary context switches so far (clock_gettime
/// CLOCK_THREAD_CPUTIME_ID and getrusage RUSAGE_THREAD).
struct ThreadCpu {
    double cpu_ns = 0;
    std::uint64_t involuntary_switches = 0;
};
ThreadCpu read_thread_cpu();

/// What one batch cost in wall time (pauses included) and CPU time, and how often the thread
/// was switched out meanwhile.
struct SampleHealth {
    double wall_ns = 0;
    double cpu_ns = 0;
    std::uint64_t involuntary_switches = 0;
    /// The slower of the two probes bracketing the batch, over the median of the latest probes:
    /// above 1 + kProbeSlowdown the machine ran slow around this sample (a busy host or sibling
    /// thread, a lower frequency), which wall and CPU time cannot show.
    double probe_slowdown = 1;
};

inline constexpr double kProbeSlowdown = 0.05;

/// How far wall time may exceed CPU time before a sample counts as disturbed: 2% of the wall
/// time, plus the slack of the CPU clock itself (`cpu_clock_slack_ns`, calibrated).
inline constexpr double kDisturbedWallShare = 0.02;
double disturbance_tolerance_ns(double wall_ns, double cpu_clock_slack_ns);

/// Switched out involuntarily, wall time beyond CPU time by more than the tolerance, or the
/// bracketing probe slowed by more than kProbeSlowdown (pure).
bool is_disturbed(const SampleHealth& h, double cpu_clock_slack_ns);

/// The CPU clock's slack from undisturbed back-to-back readings: the 99th percentile of how far
/// (wall - CPU) strays from its median, and never below 5 us (pure).
double cpu_clock_slack_ns(std::span<const double> wall_minus_cpu_ns);

}  // namespace perfgauge::harness
