#include "perfgauge/pmu/counter_set.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "../support/temp_dir.hpp"
#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::pmu {
namespace {

EventSpec fake_event(const std::string& name, EventKind kind) {
    EventSpec s;
    s.name = name;
    s.kind = kind;
    s.attr.type = kind == EventKind::software ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE;
    return s;
}

// Accepts at most `max_members` events per group and refuses names listed in `unsupported`.
class FakeOpener : public EventOpener {
  public:
    std::size_t max_members = 100;
    std::map<std::uint64_t, int> unsupported;  // config -> errno
    std::map<int, std::size_t> members;        // leader fd -> group size

    OpenResult open(const perf_event_attr& attr, pid_t, int, int group_fd) override {
        OpenResult r;
        if (const auto it = unsupported.find(attr.config); it != unsupported.end()) {
            r.error = it->second;
            return r;
        }
        if (group_fd >= 0 && members[group_fd] >= max_members) {
            r.error = EINVAL;  // what x86 validate_group answers when a group cannot fit
            return r;
        }
        r.fd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
        members[group_fd >= 0 ? group_fd : r.fd.get()] += 1;
        return r;
    }
};

GroupSpec bare(std::vector<EventSpec> events) {
    return GroupSpec{std::move(events), false};
}

std::vector<GroupSpec> bare_hardware_events(int n) {
    std::vector<GroupSpec> groups;
    for (int i = 0; i < n; ++i) {
        auto e = fake_event("hw" + std::to_string(i), EventKind::hardware);
        e.attr.config = static_cast<std::uint64_t>(i);
        groups.push_back(bare({e}));
    }
    return groups;
}

TEST(CounterSet, BareEventsShareOneGroupPerKind) {
    FakeOpener opener;
    auto groups = bare_hardware_events(3);
    groups.push_back(bare({fake_event("sw", EventKind::software)}));
    const auto set = CounterSet::open(groups, {}, &opener);
    EXPECT_EQ(set.group_count(), 2u);  // hardware together, software together
    EXPECT_EQ(set.opened_count(), 4u);
    EXPECT_TRUE(set.notes().empty());
}

TEST(CounterSet, SplitsWhenTheKernelCannotScheduleEventsTogether) {
    FakeOpener opener;
    opener.max_members = 2;
    const auto set = CounterSet::open(bare_hardware_events(5), {}, &opener);
    EXPECT_EQ(set.opened_count(), 5u);
    EXPECT_EQ(set.group_count(), 3u);  // [0,1] [2,3] [4]
    EXPECT_EQ(set.events()[2].group, 1u);
    EXPECT_EQ(set.events()[2].position, 0u);
    ASSERT_EQ(set.notes().size(), 1u);
    EXPECT_NE(set.notes()[0].find("split them into 3 groups"), std::string::npos) << set.notes()[0];
}

TEST(CounterSet, UnsupportedEventsAreReportedWhileTheRestCount) {
    FakeOpener opener;
    opener.unsupported[1] = ENOENT;
    const auto set = CounterSet::open(bare_hardware_events(3), {}, &opener);
    EXPECT_EQ(set.opened_count(), 2u);
    EXPECT_FALSE(set.events()[1].opened);
    EXPECT_EQ(set.events()[1].error, ENOENT);
    EXPECT_EQ(set.group_count(), 1u);
}

TEST(CounterSet, UserGroupsStayTogetherOrFailTogether) {
    FakeOpener opener;
    opener.max_members = 2;
    auto hw = bare_hardware_events(3);
    GroupSpec group{{hw[0].events[0], hw[1].events[0], hw[2].events[0]}, true};
    const auto set = CounterSet::open({group}, {}, &opener);
    EXPECT_EQ(set.opened_count(), 0u);
    for (const auto& e : set.events())
        EXPECT_EQ(e.error, EINVAL);
    ASSERT_EQ(set.notes().size(), 1u);
    EXPECT_NE(set.notes()[0].find("{hw0,hw1,hw2} was not opened"), std::string::npos)
        << set.notes()[0];
}

TEST(CounterSet, EventsThatNeverOpenAreNotCounted) {
    FakeOpener opener;
    opener.unsupported[0] = ENOENT;
    const auto set = CounterSet::open(bare_hardware_events(1), {}, &opener);
    const auto snapshot = set.make_snapshot();
    const auto deltas = set.delta(snapshot, snapshot);
    ASSERT_EQ(deltas.size(), 1u);
    EXPECT_FALSE(deltas[0].counted);
}

// --- Real counters: software events and tracepoints count exactly, no PMU needed. ---

std::vector<GroupSpec> resolve(const std::string& list) {
    return EventResolver().resolve(list);
}

TEST(CounterSetReal, PageFaultsOfFreshPages) {
    auto set = CounterSet::open(resolve("{task-clock,page-faults}"), {});
    ASSERT_EQ(set.opened_count(), 2u) << "software events must open here";
    constexpr std::size_t kPages = 2000;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    void* mem =
        ::mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mem, MAP_FAILED);
    ::madvise(mem, kPages * page, MADV_NOHUGEPAGE);  // one fault per 4 KiB page, not per 2 MiB
    auto before = set.make_snapshot();
    auto after = set.make_snapshot();
    set.enable();
    set.read(before);
    auto* bytes = static_cast<volatile char*>(mem);
    for (std::size_t i = 0; i < kPages; ++i)
        bytes[i * page] = 1;
    set.read(after);
    set.disable();
    ::munmap(mem, kPages * page);
    const auto d = set.delta(before, after);
    EXPECT_TRUE(d[1].counted);
    EXPECT_GE(d[1].value, kPages);
    EXPECT_LE(d[1].value, kPages * test::kFaultsPerTouchedPage + 50);
    EXPECT_GT(d[0].value, 0);                       // task-clock ns
    EXPECT_EQ(after.path, ReadPath::read_syscall);  // software counters have no rdpmc index
}

// The flat rows Session regions read: a software group's page allows no user-space read, so
// read_flat() falls back to read(), says its times are whole, and flat_delta() counts exactly
// what snapshots count.
TEST(CounterSetReal, FlatRowsFallBackToReadAndCountPageFaults) {
    auto set = open_self_monitoring("task-clock,page-faults");
    ASSERT_EQ(set.opened_count(), 2u);
    ASSERT_EQ(set.group_count(), 1u);
    constexpr std::size_t kPages = 1000;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    void* mem =
        ::mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mem, MAP_FAILED);
    ::madvise(mem, kPages * page, MADV_NOHUGEPAGE);
    std::vector<std::uint64_t> before(set.flat_words()), after(set.flat_words());
    set.enable();
    set.read_flat(before.data(), true);
    auto* bytes = static_cast<volatile char*>(mem);
    for (std::size_t i = 0; i < kPages; ++i)
        bytes[i * page] = 1;
    set.read_flat(after.data(), true);
    set.disable();
    ::munmap(mem, kPages * page);
    double d[2] = {};
    set.flat_delta(before.data(), after.data(), d);
    EXPECT_GE(d[1], kPages);
    EXPECT_LE(d[1], kPages * test::kFaultsPerTouchedPage + 50);
    EXPECT_GT(d[0], 0);
    EXPECT_EQ(after[set.flat_flags_word()], 1u) << "group 0's times came whole from read()";
    EXPECT_EQ(after[set.flat_gap_word(0)], 0u) << "a software group runs whenever enabled";
}

bool tracepoints_usable() {
    const auto tracefs = Tracefs::locate();
    return tracefs && tracefs->tracepoint_id("syscalls", "sys_enter_write") && ::geteuid() == 0;
}

TEST(CounterSetReal, ExactWriteCount) {
    if (!tracepoints_usable())
        GTEST_SKIP() << "needs root and tracefs (syscalls:sys_enter_write)";
    auto set = CounterSet::open(resolve("syscalls:sys_enter_write"), {});
    ASSERT_EQ(set.opened_count(), 1u);
    const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    auto before = set.make_snapshot();
    auto after = set.make_snapshot();
    set.enable();
    set.read(before);
    for (int i = 0; i < 137; ++i) {
        ASSERT_EQ(::syscall(SYS_write, fd, "x", 1), 1);
    }
    set.read(after);
    ::close(fd);
    EXPECT_EQ(set.delta(before, after)[0].value, 137.0);
}

TEST(CounterSetReal, OneReadSyscallPerSnapshotWhateverTheGroupSize) {
    if (!tracepoints_usable())
        GTEST_SKIP() << "needs root and tracefs (syscalls:sys_enter_read)";
    // Counts the read() syscalls that snapshots of a 3-event group make.
    auto probe = CounterSet::open(resolve("syscalls:sys_enter_read"), {});
    auto group = CounterSet::open(resolve("{task-clock,page-faults,context-switches}"), {});
    ASSERT_EQ(probe.opened_count(), 1u);
    ASSERT_EQ(group.opened_count(), 3u);
    ASSERT_EQ(group.group_count(), 1u);
    group.enable();
    auto snap = group.make_snapshot();
    auto p0 = probe.make_snapshot();
    auto p1 = probe.make_snapshot();
    probe.enable();
    probe.read(p0);  // this read is counted in p0's value already (sys_enter fires before it reads)
    for (int i = 0; i < 100; ++i)
        group.read(snap);
    probe.read(p1);  // ... and this one in p1's
    EXPECT_EQ(probe.delta(p0, p1)[0].value, 101.0) << "100 snapshots + the closing probe read";
}

// read_with_system_call() is selftest --counters' reference for user-space reads: one read()
// per group whatever the page allows, counted like read(). Every write() of 137 is seen by
// both, on a mapped set (software events: no user-space read here, but the same set and path).
TEST(CounterSetReal, ReadWithSystemCallCountsLikeRead) {
    if (!tracepoints_usable())
        GTEST_SKIP() << "needs root and tracefs (syscalls:sys_enter_write)";
    auto set = open_self_monitoring(resolve("syscalls:sys_enter_write"));
    ASSERT_EQ(set.opened_count(), 1u);
    set.enable();
    const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    auto a = set.make_snapshot(), b = set.make_snapshot(), c = set.make_snapshot();
    set.read(a);
    set.read_with_system_call(b);
    for (int i = 0; i < 137; ++i)
        ASSERT_EQ(::syscall(SYS_write, fd, "x", 1), 1);
    set.read_with_system_call(c);
    ::close(fd);
    EXPECT_EQ(b.path, ReadPath::read_syscall);
    EXPECT_EQ(c.path, ReadPath::read_syscall);
    EXPECT_EQ(set.delta(b, c)[0].raw, 137u);
    EXPECT_EQ(set.delta(a, c)[0].raw, 137u) << "both ways read the same counter";
}

}  // namespace
}  // namespace perfgauge::pmu
