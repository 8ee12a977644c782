#include "perfgauge/pmu/counter_set.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "counter_group.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/open_error.hpp"
#include "perfgauge/pmu/user_counters.hpp"

namespace perfgauge::pmu {

namespace {

class SyscallOpener final : public EventOpener {
  public:
    OpenResult open(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd) override {
        return open_perf_event(attr, pid, cpu, group_fd);
    }
};

// Errors that mean "not together with the others", as opposed to "not at all".
bool may_fit_alone(int error) {
    return error == EINVAL || error == ENOSPC || error == EBUSY;
}

std::string joined_names(const std::vector<const EventSpec*>& specs) {
    std::string out;
    for (const auto* s : specs)
        out += (out.empty() ? "" : ",") + s->name;
    return out;
}

// What one event of a group is opened with: its resolved attributes plus how this set counts.
perf_event_attr counting_attr(const EventSpec& spec, bool leader, const CounterOptions& options) {
    perf_event_attr attr = spec.attr;
    attr.size = sizeof attr;
    attr.read_format = CounterSet::kReadFormat;
    attr.disabled = leader ? 1 : 0;  // members follow their leader
    attr.enable_on_exec = leader && options.enable_on_exec ? 1 : 0;
    attr.inherit = options.inherit ? 1 : 0;
    attr.pinned = 0;
    if (options.map_pages && needs_hardware_pmu(spec.kind))
        request_user_read(attr);
    return attr;
}

// A user-written group, events[first..], that the kernel refused `refused` in: every member
// keeps the error, and the note says which one it was.
std::string refuse_written_group(std::vector<EventSlot>& events, std::size_t first,
                                 std::size_t refused, int error) {
    std::vector<const EventSpec*> names;
    for (std::size_t j = first; j < events.size(); ++j) {
        events[j].error = error;
        names.push_back(&events[j].spec);
    }
    return fmt::format("group {{{}}} was not opened: the kernel refused '{}' in it ({})",
                       joined_names(names), events[refused].spec.name, std::strerror(error));
}

// The events `slots` (in group order) are members of group `index`.
void mark_opened(std::vector<EventSlot>& events, const std::vector<std::size_t>& slots,
                 std::size_t index) {
    for (std::size_t pos = 0; pos < slots.size(); ++pos) {
        auto& slot = events[slots[pos]];
        slot.opened = true;
        slot.group = index;
        slot.position = pos;
    }
}

std::string split_note(const char* kind, std::size_t splits) {
    return fmt::format(
        "the kernel could not schedule the {} events together; split them into {} groups "
        "(groups are multiplexed: see the running fraction)",
        kind, splits + 1);
}

}  // namespace

const char* read_path_name(ReadPath path) {
    return path == ReadPath::rdpmc ? "rdpmc" : "read()";
}

void CounterSet::Group::read_syscall(GroupReading& out) const {
    const ssize_t n = ::read(leader(), buffer.data(), buffer.size() * sizeof(std::uint64_t));
    if (n < 0)
        throw std::system_error(errno, std::generic_category(), "read() of a counter group");
    parse_read_buffer(std::span(buffer.data(), static_cast<std::size_t>(n) / sizeof(std::uint64_t)),
                      kReadFormat, slots.size(), out);
}

CounterSet::CounterSet() = default;
CounterSet::CounterSet(CounterSet&&) noexcept = default;
CounterSet& CounterSet::operator=(CounterSet&&) noexcept = default;
CounterSet::~CounterSet() = default;

std::size_t CounterSet::group_count() const {
    return groups_.size();
}

std::size_t CounterSet::opened_count() const {
    std::size_t n = 0;
    for (const auto& e : events_)
        n += e.opened;
    return n;
}

bool CounterSet::snapshot_is_system_call() const {
    return std::any_of(groups_.begin(), groups_.end(),
                       [](const auto& group) { return !group->rdpmc_capable(); });
}

CounterSet CounterSet::open(const std::vector<GroupSpec>& groups, const CounterOptions& options,
                            EventOpener* opener) {
    SyscallOpener syscalls;
    if (opener == nullptr)
        opener = &syscalls;
    CounterSet set;

    auto try_add = [&](Group& group, std::size_t slot) {
        const bool leader = group.fds.empty();
        const perf_event_attr attr = counting_attr(set.events_[slot].spec, leader, options);
        auto result = opener->open(attr, options.pid, options.cpu, leader ? -1 : group.leader());
        if (!result.ok())
            return result.error;
        set.events_[slot].opened_attr = attr;
        if (options.map_pages)
            group.pages.emplace_back(result.fd.get());
        group.fds.push_back(std::move(result.fd));
        group.slots.push_back(slot);
        return 0;
    };
    auto commit = [&](std::unique_ptr<Group> group) {
        mark_opened(set.events_, group->slots, set.groups_.size());
        group->buffer.resize(read_buffer_words(kReadFormat, group->slots.size()));
        group->reading.values.resize(group->slots.size());
        group->reading.ids.resize(group->slots.size());
        set.groups_.push_back(std::move(group));
    };

    // Bare events wait in two buckets, so each bucket can share groups.
    std::vector<std::size_t> hardware_bucket, software_bucket;
    for (const auto& spec_group : groups) {
        const std::size_t first = set.events_.size();
        for (const auto& spec : spec_group.events)
            set.events_.push_back({spec});
        if (!spec_group.explicit_group) {
            for (std::size_t i = first; i < set.events_.size(); ++i) {
                (needs_hardware_pmu(set.events_[i].spec.kind) ? hardware_bucket : software_bucket)
                    .push_back(i);
            }
            continue;
        }
        auto group = std::make_unique<Group>();
        for (std::size_t i = first; i < set.events_.size(); ++i) {
            if (const int error = try_add(*group, i); error != 0) {
                // A user-written group is kept together or not opened at all.
                set.notes_.push_back(refuse_written_group(set.events_, first, i, error));
                group.reset();
                break;
            }
        }
        if (group)
            commit(std::move(group));
    }

    for (const auto* bucket : {&hardware_bucket, &software_bucket}) {
        auto group = std::make_unique<Group>();
        std::size_t splits = 0;
        for (const std::size_t slot : *bucket) {
            int error = try_add(*group, slot);
            if (error != 0 && !group->fds.empty() && may_fit_alone(error)) {
                // Not together with the others: start a new group with this event as leader.
                auto fresh = std::make_unique<Group>();
                error = try_add(*fresh, slot);
                if (error == 0) {
                    commit(std::move(group));
                    group = std::move(fresh);
                    ++splits;
                }
            }
            if (error != 0)
                set.events_[slot].error = error;
        }
        if (!group->fds.empty())
            commit(std::move(group));
        if (splits > 0)
            set.notes_.push_back(
                split_note(bucket == &hardware_bucket ? "hardware" : "software", splits));
    }
    set.index_flat_pages();
    return set;
}

void CounterSet::enable() {
    for (auto& g : groups_)
        ::ioctl(g->leader(), PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

void CounterSet::disable() {
    for (auto& g : groups_)
        ::ioctl(g->leader(), PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

void CounterSet::reset() {
    for (auto& g : groups_)
        ::ioctl(g->leader(), PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
}

CounterSet::Snapshot CounterSet::make_snapshot() const {
    Snapshot s;
    s.groups.resize(groups_.size());
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        s.groups[g].values.resize(groups_[g]->slots.size());
        s.groups[g].ids.resize(groups_[g]->slots.size());
    }
    return s;
}

void CounterSet::read_groups(Snapshot& out, bool user_space_reads) const {
    if (out.groups.size() != groups_.size())
        out = make_snapshot();
    bool all_rdpmc = !groups_.empty();
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = *groups_[g];
        GroupReading& reading = out.groups[g];
        bool done = false;
        if (user_space_reads && group.rdpmc_capable()) {
            UserCounters hw;
            done = true;
            for (std::size_t i = 0; i < group.pages.size() && done; ++i) {
                const auto m = read_mmap_page(group.pages[i].get(), hw);
                if (!m.rdpmc_used || !m.times_current) {
                    // Not on a PMU counter right now, or no current times to scale with: the
                    // kernel knows better.
                    done = false;
                    break;
                }
                reading.values[i] = m.count;
                if (i == 0) {
                    reading.time_enabled = m.time_enabled;
                    reading.time_running = m.time_running;
                }
            }
        }
        if (!done) {
            group.read_syscall(reading);
            all_rdpmc = false;
        }
    }
    out.path = all_rdpmc ? ReadPath::rdpmc : ReadPath::read_syscall;
}

std::vector<ScaledCount> CounterSet::delta(const Snapshot& before, const Snapshot& after) const {
    std::vector<ScaledCount> out;
    delta(before, after, out);
    return out;
}

void CounterSet::delta(const Snapshot& before, const Snapshot& after,
                       std::vector<ScaledCount>& out) const {
    out.assign(events_.size(), ScaledCount{});
    for (std::size_t i = 0; i < events_.size(); ++i) {
        const auto& slot = events_[i];
        if (!slot.opened)
            continue;
        const auto& b = before.groups.at(slot.group);
        const auto& a = after.groups.at(slot.group);
        out[i] = scale_count(a.values.at(slot.position) - b.values.at(slot.position),
                             a.time_enabled - b.time_enabled, a.time_running - b.time_running);
    }
}

CounterSet open_self_monitoring(const std::vector<GroupSpec>& groups) {
    CounterOptions options;
    options.map_pages = true;
    return CounterSet::open(groups, options);
}

CounterSet open_self_monitoring(const std::string& events) {
    // No events at all is a valid request: time only (every event simulated, say).
    if (events.find_first_not_of(" \t") == std::string::npos)
        return open_self_monitoring(std::vector<GroupSpec>{});
    return open_self_monitoring(EventResolver().resolve(events));
}

std::vector<std::string> describe_unopened(const CounterSet& set) {
    std::vector<std::string> out;
    std::optional<PmuEnvironment> env;  // detected only when something was refused
    for (const auto& slot : set.events()) {
        if (slot.opened)
            continue;
        if (!env)
            env = detect_pmu_environment();
        const auto d = diagnose_open_error(slot.error, slot.spec.kind, slot.spec.attr, *env);
        out.push_back(fmt::format("{}: {}: {}", slot.spec.name, d.status, d.reason));
    }
    return out;
}

}  // namespace perfgauge::pmu
