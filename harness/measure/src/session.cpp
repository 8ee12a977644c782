#include "perfgauge/harness/session.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "perfgauge/harness/session_report.hpp"
#include "perfgauge/harness/statistics.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/pmu/page_reads.hpp"
#include "perfgauge/pmu/user_counters.hpp"

namespace perfgauge::harness {

namespace {

constexpr const char* kCalibrationRegion = "(calibration)";
constexpr const char* kCalibrationInner = "(calibration, nested)";

// perfgauge stat's simulation asks for region dumps (PERFGAUGE_REGIONS=callgrind); a user's own
// callgrind run of the program keeps its usual single dump.
bool simulating_regions() {
    const char* asked = std::getenv("PERFGAUGE_REGIONS");
    return asked != nullptr && std::string_view(asked) == "callgrind" &&
           pmu::callgrind::running_on_valgrind();
}

// Which thread runs: its thread pointer (one register read), unique among live threads as
// std::thread::id is (glibc's is derived from it), without a call into libc on every boundary.
const void* thread_pointer() {
    return __builtin_thread_pointer();
}

}  // namespace

Session::Region::Region(Session& session, std::string_view name) : session_(&session) {
    session.check_thread();    // before the name's slot: another thread must change nothing
    session.drop_abandoned();  // before the name's slot too: its depth must not count them
    serial_ = session.enter_(session, enter_tag(session.slot_for(name), true));
}

void Session::Region::foreign_region_id() {
    throw std::invalid_argument("perfgauge: a RegionId of another Session (or none)");
}

Session::RegionId Session::region_id(std::string_view name) {
    check_thread();
    drop_abandoned();  // as a Region: the name's depth must not count abandoned entries
    return {this, slot_for(name)};
}

bool Session::on_owner_thread() const {
    return thread_pointer() == owner_thread_pointer_;
}

void Session::abandon(std::uint64_t serial) noexcept {
    ended_elsewhere_.fetch_add(1, std::memory_order_relaxed);
    const std::lock_guard lock(abandoned_mutex_);
    try {
        abandoned_by_others_.push_back(serial);
        abandoned_pending_.store(true, std::memory_order_release);
        // The owner's next boundary takes the slow path, which drops the entry.
        journal_limit_.store(journal_.data(), std::memory_order_relaxed);
    } catch (const std::bad_alloc&) {  // the entry stays open, and the report says so
    }
}

bool Session::abandoned(std::uint64_t serial) const {
    return std::find(to_drop_.begin(), to_drop_.end(), serial) != to_drop_.end();
}

void Session::drop_abandoned() {
    // Every region boundary comes here: nothing but a flag and an empty list when no Region
    // ever ended elsewhere.
    const bool pending = abandoned_pending_.load(std::memory_order_acquire);
    if (!pending && to_drop_.empty())
        return;
    if (pending) {
        // This runs inside ~Region, which must not throw: the common case moves the list
        // without allocating; when memory runs out the flag stays set and the next boundary
        // tries again.
        const std::lock_guard lock(abandoned_mutex_);
        if (to_drop_.empty()) {
            to_drop_.swap(abandoned_by_others_);
        } else {
            try {
                to_drop_.insert(to_drop_.end(), abandoned_by_others_.begin(),
                                abandoned_by_others_.end());
            } catch (const std::bad_alloc&) {
                return;
            }
            abandoned_by_others_.clear();
        }
        abandoned_pending_.store(false, std::memory_order_relaxed);
    }
    while (!stack_.empty() && abandoned(stack_.back().serial))
        discard_top();
    // Entries a region around them closed already, before their Region ended elsewhere.
    std::erase_if(to_drop_, [this](std::uint64_t serial) { return open_entry(serial) == nullptr; });
    slow_boundaries_ = simulated_regions_ || !to_drop_.empty();
    const std::lock_guard lock(abandoned_mutex_);
    refresh_journal_limit();
}

void Session::refresh_journal_limit() {
    const bool slow = slow_boundaries_ || abandoned_pending_.load(std::memory_order_relaxed);
    journal_limit_.store(slow ? journal_.data() : journal_full_, std::memory_order_relaxed);
}

const Session::Open* Session::open_entry(std::uint64_t serial) const {
    const auto it = std::find_if(stack_.begin(), stack_.end(),
                                 [serial](const Open& open) { return open.serial == serial; });
    return it == stack_.end() ? nullptr : &*it;
}

void Session::discard_top() {
    next_record()[0] = kDiscardRecord | kFlatRecord;
    journal_top_ += record_words_;
    stack_.pop_back();
}

Session::Session(const std::string& events, SessionOptions options, bool caller_optimized)
    : owner_thread_pointer_(thread_pointer()),
      clock_(Clock::best()),
      counters_(pmu::open_self_monitoring(CountedEvents(events).groups())),
      caller_optimized_(caller_optimized) {
    for (const auto& slot : counters_.events())
        event_names_.push_back(slot.spec.name);
    unsupported_ = pmu::describe_unopened(counters_);
    overhead_.counts.assign(event_names_.size(), 0.0);
    nested_overhead_.counts.assign(event_names_.size(), 0.0);
    lookup_overhead_.counts.assign(event_names_.size(), 0.0);
    max_depth_ = std::max<std::size_t>(2, options.max_depth);
    row_words_ = counters_.flat_words();
    // A row per depth, the bookkeeping's two and a raw record's worked out.
    rows_.assign((max_depth_ + 3) * row_words_, 0);
    // The pages' times are completed with the region clock's ticks: only when it is their clock.
    user_space_reads_ = clock_.kind() == Clock::Kind::tsc;
    gap_word_ = counters_.flat_gap_word(0);
    single_group_ = counters_.flat_groups().size() == 1;
    for (const auto& e : counters_.events())
        if (e.opened)
            group_words_.push_back(static_cast<std::size_t>(&e - counters_.events().data()));
    choose_boundaries();
    record_words_ = 1 + row_words_;
    if (fast_events_ > 0)  // the clock and the raw words
        record_words_ = std::max(record_words_, 2 + pmu::raw_group_words(fast_events_));
    // Two records more than kJournalRecords: the bookkeeping's, which replays a full journal.
    journal_.assign((kJournalRecords + 2) * record_words_, 0);
    journal_top_ = journal_.data();
    journal_full_ = journal_.data() + kJournalRecords * record_words_;
    excluded_counts_.assign(max_depth_, std::vector<double>(event_names_.size()));
    excluded_dirty_.assign(max_depth_, 0);
    bookkeeping_deltas_.resize(event_names_.size());
    deltas_.resize(event_names_.size());
    stack_.reserve(max_depth_);
    replayed_.reserve(max_depth_);
    refresh_journal_limit();
    counters_.enable();
    if (options.calibration_samples > 0)
        calibrate(options.calibration_samples);
    // After calibration: its thousands of empty regions are not the user's.
    simulated_regions_ = simulating_regions();
    slow_boundaries_ = simulated_regions_;
    refresh_journal_limit();
}

void Session::choose_boundaries() {
    // The fast boundaries: one group of every event (none refused), hardware events read from
    // user space, in the flat row's order, so that a record's layout is the compiler's constant.
    const auto& groups = counters_.flat_groups();
    if (!single_group_ || !user_space_reads_ || counters_.snapshot_is_system_call() ||
        group_words_.size() != counters_.events().size())
        return;
    const auto& g = groups.front();
    const std::size_t n = g.end - g.first;
    if (n == 0 || n > kFastEvents || n != counters_.events().size() ||
        row_words_ != n + kRowWordsPastCounts)
        return;
    for (std::size_t i = 0; i < n; ++i) {
        if (counters_.flat_pages()[g.first + i].word != i)
            return;
        fast_pages_[i] = counters_.flat_pages()[g.first + i].page;
    }
    fast_events_ = n;
    constexpr std::array<EnterFn, kFastEvents> enters{&enter_fast<1>, &enter_fast<2>,
                                                      &enter_fast<3>, &enter_fast<4>};
    constexpr std::array<LeaveFn, kFastEvents> leaves{&leave_fast<1>, &leave_fast<2>,
                                                      &leave_fast<3>, &leave_fast<4>};
    enter_ = enters[n - 1];
    leave_ = leaves[n - 1];
}

void Session::simulated_boundary(const char* what, std::size_t slot) const {
    // The dump's name carries the region's (one line: callgrind writes it into a header line).
    std::string reason = std::string("perfgauge-region:") + what + ":" + results_[slot].name;
    std::replace_if(
        reason.begin(), reason.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    pmu::callgrind::dump_stats(reason.c_str());
}

template <class Work>
void Session::outside_open_regions(Work&& work, bool replay) {
    if (stack_.empty()) {
        if (replay)
            replay_journal();
        work();
        return;
    }
    // Its two readings are journaled after it: a replay inside it (the journal full) sees
    // neither, and the regions open now are the replay's then. The clock around the counter
    // reads: their time is bookkeeping too.
    const bool replay_first =
        replay || journal_top_ + 2 * record_words_ > journal_.data() + journal_.size();
    std::uint64_t* before = row(max_depth_);
    std::uint64_t* after = row(max_depth_ + 1);
    const std::uint64_t start = clock_.start();
    const bool counting = counters_.opened_count() > 0;
    if (counting)
        read_counters(before);
    if (replay_first)
        replay_journal();
    work();
    if (counting)
        read_counters(after);
    const std::uint64_t end = clock_.stop();
    before[row_words_ - 1] = start;
    after[row_words_ - 1] = end;
    std::uint64_t* record = journal_top_;
    record[0] = kBookkeepingRecord | kFlatRecord;
    std::copy(before, before + row_words_, record + 1);
    std::copy(after, after + row_words_, record + 1 + record_words_);
    journal_top_ += 2 * record_words_;
    const std::uint64_t took = end > start ? end - start : 0;  // a TSC read on another CPU
    ++bookkeeping_count_;
    bookkeeping_ns_ += clock_.to_ns(static_cast<double>(took));
}

void Session::replay_bookkeeping(const std::uint64_t* before, const std::uint64_t* after) {
    const std::uint64_t start = before[row_words_ - 1], end = after[row_words_ - 1];
    const std::uint64_t took = end > start ? end - start : 0;
    for (Replayed& open : replayed_)
        open.start_ticks += took;
    if (counters_.opened_count() == 0)
        return;
    counters_.flat_delta(before, after, bookkeeping_deltas_.data());
    // The clock saw both reads whole; the counts saw the part of them between their counting
    // points, about what an empty region's measurement leaves inside it.
    for (std::size_t depth = 0; depth < replayed_.size(); ++depth) {
        for (std::size_t i = 0; i < bookkeeping_deltas_.size(); ++i)
            excluded_counts_[depth][i] += bookkeeping_deltas_[i] + overhead_.counts[i];
        excluded_dirty_[depth] = 1;
    }
}

void Session::make_room_for_entry(RegionResult& r) {
    // A page at first, then doubling: a name's first 512 entries never grow its buffer inside
    // the regions around them (each growth leaves a little behind: clock reads, caches). A
    // parent of 10 empty children measured +3.4% (median) with 64 entries first against +0.6%
    // with 512 in one set, but code alignment alone moved that figure by ~3%: it does not
    // separate the two.
    constexpr std::size_t kFirstEntries = 4096 / sizeof(double);
    const std::size_t capacity =
        std::min(RegionResult::kKeptEntries, std::max(kFirstEntries, 2 * r.entry_ns.size()));
    try {
        std::vector<double> larger;
        larger.reserve(capacity);
        larger.assign(r.entry_ns.begin(), r.entry_ns.end());
        // Zeroing the rest writes every new page: their faults happen here, in the bookkeeping.
        larger.resize(capacity);
        larger.resize(r.entry_ns.size());  // a smaller size keeps the capacity and its pages
        r.entry_ns.swap(larger);
    } catch (const std::bad_alloc&) {
        // Called from a region's destructor: the entries are a sample for the median, which
        // the report says rests on fewer than all entries; the totals stay whole.
    }
}

std::size_t Session::slot_for(std::string_view name) {
    const auto it = slots_by_name_.find(name);
    if (it != slots_by_name_.end())
        return it->second;
    const std::size_t slot = results_.size();
    outside_open_regions([&] {
        RegionResult r;
        r.name = std::string(name);
        r.depth = stack_.size();
        r.counters.assign(event_names_.size(), 0.0);
        r.corrected_counters.assign(event_names_.size(), 0.0);
        make_room_for_entry(r);
        nesting_.reserve(slot + 1);  // no push_back below can fail once the result is in
        results_.push_back(std::move(r));
        nesting_.push_back({});
        try {
            slots_by_name_.emplace(std::string(name), slot);
        } catch (...) {
            results_.pop_back();  // no slot without its name
            nesting_.pop_back();
            throw;
        }
    });
    return slot;
}

// N events, unrolled: the pages are this session's constants.
template <std::size_t N>
bool Session::read_raw(std::uint64_t* raw) const {
    pmu::UserCounters hw;
    if (!pmu::read_leader_raw(fast_pages_[0], hw, raw))
        return false;
    for (std::size_t i = 1; i < N; ++i) {
        if (!pmu::read_member_raw(fast_pages_[i], hw,
                                  raw + pmu::kRawTimeWords + pmu::kRawEventWords * i))
            return false;
    }
    return true;
}

void Session::read_counters(std::uint64_t* row) const {
    counters_.read_flat(row, user_space_reads_);
}

// The common path of every entry: no lookup, no allocation, no arithmetic; the counters read
// once from user space (one seqlock pass per event, kept raw), the clock once, appended to
// the journal. Everything rare is behind the first branch; a page that says the group is off
// the PMU now sends the entry down the slow path, which reads it with read().
template <std::size_t N>
std::uint64_t Session::enter_fast(Session& s, std::uint64_t tag) {
    // The thread first: another thread reads none of the owner's state.
    if (!s.on_owner_thread()) [[unlikely]]
        return s.enter_slow(tag);
    std::uint64_t* const record = s.journal_top_;
    Open* const top = s.stack_.top_;
    if (record >= s.journal_limit_.load(std::memory_order_relaxed) || top == s.stack_.full_)
        [[unlikely]]
        return s.enter_slow(tag);
    if (!s.read_raw<N>(record + 2)) [[unlikely]]
        return s.enter_slow(tag);
    record[1] = ticks::start();
    record[0] = tag;
    s.journal_top_ = record + 2 + pmu::raw_group_words(N);
    const std::uint64_t serial = s.last_serial_ + 1;
    s.last_serial_ = serial;
    top[1] = Open{serial, tag};
    s.stack_.top_ = top + 1;
    return serial;
}

// The common path of every exit: the clock, the counters, appended; the entry popped.
template <std::size_t N>
void Session::leave_fast(Session& s, std::uint64_t serial) {
    if (!s.on_owner_thread()) [[unlikely]] {  // as enter_fast()
        s.leave_slow(serial);
        return;
    }
    std::uint64_t* const record = s.journal_top_;
    Open* const top = s.stack_.top_;
    // The stack's sentinel has serial 0, which no Region has: an empty stack fails here too.
    if (record >= s.journal_limit_.load(std::memory_order_relaxed) || top->serial != serial)
        [[unlikely]] {
        s.leave_slow(serial);
        return;
    }
    record[1] = ticks::stop();
    if (!s.read_raw<N>(record + 2)) [[unlikely]] {
        s.leave_slow(serial);  // reads the clock again: a little more time, on a rare path
        return;
    }
    record[0] = kLeaveRecord;
    s.journal_top_ = record + 2 + pmu::raw_group_words(N);
    s.stack_.top_ = top - 1;
}

void Session::check_thread() const {
    if (!on_owner_thread()) {
        throw std::logic_error(
            "perfgauge: a Session's regions must be opened on the thread that created it");
    }
}

std::uint64_t* Session::next_record() {
    if (journal_top_ >= journal_full_) [[unlikely]]
        flush_journal();
    return journal_top_;
}

std::uint64_t Session::push_entry(std::uint64_t tag) {
    std::uint64_t* record = next_record();
    read_counters(record + 1);
    const std::uint64_t serial = ++last_serial_;
    record[row_words_] = clock_.start();
    record[0] = tag | kFlatRecord;
    journal_top_ += record_words_;
    stack_.push_back({serial, tag});
    return serial;
}

void Session::pop_entry() {
    std::uint64_t* record = next_record();
    record[row_words_] = clock_.stop();
    read_counters(record + 1);
    record[0] = kLeaveRecord | kFlatRecord;
    journal_top_ += record_words_;
    stack_.pop_back();
}

std::uint64_t Session::enter_slow(std::uint64_t tag) {
    check_thread();
    drop_abandoned();
    if (stack_.size() >= max_depth_) {
        throw std::length_error(
            fmt::format("perfgauge: regions nested deeper than max_depth ({})", max_depth_));
    }
    const std::uint64_t serial = push_entry(tag);
    // Last, so the simulated interval starts where the user's code does.
    if (simulated_regions_)
        simulated_boundary("enter", tag_slot(tag));
    return serial;
}

void Session::leave_out_of_order(std::uint64_t serial) {
    const Open* open = open_entry(serial);
    if (open == nullptr)
        return;  // closed already, with a region around it
    const std::size_t outer = open->slot();
    while (stack_.back().serial != serial) {
        if (abandoned(stack_.back().serial)) {
            discard_top();
            continue;
        }
        // Slots only, inside the regions still open around: the report words them.
        const std::pair<std::size_t, std::size_t> pair{stack_.back().slot(), outer};
        if (std::find(closed_with_parent_.begin(), closed_with_parent_.end(), pair) ==
            closed_with_parent_.end()) {
            try {
                closed_with_parent_.push_back(pair);
            } catch (const std::bad_alloc&) {  // from a destructor: the note is what is lost
            }
        }
        leave(stack_.back().serial);
    }
    leave(serial);
}

void Session::leave_slow(std::uint64_t serial) {
    if (!on_owner_thread()) {
        // From a destructor, which cannot throw; this thread must not touch the owner's state.
        abandon(serial);
        return;
    }
    drop_abandoned();
    if (stack_.empty() || stack_.back().serial != serial) {
        leave_out_of_order(serial);
        return;
    }
    if (simulated_regions_)
        simulated_boundary("leave", stack_.back().slot());
    pop_entry();
}

void Session::flush_journal() {
    if (journal_top_ != journal_.data())
        outside_open_regions([] {}, true);
}

void Session::replay_journal() {
    const std::uint64_t* const end = journal_top_;
    for (const std::uint64_t* at = journal_.data(); at < end; at += record_words_) {
        const std::uint64_t tag = at[0];
        switch (tag & 3) {
            case kEnterRecord:
                replay_enter(tag_slot(tag), (tag & kNamedTag) != 0, flat_row(at));
                break;
            case kLeaveRecord: {
                const Replayed open = replayed_.back();
                replayed_.pop_back();
                record(open, flat_row(at));
                break;
            }
            case kDiscardRecord:
                replay_discard();
                break;
            default:  // kBookkeepingRecord: its end is the next record
                replay_bookkeeping(at + 1, at + 1 + record_words_);
                at += record_words_;
                break;
        }
    }
    journal_top_ = journal_.data();
}

const std::uint64_t* Session::flat_row(const std::uint64_t* record) {
    if ((record[0] & kFlatRecord) != 0)
        return record + 1;
    std::uint64_t* flat = row(max_depth_ + 2);
    std::array<unsigned, kFastEvents> widths{};
    for (std::size_t i = 0; i < fast_events_; ++i)
        widths[i] = fast_pages_[i]->pmc_width;
    // The fast path's layout: the events' words first, in order (choose_boundaries()).
    pmu::raw_group_reading(record + 2, std::span(widths.data(), fast_events_), flat,
                           flat[fast_events_], flat[fast_events_ + 1]);
    flat[fast_events_ + 2] = 0;  // flags: no group read with read()
    flat[row_words_ - 1] = record[1];
    return flat;
}

void Session::replay_enter(std::size_t slot, bool named, const std::uint64_t* start) {
    const std::size_t depth = replayed_.size();
    std::copy(start, start + row_words_, row(depth));
    if (excluded_dirty_[depth]) {  // left by an entry dropped uncounted
        std::fill(excluded_counts_[depth].begin(), excluded_counts_[depth].end(), 0.0);
        excluded_dirty_[depth] = 0;
    }
    replayed_.push_back({slot, start[row_words_ - 1], 0, 0, named});
}

void Session::replay_discard() {
    const Replayed open = replayed_.back();
    replayed_.pop_back();
    if (!replayed_.empty()) {
        replayed_.back().nested_regions += 1 + open.nested_regions;
        replayed_.back().nested_named += open.nested_named + (open.named ? 1 : 0);
    }
}

void Session::record(const Replayed& open, const std::uint64_t* end) {
    const std::size_t depth = replayed_.size();
    RegionResult& r = results_[open.slot];
    const std::uint64_t* start = row(depth);
    if (single_group_ && start[gap_word_] == end[gap_word_] && !excluded_dirty_[depth]) {
        // One group, on the PMU all along (its gap did not move): the counts' differences.
        for (const std::size_t w : group_words_)
            r.counters[w] += static_cast<double>(end[w] - start[w]);
    } else {
        record_counts_slowly(depth, end, r);
    }

    // Inside this region's interval: its own measurement's share (an empty region's inside
    // cost), and the whole enter+leave of every region nested in it, at any depth (their
    // snapshots and bookkeeping, which the parent's clock sees in full), with the lookups of
    // those entered by name. Its own lookup is its parent's. The counters are corrected the
    // same way when read (correct_counters()).
    const double nested = static_cast<double>(open.nested_regions);
    const double named = static_cast<double>(open.nested_named);
    nesting_[open.slot].nested += nested;
    nesting_[open.slot].named += named;
    // Never below zero: a TSC read on another CPU may lag (the start moved by bookkeeping too).
    const std::uint64_t stop = end[row_words_ - 1];
    const std::uint64_t ticks = stop > open.start_ticks ? stop - open.start_ticks : 0;
    const double time_ns = clock_.to_ns(static_cast<double>(ticks));
    if (r.count++ == 0)
        r.depth = depth;  // of its first entry (a RegionId may be resolved anywhere)
    r.time_ns += time_ns;
    const double corrected_ns =
        corrected(corrected(time_ns, overhead_.ns, nested_overhead_.ns, nested), 0,
                  lookup_overhead_.ns, named);
    r.corrected_time_ns += corrected_ns;
    if (r.entry_ns.size() < RegionResult::kKeptEntries) [[likely]] {
        // The replay runs outside every open region: a larger buffer is its bookkeeping.
        if (r.entry_ns.size() == r.entry_ns.capacity()) [[unlikely]]
            make_room_for_entry(r);
        if (r.entry_ns.size() < r.entry_ns.capacity())
            r.entry_ns.push_back(corrected_ns);
    }
    if (!replayed_.empty()) {
        replayed_.back().nested_regions += 1 + open.nested_regions;
        replayed_.back().nested_named += open.nested_named + (open.named ? 1 : 0);
    }
}

void Session::record_counts_slowly(std::size_t depth, const std::uint64_t* end, RegionResult& r) {
    counters_.flat_delta(row(depth), end, deltas_.data());
    if (excluded_dirty_[depth]) {
        for (std::size_t i = 0; i < deltas_.size(); ++i) {
            deltas_[i] -= excluded_counts_[depth][i];
            excluded_counts_[depth][i] = 0;
        }
        excluded_dirty_[depth] = 0;
    }
    for (std::size_t i = 0; i < deltas_.size(); ++i)
        r.counters[i] += deltas_[i];
}

void Session::correct_counters() const {
    for (std::size_t s = 0; s < results_.size(); ++s) {
        RegionResult& r = results_[s];
        const double count = static_cast<double>(r.count);
        for (std::size_t i = 0; i < r.counters.size(); ++i) {
            r.corrected_counters[i] =
                corrected(corrected(r.counters[i], count * overhead_.counts[i],
                                    nested_overhead_.counts[i], nesting_[s].nested),
                          0, lookup_overhead_.counts[i], nesting_[s].named);
        }
    }
}

void Session::replay_before_reading() const {
    // Whether anything is left to replay is read first: a Session defined const never had a
    // region (regions need a non-const Session), so nothing of it is ever written here.
    if (journal_top_ != journal_.data())
        const_cast<Session*>(this)->flush_journal();
}

const std::vector<RegionResult>& Session::results() const {
    replay_before_reading();
    correct_counters();
    return results_;
}

void Session::calibrate(std::size_t samples) {
    // Empty regions through exactly the path real regions take, Region objects (what their
    // destructor does before the leave's counter read is inside every user's region too); the
    // estimate (quantum_robust_mean) survives both the clock's steps and a preempted sample.
    const std::size_t slot = slot_for(kCalibrationRegion);
    // Made now, so that the calibration slots are the last two.
    const RegionId outer{this, slot}, inner{this, slot_for(kCalibrationInner)};
    // An empty region, and an empty region holding four empty regions, written out: no loop
    // or branch around the children, whose few instructions a parent would otherwise subtract
    // per child (-26.5 instructions per outer entry in the arm64 guest, whose children were
    // not in such a loop). The first is the inside cost of a region's own measurement, their
    // difference what a nested region costs its parent; children entered by id, then by name
    // (the difference is the lookup).
    const auto empty = [&] { const Region region(*this, outer); };
    const auto four_by_id = [&] {
        const Region region(*this, outer);
        { const Region child(*this, inner); }
        { const Region child(*this, inner); }
        { const Region child(*this, inner); }
        { const Region child(*this, inner); }
    };
    const auto four_by_name = [&] {
        const Region region(*this, outer);
        { const Region child(*this, kCalibrationInner); }
        { const Region child(*this, kCalibrationInner); }
        { const Region child(*this, kCalibrationInner); }
        { const Region child(*this, kCalibrationInner); }
    };
    auto calibrated = [&](const auto& body) {
        // Only the totals are kept from before a sample: copying the whole result (its
        // entries) before each would stir the caches as no user's loop does.
        std::vector<double> counts_before(event_names_.size());
        return calibrate_overhead(
            samples, event_names_.size(), [&](double& ns, std::vector<double>& counts) {
                const double ns_before = results_[slot].time_ns;
                std::copy(results_[slot].counters.begin(), results_[slot].counters.end(),
                          counts_before.begin());
                body();
                replay_journal();  // no region open: nothing to keep out of one
                ns = results_[slot].time_ns - ns_before;
                for (std::size_t i = 0; i < counts.size(); ++i)
                    counts[i] = results_[slot].counters[i] - counts_before[i];
            });
    };
    overhead_ = calibrated(empty);
    constexpr int kCalibrationChildren = 4;
    const Overhead by_id = calibrated(four_by_id);
    nested_overhead_ = per_pause(by_id, overhead_, kCalibrationChildren);
    lookup_overhead_ = per_pause(calibrated(four_by_name), by_id, kCalibrationChildren);
    results_.resize(slot);  // both calibration slots were the last ones made
    nesting_.resize(slot);
    slots_by_name_.erase(kCalibrationRegion);
    slots_by_name_.erase(kCalibrationInner);
    bookkeeping_count_ = 0;
    bookkeeping_ns_ = 0;
}

std::string Session::report(OutputFormat format) const {
    replay_before_reading();
    correct_counters();
    SessionReport report;
    report.clock = clock_.name();
    report.overhead_ns = overhead_.ns;
    report.nested_overhead_ns = nested_overhead_.ns;
    report.bookkeeping_count = bookkeeping_count_;
    report.bookkeeping_ns = bookkeeping_ns_;
    report.regions_ended_elsewhere = regions_ended_elsewhere();
    report.caller_optimized = caller_optimized_;
    std::vector<std::size_t> counted;  // event columns: refused ones are listed once below
    for (std::size_t i = 0; i < event_names_.size(); ++i) {
        if (counters_.events()[i].opened) {
            counted.push_back(i);
            report.counted_events.push_back(event_names_[i]);
        }
    }
    for (const auto& r : results_) {
        if (r.count == 0)
            continue;
        SessionRegionReport region{r.name, r.depth,   r.count, r.time_ns, r.corrected_time_ns,
                                   {},     r.entry_ns};
        for (const std::size_t i : counted)
            region.corrected_counters.push_back(r.corrected_counters[i]);
        report.regions.push_back(std::move(region));
    }
    for (const auto& [inner, outer] : closed_with_parent_)
        report.closed_with_parent.emplace_back(results_[inner].name, results_[outer].name);
    // Their finished entries are in the table; the open ones have no end yet. Entries whose
    // Region ended on another thread are not open: they are dropped (said in the report).
    std::vector<std::uint64_t> dropped = to_drop_;
    {
        const std::lock_guard lock(abandoned_mutex_);
        dropped.insert(dropped.end(), abandoned_by_others_.begin(), abandoned_by_others_.end());
    }
    for (const auto& open : stack_) {
        if (std::find(dropped.begin(), dropped.end(), open.serial) == dropped.end())
            report.still_open.push_back(results_[open.slot()].name);
    }
    report.not_counted = unsupported_;
    return render_session_report(report, format);
}

}  // namespace perfgauge::harness
