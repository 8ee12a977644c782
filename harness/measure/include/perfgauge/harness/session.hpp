// Timed regions in your own code, with counters:
//
//   perfgauge::harness::Session session("task-clock,page-faults,cycles");
//   {
//       auto region = session.region("parse");   // RAII: measured until the end of scope
//       parse(input);
//   }
//   const auto step = session.region_id("step");  // the fast path: resolved once
//   for (auto& item : items) {
//       auto region = session.region(step);      // no lookup, no allocation
//       process(item);
//   }
//   session.measure("encode", [&] { encode(output); });
//   std::cout << session.report();
//
// A Session belongs to the thread that created it: its counters count that thread only, and
// regions must be opened on it (each thread that measures makes its own Session). Regions
// nest; each region name aggregates every entry: count, time, and every counter, both raw and
// corrected by the calibrated cost of measuring an empty region.
//
// Simulated: run under `perfgauge stat --backend sim` (valgrind's callgrind, with
// PERFGAUGE_REGIONS=callgrind), a Session dumps callgrind's counters at every region boundary
// and stat reports simulated counts per region name. Otherwise that costs one predictable branch
// per boundary.
//
// A Session made by code compiled without optimization (no -O: CMake's default build type)
// says so in its report: "built without optimization", as Google Benchmark warns of a DEBUG
// build: its regions then time code nobody ships (the `sum` example of docs/library.md
// took 16.3 ms at -O0 and 274 us at -O3).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "perfgauge/harness/caller_optimized.hpp"
#include "perfgauge/harness/clock.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/overhead.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

struct SessionOptions {
    /// Empty regions measured at construction to calibrate the overhead (0: no correction).
    std::size_t calibration_samples = 2000;
    /// Deepest nesting supported; snapshots for every level are allocated up front. Values
    /// below 2 are raised to 2 (the calibration nests two regions).
    std::size_t max_depth = 64;
};

/// Aggregate of every entry of one region name.
struct RegionResult {
    std::string name;
    std::size_t depth = 0;         ///< nesting depth of its first entry (0: outermost)
    std::size_t count = 0;         ///< entries
    double time_ns = 0;            ///< raw total (perfgauge's rare bookkeeping taken out)
    double corrected_time_ns = 0;  ///< total minus the calibrated overhead of every region in it
    std::vector<double> counters;  ///< raw totals, in event_names() order (as time_ns)
    std::vector<double> corrected_counters;  ///< minus the calibrated overhead
    /// Corrected time of each entry, for the median and spread: the first kKeptEntries entries
    /// (8 MiB of a long-running region; the report says when it rests on fewer than `count`).
    /// Its buffer is made with room for 512 (4 KiB per name) and doubles when full.
    std::vector<double> entry_ns;
    static constexpr std::size_t kKeptEntries = std::size_t{1} << 20;
};

class Session {
  public:
    /// Opens `events` (perf stat syntax) on the calling thread; events the kernel refuses are
    /// reported by unsupported_events() and count nothing (never fails for that reason).
    /// Throws pmu::EventError for names that do not exist. `caller_optimized` is whether the
    /// code making the session was compiled with optimization: left to its default, the
    /// caller's own translation unit answers; false puts "built without optimization" in the
    /// report.
    explicit Session(const std::string& events = kDefaultLibraryEvents, SessionOptions options = {},
                     bool caller_optimized = PERFGAUGE_CALLER_OPTIMIZED);
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// A region name resolved once (region_id()): entering by it looks nothing up.
    class RegionId {
      public:
        RegionId() = default;  ///< names no region: entering by it throws

      private:
        friend class Session;
        RegionId(const Session* session, std::size_t slot)
            : session_(session), tag_(enter_tag(slot, false)) {}
        const Session* session_ = nullptr;
        std::uint64_t tag_ = 0;  // its entries' journal tag, made once
    };

    class Region {
      public:
        Region(Session& session, std::string_view name);
        /// Inline, through the session's boundary functions: the common path of a region
        /// entered by id is one call each way (docs/library.md, "What a region costs").
        Region(Session& session, RegionId id) : session_(&session) {
            if (id.session_ != &session) [[unlikely]]
                foreign_region_id();
            serial_ = session.enter_(session, id.tag_);
        }
        Region(Region&& other) noexcept
            : session_(std::exchange(other.session_, nullptr)), serial_(other.serial_) {}
        Region(const Region&) = delete;
        Region& operator=(const Region&) = delete;
        Region& operator=(Region&&) = delete;
        ~Region() {
            if (session_ != nullptr)
                session_->leave_(*session_, serial_);
        }

      private:
        [[noreturn]] static void foreign_region_id();
        Session* session_;
        std::uint64_t serial_;  // which entry this is (regions may close out of order)
    };

    /// Starts a region that ends when the returned object is destroyed, or when a region
    /// around it ends first (Regions are movable, so they may close out of order: the report
    /// says so). A Region must end on the thread that opened it and before its Session is
    /// destroyed. One ending on another thread only leaves word of it (that thread would race
    /// with the owner's regions, and its counters count the owner's thread): its entry, if
    /// still open, is dropped uncounted at the owner's next region boundary (one nested in it
    /// and still open: once that closes), and the report says how many ended elsewhere
    /// (regions_ended_elsewhere()) and lists none of them as still open. The region around a
    /// dropped one still subtracts a whole nested region's cost for it, though only the
    /// opening half was paid inside it.
    [[nodiscard]] Region region(std::string_view name) { return Region(*this, name); }
    /// The same for a name resolved once: the fast path, for regions entered often. Entering
    /// by name looks the name up (a hash) on every entry, which the region around it pays.
    [[nodiscard]] Region region(RegionId id) { return Region(*this, id); }
    /// The name's region, made now if new (outside every open region's measurement). Only on
    /// the session's thread; the id is this session's only.
    RegionId region_id(std::string_view name);

    /// Runs `fn` inside a region named `name` and returns what it returns.
    template <class F>
    decltype(auto) measure(std::string_view name, F&& fn) {
        Region r(*this, name);
        return std::forward<F>(fn)();
    }

    const std::vector<std::string>& event_names() const { return event_names_; }
    /// Events the kernel would not open here, with the reason ("cycles: not supported: ...").
    const std::vector<std::string>& unsupported_events() const { return unsupported_; }
    /// Calibrated cost of one empty region: time, and each counter.
    double overhead_ns() const { return overhead_.ns; }
    const std::vector<double>& counter_overhead() const { return overhead_.counts; }
    /// What one nested region's enter+leave, entered by its RegionId, costs the region around
    /// it (subtracted from the parent once per region nested in it, at any depth): a region's
    /// cost to the code around it.
    double nested_overhead_ns() const { return nested_overhead_.ns; }
    const std::vector<double>& nested_counter_overhead() const { return nested_overhead_.counts; }
    /// What entering by name adds to that (the lookup), for each region entered by name.
    double lookup_overhead_ns() const { return lookup_overhead_.ns; }
    const std::vector<double>& lookup_counter_overhead() const { return lookup_overhead_.counts; }
    const Clock& clock() const { return clock_; }
    /// Whether the code that made this session was compiled with optimization.
    bool caller_optimized() const { return caller_optimized_; }
    /// perfgauge's own bookkeeping done while regions were open (a new name's slot, an entry
    /// buffer growing): how often, and its time, taken out of every region open around it.
    std::size_t bookkeeping_count() const { return bookkeeping_count_; }
    /// Regions whose Region object ended on another thread than the session's.
    std::size_t regions_ended_elsewhere() const {
        return ended_elsewhere_.load(std::memory_order_relaxed);
    }
    double bookkeeping_ns() const { return bookkeeping_ns_; }

    /// Every region name seen (entered, or resolved by region_id()), in that order.
    const std::vector<RegionResult>& results() const;
    /// results() per entry: the mean raw and corrected time, the median corrected time and its
    /// spread (IQR / median), and each counted event's corrected mean; events the kernel refused
    /// are listed once below, not as columns. A corrected total or median below zero (the
    /// calibration's own noise) is shown as 0 and said; regions still open are said, their open
    /// entries not included. Table (default), CSV, Markdown or JSON: rendered by the results
    /// library (session_report.hpp) from what the session measured.
    std::string report(OutputFormat format = OutputFormat::table) const;

  private:
    // A region boundary does only its raw reads and appends them to a journal; every sum,
    // correction and median is worked out when the journal is replayed (when it is full, and
    // before results are read). Pure arithmetic off the measured path: issue 51 priced a
    // region at 150 user instructions per enter and leave.
    //
    // A journal record: a tag word (kind; whether its reading is raw; for an entry, its slot
    // and whether it was found by name), then its reading: a flat row of
    // CounterSet::flat_words() words (its last the clock) from the slow path, or from the fast
    // one the clock and the group's raw words (pmu::raw_group_words()), which the replay turns
    // into a flat row.
    enum RecordKind : std::uint64_t {
        kEnterRecord = 0,
        kLeaveRecord = 1,
        kDiscardRecord = 2,     // an entry dropped uncounted (it ended on another thread)
        kBookkeepingRecord = 3  // perfgauge's own work: this row and the next record's bound it
    };
    static constexpr std::uint64_t kFlatRecord = 4;  // else raw: the fast path's
    static constexpr std::uint64_t kNamedTag = 8;
    static constexpr std::uint64_t enter_tag(std::size_t slot, bool named) {
        return (static_cast<std::uint64_t>(slot) << 4) | (named ? kNamedTag : 0u) | kEnterRecord;
    }
    static constexpr std::size_t tag_slot(std::uint64_t tag) {
        return static_cast<std::size_t>(tag >> 4);
    }
    /// Records a full journal holds before it is replayed (and two more for the bookkeeping
    /// that replays it): 72 bytes each for two events (the tag, the clock, three
    /// times and two words per event), 36 KiB in all.
    static constexpr std::size_t kJournalRecords = 512;
    /// A flat row's words after its counts: the group's gap and enabled time, flags, clock.
    static constexpr std::size_t kRowWordsPastCounts = 4;

    // An open region as the boundaries see it (16 bytes: a push is one paired store); its
    // readings are in the journal.
    struct Open {
        std::uint64_t serial;  // the Region's (0: the sentinel below the stack)
        std::uint64_t tag;     // its entry's journal tag: its slot, whether entered by name
        std::size_t slot() const { return tag_slot(tag); }
    };
    /// The open regions, innermost last, above a sentinel whose serial no Region has (a leave
    /// checks the top's serial without checking for an empty stack): room for max_depth
    /// entries made once, so that a push is a store (enter() checks the depth first).
    class OpenStack {
      public:
        void reserve(std::size_t n) {
            data_ = std::make_unique<Open[]>(n + 1);
            data_[0] = Open{0, 0};
            top_ = data_.get();
            full_ = data_.get() + n;
        }
        bool empty() const { return top_ == data_.get(); }
        std::size_t size() const { return static_cast<std::size_t>(top_ - data_.get()); }
        Open& back() { return *top_; }
        const Open& back() const { return *top_; }
        void push_back(const Open& open) { *++top_ = open; }
        void pop_back() { --top_; }
        Open* begin() { return data_.get() + 1; }
        Open* end() { return top_ + 1; }
        const Open* begin() const { return data_.get() + 1; }
        const Open* end() const { return top_ + 1; }

      private:
        friend class Session;
        Open* top_ = nullptr;   // the innermost entry, or the sentinel: a pointer, no index
        Open* full_ = nullptr;  // top_ here: max_depth entries open
        std::unique_ptr<Open[]> data_;
    };
    // An open region as the journal's replay sees it.
    struct Replayed {
        std::size_t slot;
        std::uint64_t start_ticks;   // moved later by the bookkeeping it must not pay
        std::size_t nested_regions;  // regions entered inside this one (their overhead is in it)
        std::size_t nested_named;    // of which entered by name (their lookups are in it too)
        bool named;
    };

    /// The boundaries, chosen once per session: for a group of N events read from user
    /// space and laid out in order, enter_fast<N>/leave_fast<N>; else enter_slow/leave_slow.
    using EnterFn = std::uint64_t (*)(Session&, std::uint64_t tag);
    using LeaveFn = void (*)(Session&, std::uint64_t serial);
    template <std::size_t N>
    static std::uint64_t enter_fast(Session& s, std::uint64_t tag);
    template <std::size_t N>
    static void leave_fast(Session& s, std::uint64_t serial);
    static std::uint64_t enter_any(Session& s, std::uint64_t tag) { return s.enter_slow(tag); }
    static void leave_any(Session& s, std::uint64_t serial) { s.leave_slow(serial); }
    void choose_boundaries();
    /// The N events' raw words (pmu::raw_group_words(N)) into `raw`: false when a page says the
    /// group cannot be read from user space now.
    template <std::size_t N>
    [[gnu::always_inline]] inline bool read_raw(std::uint64_t* raw) const;
    /// A record's reading as a flat row: the record's own, or its raw words worked out.
    const std::uint64_t* flat_row(const std::uint64_t* record);

    std::size_t slot_for(std::string_view name);
    /// Whether the calling thread is the session's: its thread pointer, one register read.
    bool on_owner_thread() const;
    /// Throws std::logic_error on any thread but the one that made the session.
    void check_thread() const;
    /// Every rare case of an entry: another thread, regions abandoned, too deep, the journal
    /// full, simulation. Returns the entry's serial, which leave() takes. `tag`: enter_tag()
    /// of its slot and whether it was found by name (the parent's correction adds the lookup).
    std::uint64_t enter_slow(std::uint64_t tag);
    /// An entry or exit appended to the journal by the general path (any counter set).
    std::uint64_t push_entry(std::uint64_t tag);
    void pop_entry();
    /// The row of counter readings taken at depth `depth`'s entry (flat_words() words).
    std::uint64_t* row(std::size_t depth) { return rows_.data() + depth * row_words_; }
    /// Called by a Region ending on another thread: records its serial for the owner.
    void abandon(std::uint64_t serial) noexcept;
    /// On the owner's thread: takes the serials other threads abandoned and drops those entries
    /// on top of the stack, uncounted (one below a region still open is dropped when that one
    /// has closed, or with a region around both).
    void drop_abandoned();
    bool abandoned(std::uint64_t serial) const;
    /// The entry of `serial` while it is open, else nullptr.
    const Open* open_entry(std::uint64_t serial) const;
    /// Pops the top entry without recording it: its parent still holds its time, and pays for
    /// its enter and everything nested in it.
    void discard_top();
    void leave(std::uint64_t serial) { leave_(*this, serial); }
    /// Every rare case of an exit: another thread, regions abandoned, out of order, the journal
    /// full, simulation.
    void leave_slow(std::uint64_t serial);
    /// Reads the counters into `row` (the clock word is the caller's): CounterSet::read_flat(),
    /// from user space where the pages allow it.
    void read_counters(std::uint64_t* row) const;
    /// Where the next record goes, the journal replayed first when it is full.
    std::uint64_t* next_record();
    /// Where the fast boundaries stop: the journal's last record, or its start (every
    /// boundary takes the slow path) while simulating or while entries ended elsewhere are
    /// pending. Under abandoned_mutex_, as abandon() on other threads writes it too.
    void refresh_journal_limit();
    /// Replays the journal (outside every open region's measurement), when it holds records.
    void flush_journal();
    /// flush_journal() for results() and report().
    void replay_before_reading() const;
    /// The records so far, in order, into the regions' totals; the journal is empty after.
    void replay_journal();
    void replay_enter(std::size_t slot, bool named, const std::uint64_t* start);
    void replay_discard();
    void replay_bookkeeping(const std::uint64_t* before, const std::uint64_t* after);
    /// Adds a finished entry to its region's totals.
    void record(const Replayed& open, const std::uint64_t* end);
    /// record()'s counts where the fast path's do not apply: several groups, a multiplexed
    /// group, bookkeeping to take out.
    void record_counts_slowly(std::size_t depth, const std::uint64_t* end, RegionResult& r);
    /// The corrected counters of every region from its totals (the correction is linear, so
    /// this is the sum of every entry's): done when results are read, not at every leave.
    void correct_counters() const;
    /// A region closed while regions opened inside it are still open (movable Regions allow
    /// it): those close with it, their time ending there, and the report says so; a region
    /// that closed that way is not closed again.
    void leave_out_of_order(std::uint64_t serial);
    /// Runs perfgauge's own occasional bookkeeping (a new name's slot, the journal's replay)
    /// so that no open region pays for it: its time and counts are taken out of every open
    /// region. Without this, a parent of many children paid for their entry buffers' page
    /// faults (~17 us each on the development VM): +31..40% of the raw time of 2000 parents of 10.
    template <class Work>
    void outside_open_regions(Work&& work, bool replay = false);
    /// Room for `r`'s next entry: the buffer doubles, its pages written now (not one fault per
    /// 512 entries later, inside whichever region is open then).
    /// When memory runs out the buffer stays as it was: that entry is not kept (its totals are).
    static void make_room_for_entry(RegionResult& r);
    void calibrate(std::size_t samples);
    /// Under perfgauge's simulation: a callgrind dump named for the boundary.
    void simulated_boundary(const char* what, std::size_t slot) const;

    // What every region boundary reads first, its limit at offset 0 (an atomic's load takes no
    // offset on arm64). Written by abandon() on other threads, hence atomic.
    std::atomic<std::uint64_t*> journal_limit_{nullptr};
    std::uint64_t* journal_top_ = nullptr;
    const void* const owner_thread_pointer_;
    OpenStack stack_;
    std::size_t max_depth_ = 0;
    std::uint64_t last_serial_ = 0;
    // The fast path's pages: one group of every event, read from user space, at most
    // kFastEvents (else enter_ is enter_any and read_flat() reads them).
    static constexpr std::size_t kFastEvents = 4;
    std::array<const volatile perf_event_mmap_page*, kFastEvents> fast_pages_{};
    std::size_t fast_events_ = 0;
    EnterFn enter_ = &enter_any;
    LeaveFn leave_ = &leave_any;
    std::vector<std::uint64_t> journal_;
    std::size_t record_words_ = 0;
    std::uint64_t* journal_full_ = nullptr;  // after kJournalRecords records
    // What another thread may touch (a Region ending there): the list and its flag under the
    // mutex, the count atomically.
    mutable std::mutex abandoned_mutex_;
    std::vector<std::uint64_t> abandoned_by_others_;
    std::atomic<std::size_t> ended_elsewhere_{0};
    std::atomic<bool> abandoned_pending_{false};
    std::vector<std::uint64_t> to_drop_;  // the owner's copy, until each entry is gone
    Clock clock_;
    pmu::CounterSet counters_;
    std::vector<std::string> event_names_;
    std::vector<std::string> unsupported_;
    // Flat counter readings of the journal's replay: one row per depth (its entry's), then
    // the two of the bookkeeping and a raw record's worked out; row_words_ each
    // (CounterSet::flat_words()).
    std::size_t row_words_ = 0;
    std::vector<std::uint64_t> rows_;
    // Read from user space where the pages allow it: the clock is the pages' own (TSC,
    // CNTVCT_EL0), which completes a multiplexed group's times.
    bool user_space_reads_ = false;
    // Any of the rare cases at region boundaries (simulation, abandoned entries to drop): every
    // boundary takes the slow path (refresh_journal_limit()).
    bool slow_boundaries_ = false;
    // The replay's state: the regions open at the journal's last replayed record; the counts of
    // the bookkeeping done inside the region open at each depth (not its own), and whether
    // there are any (the common path skips them).
    std::vector<Replayed> replayed_;
    std::vector<std::vector<double>> excluded_counts_;
    std::vector<char> excluded_dirty_;
    std::vector<double> bookkeeping_deltas_;
    std::vector<std::pair<std::size_t, std::size_t>> closed_with_parent_;  // slots, once each
    std::size_t bookkeeping_count_ = 0;                                    // since calibration
    double bookkeeping_ns_ = 0;
    std::vector<double> deltas_;
    // One group (the common case, every event counted together): its events' words in a row.
    bool single_group_ = false;
    std::vector<std::size_t> group_words_;
    std::size_t gap_word_ = 0;
    // Per region (results_' order): the regions nested in its entries and those of them
    // entered by name, summed, from which correct_counters() corrects its counters.
    struct Nesting {
        double nested = 0, named = 0;
    };
    std::vector<Nesting> nesting_;
    // Names are found by string_view: a name longer than std::string's inline buffer would
    // otherwise be copied to the heap on every entry - inside the parent's interval, and not in
    // the calibration's when the names' lengths differ (a parent of 10 empty regions corrected
    // to -10% of its raw time without events while its children's name was the short one).
    // Hashing still costs ~0.1 ns per byte of a child's name, which its parent pays.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view name) const noexcept {
            return std::hash<std::string_view>{}(name);
        }
    };
    std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> slots_by_name_;
    mutable std::vector<RegionResult> results_;  // corrected counters: correct_counters()
    Overhead overhead_;                          ///< inside one empty region
    Overhead nested_overhead_;                   ///< of one empty region, seen from its parent
    Overhead lookup_overhead_;                   ///< what finding a region by name adds to that
    bool simulated_regions_ = false;  ///< under perfgauge's simulation, after calibration
    bool caller_optimized_ = true;    ///< said in the report when false
};

}  // namespace perfgauge::harness

// Markers that cost nothing unless PERFGAUGE_ENABLE_MARKERS is defined: the session argument
// and name are not even evaluated when disabled.
#define PERFGAUGE_CONCAT_INNER(a, b) a##b
#define PERFGAUGE_CONCAT(a, b) PERFGAUGE_CONCAT_INNER(a, b)
#ifdef PERFGAUGE_ENABLE_MARKERS
#define PERFGAUGE_REGION(session, name)                                                            \
    ::perfgauge::harness::Session::Region PERFGAUGE_CONCAT(perfgauge_region_, __LINE__)((session), \
                                                                                        (name))
#else
#define PERFGAUGE_REGION(session, name) static_cast<void>(0)
#endif
