// Running valgrind's callgrind: a whole command (perfgauge stat) or perfgauge's own simulation
// child (perfgauge run), each in a private temporary directory, and reading what it wrote.
#include "perfgauge/harness/simulation.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <typeinfo>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/pmu/file_descriptor.hpp"
#include "simulated_event.hpp"

namespace perfgauge::harness {

namespace {

std::string read_log_quietly(const std::filesystem::path& path) {
    try {
        return read_text_file(path);
    } catch (const std::runtime_error&) {
        return "";
    }
}

// The last `bytes` of a file ("" when unreadable): the end of a command's stderr, however much
// it wrote.
std::string read_end_quietly(const std::filesystem::path& path, std::size_t bytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return "";
    const auto size = static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg()));
    const std::size_t from = size > bytes ? size - bytes : 0;
    in.seekg(static_cast<std::streamoff>(from));
    std::string text(size - from, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    return text;
}

std::vector<pmu::CallgrindDump> read_dumps(const std::filesystem::path& dir) {
    std::vector<pmu::CallgrindDump> dumps;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        // With --separate-threads callgrind leaves the base name empty (dumps are NAME-01, ...).
        if (entry.path().filename().string().rfind("callgrind.out", 0) == 0 &&
            entry.file_size() > 0)
            dumps.push_back(pmu::parse_callgrind_dump(read_text_file(entry.path())));
    }
    return dumps;
}

// A failure's message outlives the scratch directory (removed with its ScratchDir, before the
// message is read): valgrind's log and perfgauge's own errors name it for what it was instead.
std::string scratch_named(std::string text, const std::filesystem::path& dir) {
    const std::string path = dir.string();
    const std::string name = "the scratch directory perfgauge made under $TMPDIR (since removed)";
    for (auto at = text.find(path); !path.empty() && at != std::string::npos;
         at = text.find(path, at + name.size()))
        text.replace(at, path.size(), name);
    return text;
}

// `body()`, its failures rethrown naming no path under `dir` (the same type, but for what is
// only a std::runtime_error, such as an unreadable manifest).
template <class Body>
auto naming_scratch(const std::filesystem::path& dir, Body&& body) {
    try {
        return body();
    } catch (const pmu::SimulationError& e) {
        throw pmu::SimulationError(scratch_named(e.what(), dir));
    } catch (const std::runtime_error& e) {
        if (typeid(e) != typeid(std::runtime_error))
            throw;  // a type of its own (an interrupt): its handler needs it as it is
        throw std::runtime_error(scratch_named(e.what(), dir));
    }
}

// Room callgrind's dumps need, with a margin (a benchmark's dump is some tens of KB).
constexpr std::size_t kDumpRoom = 1 << 20;

// A full $TMPDIR would fail the simulation only at its end (callgrind's dump, the child's
// manifest), naming a scratch file that is gone by then: said now, as what it is.
void check_room(const ScratchDir& dir) {
    const int error = try_room(dir.path(), kDumpRoom);
    if (error == 0)
        return;
    const char* tmpdir = std::getenv("TMPDIR");
    throw pmu::SimulationError(fmt::format(
        "no room for callgrind's output in {}{}: {}; free some space there, or point TMPDIR at a "
        "file system with room",
        temp_root().string(), tmpdir && *tmpdir ? " ($TMPDIR)" : "", std::strerror(error)));
}

// The command keeps its $TMPDIR (it is the user's), so valgrind's start-up files go there: a
// Ctrl-C to the whole group as valgrind starts leaves them behind. Removed once the command has
// ended (declared before the child: its destructor reaps it first), whatever ended it.
struct ValgrindLeftoversSwept {
    ValgrindLeftoversSwept() = default;
    ValgrindLeftoversSwept(const ValgrindLeftoversSwept&) = delete;
    ValgrindLeftoversSwept& operator=(const ValgrindLeftoversSwept&) = delete;
    ~ValgrindLeftoversSwept() { remove_valgrind_leftovers(temp_root()); }
};

// Opens `path` for the simulated command's output (close-on-exec: only the command's dup2'd
// copy crosses its exec).
pmu::FileDescriptor open_output(const std::filesystem::path& path, int flags) {
    pmu::FileDescriptor fd(::open(path.c_str(), flags | O_WRONLY | O_CLOEXEC, 0600));
    if (!fd)
        throw pmu::SimulationError(
            fmt::format("cannot open {} for the command's output under "
                        "callgrind: {}",
                        path.string(), std::strerror(errno)));
    return fd;
}

}  // namespace

std::string output_tail(const std::string& text, std::size_t max_lines, std::size_t max_bytes) {
    std::string_view tail = text;
    while (!tail.empty() && tail.back() == '\n')
        tail.remove_suffix(1);
    // Back over max_lines newlines: the kept lines start after the last one passed (at the
    // start of the text when it has fewer).
    std::size_t start = 0;
    for (std::size_t lines = 0, end = tail.size(); lines < max_lines; ++lines) {
        const auto newline = end == 0 ? std::string_view::npos : tail.rfind('\n', end - 1);
        if (newline == std::string_view::npos) {
            start = 0;
            break;
        }
        start = newline + 1;
        end = newline;
    }
    tail.remove_prefix(start);
    if (tail.size() > max_bytes)
        return "..." + std::string(tail.substr(tail.size() - max_bytes));
    return std::string(tail);
}

bool needs_cache_simulation(const std::vector<std::string>& events) {
    return std::any_of(events.begin(), events.end(), [](const std::string& e) {
        return pmu::needs_cache_simulation(simulated_event_of(e));
    });
}

unsigned default_simulation_jobs() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return static_cast<unsigned>(CPU_COUNT(&set));
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<unsigned>(online) : 1U;
}

namespace {

CommandSimulation simulate_command_in(const ScratchDir& dir, pmu::CallgrindSetup setup,
                                      const std::vector<std::string>& command,
                                      const std::vector<std::string>& events, bool markers) {
    setup.out_file = (dir.path() / "callgrind.out.%p").string();
    setup.log_file = (dir.path() / "valgrind.log").string();
    setup.instrument_from_start = !markers;
    setup.trace_children = true;
    setup.cache_sim = needs_cache_simulation(events);
    ChildSetup child_setup;
    // The command's output under callgrind is not the user's: it already came once per counted
    // run. Its stdout is dropped; its stderr is kept apart, said only when the run fails.
    const auto null = open_output("/dev/null", 0);
    const auto error_path = dir.path() / "stderr";
    const auto error = open_output(error_path, O_CREAT | O_TRUNC);
    child_setup.stdout_fd = null.get();
    child_setup.stderr_fd = error.get();
    // Sessions dump at their region boundaries only when told to (a user's own callgrind run
    // keeps one dump).
    child_setup.environment = {"PERFGAUGE_REGIONS=callgrind"};
    // Markers switch instrumentation only when told to: a marked program simulated without
    // --markers is simulated whole.
    if (markers)
        child_setup.environment.push_back("PERFGAUGE_MARKER_FD=callgrind");
    const ValgrindLeftoversSwept swept;
    const auto start = std::chrono::steady_clock::now();
    PendingChild child(pmu::callgrind_command(setup, command), child_setup);
    child.start();
    CommandSimulation sim;
    sim.exit = child.wait();
    sim.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    sim.stderr_tail = output_tail(read_end_quietly(error_path, 4096), 5, 1000);
    const auto dumps = read_dumps(dir.path());
    if (sim.exit.exec_failed || dumps.empty()) {
        throw pmu::SimulationError(fmt::format(
            "valgrind could not run '{}' under callgrind ({}){}{}{}", command.front(),
            sim.exit.describe(), dumps.empty() ? ", no output" : "",
            [&] {
                const auto log = read_log_quietly(setup.log_file);
                return log.empty() ? std::string() : "; valgrind said:\n" + log;
            }(),
            sim.stderr_tail.empty() ? "" : "\nthe command's stderr ended:\n" + sim.stderr_tail));
    }
    // Sessions' region dumps make several files per process: count the processes.
    std::set<std::uint64_t> pids;
    for (const auto& d : dumps)
        pids.insert(d.pid);
    sim.processes = pids.size();
    sim.creator = dumps.front().creator;
    for (const auto& e : events) {
        const auto& event = simulated_event_of(e);
        double total = 0;
        for (const auto& d : dumps)
            total += pmu::simulated_count(event, d);
        sim.totals.push_back(total);
    }
    sim.regions = simulated_regions(dumps, events);
    return sim;
}

SimulationResult simulate_in(const ScratchDir& dir, const SimulationRequest& request) {
    const auto manifest_path = dir.path() / "manifest.json";
    pmu::CallgrindSetup setup = request.setup;
    setup.cache_sim = needs_cache_simulation(request.events);
    setup.out_file = (dir.path() / "callgrind.out.%p").string();
    // valgrind's own chatter ("L3 cache found, using its data...") stays out of the way and
    // is shown only when the run fails.
    const auto log_path = dir.path() / "valgrind.log";
    setup.log_file = log_path.string();
    auto program = request.program;
    if (request.program_for) {
        program = request.program_for(manifest_path);
    } else {
        program.push_back("--internal-sim-child=" + manifest_path.string());
        if (request.jobs > 0)
            program.push_back(fmt::format("--sim-jobs={}", request.jobs));
    }

    // valgrind makes files of its own in $TMPDIR at start-up (valgrind_proc_PID_cmdline_...,
    // removed a moment later): a Ctrl-C to the whole group in that moment kills it with them
    // still there. In the scratch directory they go with it, whatever ends valgrind. The child
    // is perfgauge itself, which makes nothing in $TMPDIR of its own.
    ChildSetup child_setup;
    child_setup.environment = {"TMPDIR=" + dir.path().string()};
    const auto start = std::chrono::steady_clock::now();
    PendingChild child(pmu::callgrind_command(setup, program), child_setup);
    child.start();
    const ExitStatus status = child.wait();
    SimulationResult result;
    result.jobs = std::max(1U, request.jobs);
    result.cache_sim = setup.cache_sim;
    result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!status.exited_with(0)) {
        const std::string log = read_log_quietly(log_path);
        throw pmu::SimulationError(fmt::format("the simulation run ({} under callgrind) {}{}{}",
                                               request.program.front(), status.describe(),
                                               log.empty() ? "" : "; valgrind said:\n", log));
    }
    const auto manifest = manifest_from_json(read_text_file(manifest_path));
    const auto dumps = read_dumps(dir.path());
    if (!dumps.empty())
        result.creator = dumps.front().creator;
    result.benchmarks = simulated_counts(manifest, dumps, request.events);
    return result;
}

}  // namespace

CommandSimulation simulate_command(pmu::CallgrindSetup setup,
                                   const std::vector<std::string>& command,
                                   const std::vector<std::string>& events, bool markers) {
    const ScratchDir dir("perfgauge-sim", "callgrind's output");
    check_room(dir);
    return naming_scratch(dir.path(), [&] {
        return simulate_command_in(dir, std::move(setup), command, events, markers);
    });
}

SimulationResult simulate(const SimulationRequest& request) {
    const ScratchDir dir("perfgauge-sim", "callgrind's output");
    check_room(dir);
    return naming_scratch(dir.path(), [&] { return simulate_in(dir, request); });
}

}  // namespace perfgauge::harness
