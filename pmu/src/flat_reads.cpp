// CounterSet's flat readings (counter_set.hpp): what every Session region boundary reads.
// Per group, in the common case, one seqlock pass over each event's page and nothing else;
// the clock, the time arithmetic and read() only where a group's pages say they are needed.
#include <algorithm>

#include "counter_group.hpp"
#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/page_reads.hpp"
#include "perfgauge/pmu/user_counters.hpp"

namespace perfgauge::pmu {

namespace {

// Flag bits per group in a row's flags word; groups past them are always read with read().
constexpr std::size_t kFlaggedGroups = 64;

}  // namespace

void CounterSet::index_flat_pages() {
    flat_pages_.clear();
    flat_groups_.clear();
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = *groups_[g];
        const std::size_t first = flat_pages_.size();
        const bool mapped = g < kFlaggedGroups && group.pages.size() == group.slots.size() &&
                            std::all_of(group.pages.begin(), group.pages.end(),
                                        [](const auto& p) { return p.get() != nullptr; });
        for (std::size_t i = 0; mapped && i < group.slots.size(); ++i)
            flat_pages_.push_back({group.pages[i].get(), group.slots[i]});
        flat_groups_.push_back({first, flat_pages_.size()});
    }
}

void CounterSet::read_flat(std::uint64_t* row, bool user_space_reads) const {
    UserCounters hw;
    std::uint64_t whole_times = 0;
    std::uint64_t* times = row + events_.size();
    for (std::size_t g = 0; g < groups_.size(); ++g, times += 2) {
        const FlatGroup& fg = flat_groups_[g];
        bool done = user_space_reads && fg.first != fg.end &&
                    read_page_leader(flat_pages_[fg.first].page, hw,
                                     row[flat_pages_[fg.first].word], times[0], times[1]);
        for (std::size_t k = fg.first + 1; done && k < fg.end; ++k)
            done = read_page_count(flat_pages_[k].page, hw, row[flat_pages_[k].word]);
        if (done)
            continue;
        // Off the PMU now (multiplexed), not mapped, or a software group: the kernel's count
        // and whole times.
        const Group& group = *groups_[g];
        group.read_syscall(group.reading);
        for (std::size_t i = 0; i < group.slots.size(); ++i)
            row[group.slots[i]] = group.reading.values[i];
        times[0] = group.reading.time_enabled - group.reading.time_running;
        times[1] = group.reading.time_enabled;
        if (g < kFlaggedGroups)
            whole_times |= std::uint64_t{1} << g;
    }
    row[events_.size() + 2 * groups_.size()] = whole_times;
}

std::uint64_t CounterSet::flat_enabled(const std::uint64_t* row, std::size_t g) const {
    const std::uint64_t enabled = row[events_.size() + 2 * g + 1];
    const std::uint64_t flags = row[events_.size() + 2 * groups_.size()];
    if (g >= kFlaggedGroups || ((flags >> g) & 1) != 0)
        return enabled;
    // Read from user space: its pages are mapped. The clock's rate is the page's (constant for
    // a clock source), read now rather than at every reading.
    const auto* page = flat_pages_[flat_groups_[g].first].page;
    return extended_enabled(enabled, row[flat_clock_word()], page->time_mult, page->time_shift);
}

void CounterSet::flat_delta(const std::uint64_t* before, const std::uint64_t* after,
                            double* out) const {
    std::fill(out, out + events_.size(), 0.0);
    const std::size_t times = events_.size();
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const std::uint64_t gap_before = before[times + 2 * g];
        const std::uint64_t gap_after = after[times + 2 * g];
        const auto& slots = groups_[g]->slots;
        if (gap_before == gap_after) {  // on the PMU all along: unscaled
            for (const std::size_t s : slots)
                out[s] = static_cast<double>(after[s] - before[s]);
            continue;
        }
        const std::uint64_t enabled_before = flat_enabled(before, g);
        const std::uint64_t enabled_after = flat_enabled(after, g);
        const std::uint64_t enabled =
            enabled_after > enabled_before ? enabled_after - enabled_before : 0;
        for (const std::size_t s : slots)
            out[s] = scaled_by_gap(after[s] - before[s], gap_before, gap_after, enabled);
    }
}

}  // namespace perfgauge::pmu
