// Counter groups opened with perf_event_open, read with one read() per group (or rdpmc).
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "perfgauge/pmu/counter_math.hpp"
#include "perfgauge/pmu/event_spec.hpp"
#include "perfgauge/pmu/perf_event.hpp"

namespace perfgauge::pmu {

struct CounterOptions {
    pid_t pid = 0;                ///< 0: the calling thread; else that process
    int cpu = -1;                 ///< -1: any CPU the task runs on
    bool inherit = false;         ///< count the task's future children and threads too
    bool enable_on_exec = false;  ///< start counting at the task's next exec (perf stat CMD)
    bool map_pages = false;       ///< mmap each counter so rdpmc can read it (self-monitoring)
};

/// Seam for perf_event_open, so group-splitting decisions can be tested without a PMU.
class EventOpener {
  public:
    virtual ~EventOpener() = default;
    virtual OpenResult open(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd) = 0;
};

/// What became of one requested event.
struct EventSlot {
    EventSpec spec;
    bool opened = false;
    int error = 0;             ///< errno from perf_event_open when !opened
    std::size_t group = 0;     ///< which opened group holds it (when opened)
    std::size_t position = 0;  ///< its index inside that group
    /// The attributes perf_event_open accepted (spec.attr with read_format, disabled, inherit,
    /// enable_on_exec as this set opened it); meaningful when opened.
    perf_event_attr opened_attr{};
};

enum class ReadPath { read_syscall, rdpmc };
const char* read_path_name(ReadPath path);

/// The events of an event list, opened as few groups as the kernel accepts.
///
/// Each `{...}` group is opened as written or not at all. Bare events are packed into shared
/// groups (hardware-PMU events in one, software events and tracepoints in another) so that a
/// snapshot costs one read() per group, not one per event; when the kernel refuses an event in
/// a shared group (counters exhausted, PMUs that cannot mix) it starts a new group and notes
/// the split. Events the kernel cannot open at all are kept with their errno; the rest count.
/// Groups are never pinned: a pinned group that loses its counter would read zero forever.
class CounterSet {
  public:
    static constexpr std::uint64_t kReadFormat = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
                                                 PERF_FORMAT_TOTAL_TIME_ENABLED |
                                                 PERF_FORMAT_TOTAL_TIME_RUNNING;

    /// Opens every event; never throws for events the kernel refuses (see events()).
    static CounterSet open(const std::vector<GroupSpec>& groups, const CounterOptions& options,
                           EventOpener* opener = nullptr);

    CounterSet(CounterSet&&) noexcept;
    CounterSet& operator=(CounterSet&&) noexcept;
    ~CounterSet();

    const std::vector<EventSlot>& events() const { return events_; }
    std::size_t group_count() const;
    std::size_t opened_count() const;
    /// Whether a snapshot (read()) enters the kernel: some group cannot be read with rdpmc
    /// (software events, no mapped PMU page). A group that can may still fall back to read()
    /// while it is not on a counter (multiplexing). False when nothing is open.
    bool snapshot_is_system_call() const;
    /// Human-readable notes about how the list was opened ("split ... into 2 groups").
    const std::vector<std::string>& notes() const { return notes_; }

    /// ioctl ENABLE / DISABLE / RESET on every group leader (whole group at once).
    void enable();
    void disable();
    void reset();

    /// Readings of every group; sized by make_snapshot() so read() allocates nothing.
    struct Snapshot {
        std::vector<GroupReading> groups;
        ReadPath path = ReadPath::read_syscall;
    };
    Snapshot make_snapshot() const;
    /// One read() per group, or rdpmc for groups whose counters are all on the PMU and mapped.
    void read(Snapshot& out) const { read_groups(out, true); }
    /// read() of every group even where user-space reads are possible: the reference those are
    /// checked against (selftest --counters).
    void read_with_system_call(Snapshot& out) const { read_groups(out, false); }

    /// Per requested event (events() order): the scaled change between two snapshots.
    /// Events that were not opened come back with counted == false.
    std::vector<ScaledCount> delta(const Snapshot& before, const Snapshot& after) const;
    /// The same into `out` (resized to events().size()): no allocation once sized.
    void delta(const Snapshot& before, const Snapshot& after, std::vector<ScaledCount>& out) const;

  private:
    struct Group;
    CounterSet();
    void read_groups(Snapshot& out, bool user_space_reads) const;

    std::vector<EventSlot> events_;
    std::vector<std::unique_ptr<Group>> groups_;
    std::vector<std::string> notes_;
};

/// Opens `events` (perf stat syntax) on the calling thread, mapped for rdpmc where the PMU
/// allows it: the self-monitoring set regions and the runner use. Throws EventError on bad names.
/// An empty list opens nothing (the clock alone).
CounterSet open_self_monitoring(const std::string& events);
/// The same for events resolved already (an event plan's): nothing is parsed again.
CounterSet open_self_monitoring(const std::vector<GroupSpec>& groups);

/// "cycles: not supported: <reason>" for every event of `set` the kernel refused.
std::vector<std::string> describe_unopened(const CounterSet& set);

}  // namespace perfgauge::pmu
