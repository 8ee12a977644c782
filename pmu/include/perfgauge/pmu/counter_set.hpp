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

    /// Flat readings for hot paths (Session regions): a row of flat_words() words per reading,
    /// read with no allocation and no vector per group. Per event (events() order) its count;
    /// per group its gap (time enabled - running) and its enabled time; a word of flags (bit g:
    /// group g's enabled time is whole, from read(); else it lacks the clock's share); last,
    /// a word the caller fills with the clock at the reading: the page's own clock (the TSC,
    /// CNTVCT_EL0), which completes those enabled times when a group's gap moved.
    std::size_t flat_words() const { return events_.size() + 2 * groups_.size() + 2; }
    std::size_t flat_clock_word() const { return flat_words() - 1; }
    /// Reads every group into `row`: from user space, one seqlock pass per event and no clock
    /// (page_reads.hpp), where `user_space_reads` and its pages allow it now; else read().
    /// The clock word is the caller's.
    void read_flat(std::uint64_t* row, bool user_space_reads) const;
    /// Per event (events() order) the change between two rows into out[0, events().size()),
    /// scaled for multiplexing where a group's gap moved; 0 for events not opened.
    void flat_delta(const std::uint64_t* before, const std::uint64_t* after, double* out) const;
    /// Where a row keeps group g's gap (its enabled time is the next word) and its flags.
    std::size_t flat_gap_word(std::size_t g) const { return events_.size() + 2 * g; }
    std::size_t flat_flags_word() const { return events_.size() + 2 * groups_.size(); }
    /// The mapped pages read_flat() reads, in group order (leaders first), and where each
    /// group's run of them starts and ends (first == end: the group is not mapped).
    struct FlatPage {
        const volatile perf_event_mmap_page* page;
        std::size_t word;  // the event's index, its count's word in a row
    };
    struct FlatGroup {
        std::size_t first, end;
    };
    const std::vector<FlatPage>& flat_pages() const { return flat_pages_; }
    const std::vector<FlatGroup>& flat_groups() const { return flat_groups_; }

    /// Per requested event (events() order): the scaled change between two snapshots.
    /// Events that were not opened come back with counted == false.
    std::vector<ScaledCount> delta(const Snapshot& before, const Snapshot& after) const;
    /// The same into `out` (resized to events().size()): no allocation once sized.
    void delta(const Snapshot& before, const Snapshot& after, std::vector<ScaledCount>& out) const;

  private:
    struct Group;
    CounterSet();
    void read_groups(Snapshot& out, bool user_space_reads) const;

    void index_flat_pages();
    /// Group g's enabled time at a reading in `row`, completed with the clock when needed.
    std::uint64_t flat_enabled(const std::uint64_t* row, std::size_t g) const;

    std::vector<EventSlot> events_;
    std::vector<std::unique_ptr<Group>> groups_;
    std::vector<FlatPage> flat_pages_;
    std::vector<FlatGroup> flat_groups_;
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
