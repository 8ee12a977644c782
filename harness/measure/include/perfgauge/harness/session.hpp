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
        RegionId(const Session* session, std::size_t slot) : session_(session), slot_(slot) {}
        const Session* session_ = nullptr;
        std::size_t slot_ = 0;
    };

    class Region {
      public:
        Region(Session& session, std::string_view name);
        Region(Session& session, RegionId id);
        Region(Region&& other) noexcept
            : session_(std::exchange(other.session_, nullptr)), serial_(other.serial_) {}
        Region(const Region&) = delete;
        Region& operator=(const Region&) = delete;
        Region& operator=(Region&&) = delete;
        ~Region() {
            if (session_ != nullptr)
                session_->leave(serial_);
        }

      private:
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
    // 64 bytes: the stack's index arithmetic is a shift.
    struct alignas(64) Open {
        std::size_t slot;
        std::uint64_t start_ticks;   // moved later by the bookkeeping it must not pay
        std::size_t nested_regions;  // regions entered inside this one (their overhead is in it)
        std::size_t nested_named;    // of which entered by name (their lookups are in it too)
        std::uint64_t serial;        // the Region's
        bool named;                  // entered by name: its parent paid for the lookup
    };
    /// The open regions, innermost last: room for max_depth entries made once, so that a push
    /// is a store (enter() checks the depth first).
    class OpenStack {
      public:
        void reserve(std::size_t n) { data_ = std::make_unique<Open[]>(n); }
        bool empty() const { return size_ == 0; }
        std::size_t size() const { return size_; }
        Open& back() { return data_[size_ - 1]; }
        const Open& back() const { return data_[size_ - 1]; }
        void push_back(const Open& open) { data_[size_++] = open; }
        void pop_back() { --size_; }
        Open* begin() { return data_.get(); }
        Open* end() { return data_.get() + size_; }
        const Open* begin() const { return data_.get(); }
        const Open* end() const { return data_.get() + size_; }

      private:
        std::unique_ptr<Open[]> data_;
        std::size_t size_ = 0;
    };

    std::size_t slot_for(std::string_view name);
    /// Whether the calling thread is the session's: its thread pointer, one register read.
    bool on_owner_thread() const;
    /// Throws std::logic_error on any thread but the one that made the session.
    void check_thread() const;
    /// Returns the entry's serial, which leave() takes. `named`: found by its name (the
    /// parent's correction adds the lookup).
    std::uint64_t enter(std::size_t slot, bool named);
    /// enter()'s rare cases: another thread, regions abandoned, too deep, simulation.
    std::uint64_t enter_slow(std::size_t slot, bool named);
    /// The entry itself, for both paths: counters read into its depth's row, then the clock;
    /// pushed on the stack. Returns its serial.
    [[gnu::always_inline]] inline std::uint64_t push_entry(std::size_t slot, bool named);
    /// The exit itself, for both paths: the clock, then the counters; the top entry popped and
    /// recorded.
    [[gnu::always_inline]] inline void pop_entry();
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
    void leave(std::uint64_t serial);
    /// leave()'s rare cases: another thread, regions abandoned, out of order, simulation.
    void leave_slow(std::uint64_t serial);
    /// Reads the counters into `row` (the clock word is the caller's): the fast path's group
    /// from user space, else CounterSet::read_flat().
    void read_counters(std::uint64_t* row) const;
    template <std::size_t N>
    bool read_fast(std::uint64_t* row) const;
    /// Adds a finished entry to its region's totals.
    void record(const Open& open, std::uint64_t stop);
    /// record()'s counts where the fast path's do not apply: several groups, a multiplexed
    /// group, bookkeeping to take out.
    void record_counts_slowly(std::size_t depth, RegionResult& r);
    /// The corrected counters of every region from its totals (the correction is linear, so
    /// this is the sum of every entry's): done when results are read, not at every leave.
    void correct_counters() const;
    /// A region closed while regions opened inside it are still open (movable Regions allow
    /// it): those close with it, their time ending there, and the report says so; a region
    /// that closed that way is not closed again.
    void leave_out_of_order(std::uint64_t serial);
    /// Runs perfgauge's own occasional bookkeeping (a new name's slot, a larger entry buffer)
    /// so that no open region pays for it: its time and counts are taken out of every open
    /// region. Without this, a parent of many children paid for their entry buffers' page
    /// faults (~17 µs each on the development VM): +31..40% of the raw time of 2000 parents of 10.
    template <class Work>
    void outside_open_regions(Work&& work);
    /// Room for `r`'s next entry: the buffer doubles, its pages written now (not one fault per
    /// 512 entries later, inside whichever region is open then).
    /// When memory runs out the buffer stays as it was: that entry is not kept (its totals are).
    void make_room_for_entry(RegionResult& r);
    void calibrate(std::size_t samples);
    /// Under perfgauge's simulation: a callgrind dump named for the boundary.
    void simulated_boundary(const char* what, std::size_t slot) const;

    const void* const owner_thread_pointer_;
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
    // Flat counter readings: one row per depth (its entry's), then the leave's, then the two of
    // the bookkeeping; row_words_ each (CounterSet::flat_words()).
    std::size_t row_words_ = 0;
    std::size_t max_depth_ = 0;
    std::vector<std::uint64_t> rows_;
    // Read from user space where the pages allow it: the clock is the pages' own (TSC,
    // CNTVCT_EL0), which completes a multiplexed group's times.
    bool user_space_reads_ = false;
    // Any of the rare cases at region boundaries (simulation, abandoned entries to drop): one
    // predictable branch on the common path.
    bool slow_boundaries_ = false;
    // Counts of the bookkeeping done inside the region open at each depth (not its own), and
    // whether there are any (the common path skips them).
    std::vector<std::vector<double>> excluded_counts_;
    std::vector<char> excluded_dirty_;
    std::vector<double> bookkeeping_deltas_;
    std::uint64_t last_serial_ = 0;
    std::vector<std::pair<std::size_t, std::size_t>> closed_with_parent_;  // slots, once each
    std::size_t bookkeeping_count_ = 0;                                    // since calibration
    double bookkeeping_ns_ = 0;
    std::vector<double> deltas_;
    OpenStack stack_;
    // The fast path: one group (the common case, every event counted together), its events'
    // words in a row, and, where all of them are mapped and read from user space, their pages
    // (at most kFastEvents; else fast_events_ is 0 and read_flat() reads them).
    static constexpr std::size_t kFastEvents = 4;
    bool single_group_ = false;
    std::vector<std::size_t> group_words_;
    std::size_t gap_word_ = 0, flags_word_ = 0;
    std::array<const volatile perf_event_mmap_page*, kFastEvents> fast_pages_{};
    std::array<std::size_t, kFastEvents> fast_words_{};
    std::size_t fast_events_ = 0;
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
