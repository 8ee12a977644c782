// Was the thread on the CPU for the whole sample? A batch whose wall time exceeds the thread's
// CPU time, or during which the thread was switched out involuntarily (unless the switches'
// bounded cost is negligible beside a long batch), measured something else as well (another
// task, the hypervisor): it is "disturbed", kept for the record and left out of the statistics.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::harness {

/// The calling thread's CPU time and involuntary context switches so far (clock_gettime
/// CLOCK_THREAD_CPUTIME_ID and getrusage RUSAGE_THREAD).
struct ThreadCpu {
    double cpu_ns = 0;
    std::uint64_t involuntary_switches = 0;
};
ThreadCpu read_thread_cpu();

/// What the thread did during a batch's untimed pauses. Read at every pause and resume only
/// where each pause already makes system calls (counter snapshots that are read()): there two
/// more cost the timed work nothing it does not pay already. Zero pauses: never read, and
/// the whole batch is judged.
struct PausedUsage {
    std::uint64_t pauses = 0;  ///< pause/resume pairs read
    double wall_ns = 0;
    double cpu_ns = 0;
    std::uint64_t involuntary_switches = 0;
};

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
    /// How far the CPU's steal time advanced around the batch (StealClock; whole ticks, capped
    /// at wall_ns; 0 where /proc/stat does not say): the hypervisor ran something else.
    double steal_ns = 0;
    /// The timed part of the batch (its pauses left out), where what a switch costs lands; 0:
    /// all of wall_ns. A pausing batch may be timed for a small share of its wall time.
    double timed_ns = 0;
    /// Within wall_ns, cpu_ns and involuntary_switches: what happened while it was paused,
    /// where that was read (see PausedUsage).
    PausedUsage paused{};
};

/// The batch while its clock ran: wall and CPU time and switches less what its pauses saw
/// (never below 0; its time off the CPU never more than the whole batch's), the probe and steal
/// as they were (both read only around the batch). A switch during an untimed pause does not
/// disturb the timed part. Without paused readings: the batch as it is (pure).
SampleHealth timed_part(const SampleHealth& h);

inline constexpr double kProbeSlowdown = 0.05;

/// A virtual CPU's steal time: how long the hypervisor ran something else while the guest
/// wanted this CPU (the 8th value of a "cpuN" line of /proc/stat, in USER_HZ ticks, 10 ms on
/// most kernels). Wall time beyond CPU time shows stolen time only where the guest kernel keeps
/// it out of the task's run time (paravirtual steal accounting); this reads it directly. Coarse:
/// a sample during which its CPU's counter advanced lost at least part of a tick to the host.
class StealClock {
  public:
    /// Opens /proc/stat; without it, or without a steal column, never available.
    StealClock();
    bool available() const { return available_; }
    /// `cpu`'s steal so far, in ns; nullopt when unavailable or unreadable (a line that is not
    /// whole within the first 64 KiB of /proc/stat, on a machine with thousands of CPUs).
    std::optional<double> steal_ns(int cpu);

  private:
    std::optional<double> read(int cpu);

    pmu::FileDescriptor fd_;
    std::vector<char> text_;  // read buffer, allocated once
    double ns_per_tick_ = 0;
    bool available_ = false;
};

/// The steal ticks on `cpu`'s line ("cpu3 ...") of /proc/stat's text; nullopt when there is
/// no such line or it has fewer than 8 values (kernels before 2.6.11) (pure).
std::optional<std::uint64_t> parse_steal_ticks(std::string_view proc_stat, int cpu);

/// How far wall time may exceed CPU time before a sample counts as disturbed: 2% of the wall
/// time, plus the slack of the CPU clock itself (`cpu_clock_slack_ns`, calibrated).
inline constexpr double kDisturbedWallShare = 0.02;
double disturbance_tolerance_ns(double wall_ns, double cpu_clock_slack_ns);

/// What involuntary switches may have cost a sample, at most: per switch a fixed kSwitchCostNs
/// (the switch itself, and refilling the TLB, branch predictors and the private caches that
/// another task used meanwhile), plus kSwitchAwayFactor x the time the thread was away (wall
/// minus CPU time): whatever ran meanwhile could evict no more than it touched in that time,
/// and re-reading it costs about as long again, or a few times longer for scattered reads.
inline constexpr double kSwitchCostNs = 50'000;
inline constexpr double kSwitchAwayFactor = 20;
double switch_cost_bound_ns(const SampleHealth& h);
/// A sample so long that what its switches may have cost is at most this share of its timed
/// part is not disturbed by them: one iteration of a working set beyond the last-level cache
/// lasts up to a second, and most such samples are switched out once, for microseconds, by the
/// kernel's own threads (on an Intel VM, 60% of 580 ms samples, 8-60 us away; those up to
/// 26.5 us away now stay): none could be kept, and retaking them and their sizing batches took
/// a quarter of the default suite's 154.6 s there. A tenth of the default precision target.
inline constexpr double kNegligibleSwitchShare = 0.001;

/// Judged on timed_part(h): switched out involuntarily (unless switch_cost_bound_ns() is at
/// most kNegligibleSwitchShare of the timed part: only samples timed for 50 ms or more), wall
/// time beyond CPU time by more than the tolerance, the bracketing probe slowed by more than
/// kProbeSlowdown, or the hypervisor stole time (pure).
bool is_disturbed(const SampleHealth& h, double cpu_clock_slack_ns);

/// Why is_disturbed() said so, the first reason in the order below (pure). Named in the
/// warning for a benchmark left with too few undisturbed samples.
enum class Disturbance { none, switched_out, away, slow_probe, steal };
Disturbance disturbance_of(const SampleHealth& h, double cpu_clock_slack_ns);
/// "switched out while timed", "off the CPU while timed", "the machine ran slow around it",
/// "the hypervisor stole time", "" for none.
std::string_view describe(Disturbance d);
/// How many samples were set aside for each reason, indexed by Disturbance.
using DisturbanceCounts = std::array<std::size_t, 5>;

/// The warning for a benchmark left with `clean` undisturbed samples of the `planned`, naming
/// how many were set aside for what. With none, it says so first: such a benchmark has no
/// statistic at all, and the caller must not read its silence as a result (pure).
std::string shortfall_warning(std::string_view name, std::size_t clean, std::size_t planned,
                              const DisturbanceCounts& set_aside);

/// At least how much of a batch's measured `ns` was its own work, whatever disturbed it: less
/// the time the thread was away while timed (timed_part's wall minus CPU time) and the stolen
/// time, over the probe's slowdown (pure; never below 0).
double work_ns_at_least(const SampleHealth& h, double ns);

/// The CPU clock's slack from undisturbed back-to-back readings: the 99th percentile of how far
/// (wall - CPU) strays from its median, and never below 5 us (pure).
double cpu_clock_slack_ns(std::span<const double> wall_minus_cpu_ns);

}  // namespace perfgauge::harness
