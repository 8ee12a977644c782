#include "perfgauge/harness/stat.hpp"

#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <optional>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/native_columns.hpp"
#include "perfgauge/harness/stat_run.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/counter_set.hpp"

namespace perfgauge::harness {

namespace {

bool is_time_event(const pmu::EventSpec& spec) {
    return spec.attr.type == PERF_TYPE_SOFTWARE && (spec.attr.config == PERF_COUNT_SW_TASK_CLOCK ||
                                                    spec.attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

// The control socket of --markers (perfgauge/marker.h): the command's end is passed through
// PERFGAUGE_MARKER_FD, perfgauge keeps the other. A socket, not pipes: a marker called after
// perfgauge is gone gets EPIPE (send with MSG_NOSIGNAL) instead of dying of SIGPIPE, and one
// descriptor carries both the requests and the acknowledgements.
class MarkerChannel {
  public:
    MarkerChannel() {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
            throw std::system_error(errno, std::generic_category(), "socketpair");
        ours_.reset(fds[0]);
        theirs_.reset(fds[1]);
    }
    int ours() const { return ours_.get(); }
    int theirs() const { return theirs_.get(); }
    /// "PERFGAUGE_MARKER_FD=FD:INODE": the inode lets marker.h ignore a variable that leaked
    /// into a program where FD is something else.
    std::string environment() const {
        struct stat st {};
        if (::fstat(theirs_.get(), &st) != 0)
            throw std::system_error(errno, std::generic_category(), "fstat");
        return fmt::format("PERFGAUGE_MARKER_FD={}:{}", theirs_.get(),
                           static_cast<unsigned long long>(st.st_ino));
    }
    /// After fork: only the command (and what it starts) holds its end, so end of file on ours
    /// means no process can mark any more.
    void close_theirs() { theirs_.reset(); }

  private:
    pmu::FileDescriptor ours_, theirs_;
};

// Serves the markers of one run: 'E' enables the counter groups at the first of nested starts,
// 'D' disables them at the stop that balances it; every request is acknowledged after the
// ioctl, so the marker returns with the counters already in the state it asked for.
struct MarkerServer {
    pmu::CounterSet& counters;
    int fd;
    long depth = 0;
    long intervals = 0;
    long unmatched_stops = 0;
    long unknown_requests = 0;

    // false at end of file (every marking process has ended or closed the socket).
    bool serve() {
        char requests[256];
        const ssize_t n = ::recv(fd, requests, sizeof requests, MSG_DONTWAIT);
        if (n == 0)
            return false;
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        for (ssize_t i = 0; i < n; ++i) {
            if (requests[i] == 'E') {
                if (depth++ == 0) {
                    counters.enable();
                    ++intervals;
                }
            } else if (requests[i] == 'D') {
                if (depth == 0)
                    ++unmatched_stops;
                else if (--depth == 0)
                    counters.disable();
            } else {
                ++unknown_requests;
            }
        }
        // One acknowledgement per request, even unknown ones: a caller never waits forever.
        // A marker that died before reading its acknowledgement leaves no reader: the send
        // then fails or fills a buffer nobody reads, which must not stop perfgauge.
        const std::string acks(static_cast<std::size_t>(n), 'A');
        [[maybe_unused]] const ssize_t sent =
            ::send(fd, acks.data(), acks.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        return true;
    }
};

StatResult empty_result(const StatOptions& options, const std::vector<std::string>& command) {
    StatResult result;
    result.command = command;
    result.date = local_iso_date();
    result.markers = options.markers;
    result.delay_ms = options.delay ? static_cast<long>(options.delay->count()) : 0;
    return result;
}

// The counters of one run of the command `pid`: inherited by its threads and children.
pmu::CounterOptions counter_options_for(const StatOptions& options, pid_t pid) {
    pmu::CounterOptions counter_options;
    counter_options.inherit = true;
    // Markers and --delay start with the groups disabled (the leaders' attr.disabled) and
    // enable them by ioctl, which reaches the inherited counters of every thread and child.
    counter_options.enable_on_exec = !options.markers && !options.delay;
    counter_options.pid = pid;
    return counter_options;
}

// The command's process, held before exec (given `channel`'s end with --markers); none when no
// process could be made, and then `result.exit` says so.
std::optional<PendingChild> start_command(const std::vector<std::string>& command,
                                          const MarkerChannel* channel, StatResult& result) {
    ChildSetup setup;
    if (channel != nullptr) {
        setup.environment = {channel->environment()};
        setup.inherited_fd = channel->theirs();
    }
    try {
        return std::optional<PendingChild>(std::in_place, command, setup);
    } catch (const std::system_error& e) {
        // No process to run it in (fork's EAGAIN at the user's process limit, EMFILE): a run
        // that could not start, as one whose exec failed - never a counted one.
        result.exit = ExitStatus{};
        result.exit.exec_failed = true;
        result.exit.exec_error = e.code().value();
        return std::nullopt;
    }
}

// The first run sets up the result's event columns and notes from the counters as opened.
// False when nothing would be counted: the command is not run (the child, never released, is
// killed before exec), and the columns say why each event was refused.
bool set_up_events(const StatOptions& options, const std::vector<pmu::GroupSpec>& groups,
                   const pmu::CounterSet& counters, StatResult& result) {
    const auto columns = native_columns(counters);
    result.events.clear();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        StatEventResult e;
        static_cast<EventColumn&>(e) = columns[i];
        e.unit = is_time_event(counters.events()[i].spec) ? "ns" : "";
        result.events.push_back(std::move(e));
    }
    const auto notes = counters.notes();
    result.notes.insert(result.notes.end(), notes.begin(), notes.end());
    if (options.on_opened)
        options.on_opened(counters);
    if (!groups.empty() && !options.counted_elsewhere &&
        std::none_of(counters.events().begin(), counters.events().end(),
                     [](const pmu::EventSlot& e) { return e.opened; })) {
        result.no_event_opened = true;
        return false;
    }
    return true;
}

// How the wait for one run went: the command's end, its wall time, and what was served meanwhile.
struct Waited {
    ExitStatus exit;
    double elapsed_seconds = 0;
    std::optional<MarkerServer> server;  // with --markers: what the command asked for
    bool delay_elapsed = false;          // with --delay: whether it enabled the counters
};

// Releases the command and waits for it to end, serving its markers (`channel`) or enabling the
// counters after --delay meanwhile.
Waited wait_for_run(PendingChild& child, const StatOptions& options, const MarkerChannel* channel,
                    pmu::CounterSet& counters) {
    Waited waited;
    WaitHooks hooks;
    if (channel != nullptr) {
        waited.server.emplace(MarkerServer{counters, channel->ours()});
        hooks.served_fd = channel->ours();
        hooks.on_readable = [&waited] { return waited.server->serve(); };
    }
    if (options.delay) {
        hooks.after_exec = *options.delay;
        hooks.on_after_exec = [&counters, &waited] {
            counters.enable();
            waited.delay_elapsed = true;
        };
    }
    const auto start = std::chrono::steady_clock::now();
    waited.exit = options.markers || options.delay ? child.wait(hooks) : child.wait();
    const auto stop = std::chrono::steady_clock::now();
    waited.elapsed_seconds = std::chrono::duration<double>(stop - start).count();
    return waited;
}

// Adds a run that ended to `result`: its exit, times, marked intervals and counts. False when
// it was cut short before exec (nothing to report).
bool add_run(const StatOptions& options, const Waited& waited, bool cut_short, bool first,
             const PendingChild& child, pmu::CounterSet& counters, StatResult& result) {
    // Zeros: counting began at exec (or, disabled until then, at a marker or the delay).
    const auto before = counters.make_snapshot();
    auto after = counters.make_snapshot();
    counters.read(after);
    const auto deltas = counters.delta(before, after);
    // Counters that were never enabled read "not counted"; say why rather than blame the PMU.
    const auto never_enabled = never_enabled_refusal(
        waited.server ? std::optional<long>(waited.server->intervals) : std::nullopt,
        options.delay ? std::optional<long>(result.delay_ms) : std::nullopt, waited.delay_elapsed);
    if (cut_short) {
        // The only run, cut short: its counts until then are reported, marked so (perf stat
        // does the same when Ctrl-C ends a command) - unless it never reached exec.
        if (std::none_of(deltas.begin(), deltas.end(),
                         [](const pmu::ScaledCount& d) { return d.counted; }))
            return false;
        result.interrupted_run = true;
    }
    result.exit = waited.exit;
    ++result.repetitions;
    if (waited.server) {
        const MarkerServer& server = *waited.server;
        result.marked_intervals.push_back(server.intervals);
        if (first) {
            for (auto& note :
                 marker_notes(server.depth, server.unmatched_stops, server.unknown_requests))
                result.notes.push_back(std::move(note));
        }
    }
    result.elapsed_seconds.push_back(waited.elapsed_seconds);
    const CpuTimes cpu = child.cpu_times();
    result.user_seconds.push_back(cpu.user_seconds);
    result.system_seconds.push_back(cpu.system_seconds);
    result.read_path = pmu::read_path_name(after.path);
    add_run_counts(result.events, counters.events(), deltas, cut_short, never_enabled);
    return true;
}

// Runs `command` once with the counters attached and adds its counts to `result` (the first run
// of a result also sets up its event columns and notes).
RunOutcome run_once(const StatOptions& options, const std::vector<pmu::GroupSpec>& groups,
                    const std::vector<std::string>& command, StatResult& result) {
    if (const int signal = interrupt_signal(); signal != 0) {
        // Interrupted between runs: no run is cut short, but the report must still say that
        // the runs were stopped (a signal landing here was reported as a complete result).
        result.interrupted_by = signal_name(signal);
        return RunOutcome::interrupted;
    }
    const bool first = result.repetitions == 0;
    std::optional<MarkerChannel> channel;
    if (options.markers)
        channel.emplace();
    const MarkerChannel* marker_channel = channel ? &*channel : nullptr;
    std::optional<PendingChild> child = start_command(command, marker_channel, result);
    if (!child)
        return RunOutcome::failed;
    if (channel)
        channel->close_theirs();
    auto counters = pmu::CounterSet::open(groups, counter_options_for(options, child->pid()));
    if (first && !set_up_events(options, groups, counters, result))
        return RunOutcome::not_run;
    const Waited waited = wait_for_run(*child, options, marker_channel, counters);
    const int signal = interrupt_signal();
    if (signal != 0)
        result.interrupted_by = signal_name(signal);
    const WaitEnd end = end_of_wait(waited.exit, signal, result.repetitions);
    if (end.outcome) {
        if (*end.outcome == RunOutcome::failed)
            result.exit = waited.exit;
        return *end.outcome;
    }
    if (!add_run(options, waited, end.cut_short, first, *child, counters, result))
        return RunOutcome::interrupted;
    if (!result.interrupted_by.empty())
        return RunOutcome::interrupted;
    return result.exit.shell_status() != 0 ? RunOutcome::failed : RunOutcome::counted;
}

}  // namespace

StatResult run_stat(const StatOptions& options, const pmu::EventResolver& /*resolver*/) {
    return run_stat(options);
}

StatResult run_stat(const StatOptions& options) {
    const auto& groups = options.events.groups();
    StatResult result = empty_result(options, options.command);
    // The machine, as a run result records it: a history files the result under it.
    result.system = collect_system_info();
    const auto runs = static_cast<std::size_t>(options.repetitions);
    for (int rep = 0; rep < options.repetitions; ++rep) {
        const auto r = static_cast<std::size_t>(rep);
        if (options.on_run)
            options.on_run({.done = r, .total = runs, .run = r + 1, .runs = runs});
        const RunOutcome outcome = run_once(options, groups, options.command, result);
        if (outcome == RunOutcome::interrupted || outcome == RunOutcome::not_run)
            break;
        if (outcome == RunOutcome::failed) {
            if (result.exit.exec_failed && rep > 0)
                result.notes.push_back(fmt::format("stopped after run {} of {}: run {} {}", rep,
                                                   options.repetitions, rep + 1,
                                                   result.exit.describe()));
            else if (!result.exit.exec_failed && rep + 1 < options.repetitions)
                result.notes.push_back(fmt::format("stopped after run {} of {}: the command {}",
                                                   rep + 1, options.repetitions,
                                                   result.exit.describe()));
            break;
        }
    }
    return result;
}

namespace {

// Keeps the first `runs` runs of `r`.
void keep_runs(StatResult& r, std::size_t runs) {
    const auto cut = [runs](auto& values) {
        if (values.size() > runs)
            values.resize(runs);
    };
    cut(r.elapsed_seconds);
    cut(r.user_seconds);
    cut(r.system_seconds);
    cut(r.marked_intervals);
    for (auto& e : r.events)
        cut(e.samples);
    r.repetitions =
        static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(r.repetitions), runs));
}

}  // namespace

ExitStatus run_prepare(const std::string& prepare) {
    PendingChild child({"/bin/sh", "-c", prepare});
    return child.wait();
}

SideBySideResult run_side_by_side(const SideBySideOptions& options,
                                  const pmu::EventResolver& /*resolver*/) {
    return run_side_by_side(options);
}

namespace {

// The result before any run: every command named, on this machine.
SideBySideResult empty_side_by_side(const SideBySideOptions& options) {
    SideBySideResult result;
    result.labels = side_by_side_labels(options.commands);
    result.rounds_planned = options.stat.repetitions;
    result.warmup = options.warmup;
    result.prepare = options.prepare;
    const SystemInfo system = collect_system_info();  // one machine runs every command
    for (const auto& command : options.commands) {
        result.commands.push_back(empty_result(options.stat, command));
        result.commands.back().system = system;
    }
    return result;
}

// Only rounds every command completed are reported: medians and pairs over the same rounds.
void keep_complete_rounds(SideBySideResult& result) {
    const std::size_t rounds = result.complete_rounds();
    for (std::size_t c = 0; c < result.commands.size(); ++c) {
        if (result.commands[c].elapsed_seconds.size() > rounds) {
            keep_runs(result.commands[c], rounds);
            result.notes.push_back(fmt::format(
                "the run of '{}' in round {}, which not every command completed, is left out",
                result.labels[c], rounds + 1));
        }
    }
}

}  // namespace

SideBySideResult run_side_by_side(const SideBySideOptions& options) {
    const auto& groups = options.stat.events.groups();
    SideBySideResult result = empty_side_by_side(options);
    // Warmups count nothing worth showing: -v describes the counters of the first counted run.
    StatOptions warmup_options = options.stat;
    warmup_options.on_opened = nullptr;
    // One run of command `c`, into `into`; false when the rounds must stop.
    const auto run = [&](std::size_t c, StatResult& into, const StatOptions& stat) {
        if (!options.prepare.empty() && interrupt_signal() == 0) {
            const ExitStatus prepared = run_prepare(options.prepare);
            if (interrupt_signal() != 0)
                return false;
            if (prepared.shell_status() != 0) {
                result.failed_prepare = prepared;
                return false;
            }
        }
        const std::size_t before = into.elapsed_seconds.size();
        const RunOutcome outcome = run_once(stat, groups, options.commands[c], into);
        if (outcome == RunOutcome::interrupted && into.elapsed_seconds.size() > before) {
            // A run an interrupt reached did part of its work at most; beside another
            // command's whole run it would make a false pair.
            keep_runs(into, before);
            into.interrupted_run = false;
        }
        if (outcome == RunOutcome::failed) {
            result.failed_command = c;
            result.commands[c].exit = into.exit;
        }
        if (outcome == RunOutcome::not_run && &into != &result.commands[c]) {
            // Found in a warmup run: the command's result says why nothing counts.
            result.commands[c].events = into.events;
            result.commands[c].no_event_opened = true;
        }
        return outcome == RunOutcome::counted;
    };
    // Where the runs are, for the progress line: warmups first, then the rounds.
    const std::size_t n = options.commands.size();
    const auto warmups = static_cast<std::size_t>(options.warmup);
    const auto rounds = static_cast<std::size_t>(options.stat.repetitions);
    std::size_t done = 0;
    const auto step = [&](std::size_t c, std::size_t run, bool warmup) {
        if (options.stat.on_run)
            options.stat.on_run({.done = done++,
                                 .total = (warmups + rounds) * n,
                                 .run = run + 1,
                                 .runs = warmup ? warmups : rounds,
                                 .warmup = warmup,
                                 .command = c,
                                 .commands = n});
    };
    bool going = true;
    for (std::size_t w = 0; going && w < warmups; ++w) {
        for (std::size_t c = 0; going && c < n; ++c) {
            StatResult warmup = empty_result(options.stat, options.commands[c]);
            step(c, w, true);
            going = run(c, warmup, warmup_options);
            result.failed_in_warmup = !going && result.failed_command.has_value();
        }
    }
    for (std::size_t round = 0; going && round < rounds; ++round) {
        for (std::size_t k = 0; going && k < n; ++k) {
            const std::size_t c = round % 2 == 0 ? k : n - 1 - k;
            step(c, round, false);
            going = run(c, result.commands[c], options.stat);
        }
    }
    keep_complete_rounds(result);
    if (const int signal = interrupt_signal(); signal != 0)
        result.interrupted_by = signal_name(signal);
    return result;
}

}  // namespace perfgauge::harness
