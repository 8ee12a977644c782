#include "perfgauge/pmu/callgrind.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <fmt/format.h>
#include <valgrind/callgrind.h>

namespace perfgauge::pmu {

namespace {

constexpr unsigned kMinLine = 16;  // valgrind refuses smaller lines

}  // namespace

std::optional<FittedCache> fit_cache_for_valgrind(const SimCache& c) {
    if (c.size == 0 || c.ways == 0 || c.line < kMinLine || !std::has_single_bit(c.line) ||
        c.size < std::uint64_t{c.ways} * c.line)
        return std::nullopt;
    const std::uint64_t sets = c.size / (std::uint64_t{c.ways} * c.line);
    if (std::has_single_bit(sets) && sets * c.ways * c.line == c.size)
        return FittedCache{c, ""};
    const std::uint64_t fitted_sets = std::bit_floor(sets);
    FittedCache out{c, ""};
    if (c.size % (fitted_sets * c.line) == 0) {
        out.cache.ways = static_cast<unsigned>(c.size / (fitted_sets * c.line));
    } else {
        out.cache.size = fitted_sets * c.ways * c.line;
    }
    out.note = fmt::format(
        "{} B {}-way (line {} B) has {} sets, not a power of two as valgrind needs: simulated as "
        "{} B {}-way",
        c.size, c.ways, c.line, sets, out.cache.size, out.cache.ways);
    return out;
}

std::string cache_flag(std::string_view which, const SimCache& cache) {
    return fmt::format("--{}={},{},{}", which, cache.size, cache.ways, cache.line);
}

std::vector<std::string> callgrind_command(const CallgrindSetup& setup,
                                           const std::vector<std::string>& program) {
    std::vector<std::string> argv = {
        setup.valgrind, "-q", "--tool=callgrind", "--branch-sim=yes",
        setup.cache_sim ? "--cache-sim=yes" : "--cache-sim=no",
        setup.instrument_from_start ? "--instr-atstart=yes" : "--instr-atstart=no",
        // Counts only: no per-line or per-instruction tables.
        "--dump-line=no", "--dump-instr=no",
        // No gdbserver: its FIFOs in $TMPDIR would outlive a valgrind killed outright.
        "--vgdb=no"};
    if (setup.cache_sim && setup.i1)
        argv.push_back(cache_flag("I1", *setup.i1));
    if (setup.cache_sim && setup.d1)
        argv.push_back(cache_flag("D1", *setup.d1));
    if (setup.cache_sim && setup.ll)
        argv.push_back(cache_flag("LL", *setup.ll));
    if (setup.trace_children)
        argv.emplace_back("--trace-children=yes");
    if (setup.separate_threads)
        argv.emplace_back("--separate-threads=yes");
    if (!setup.out_file.empty())
        argv.push_back("--callgrind-out-file=" + setup.out_file);
    if (!setup.log_file.empty())
        argv.push_back("--log-file=" + setup.log_file);
    argv.emplace_back("--");
    argv.insert(argv.end(), program.begin(), program.end());
    return argv;
}

std::optional<std::string> valgrind_override_problem(const std::string& value) {
    struct stat st {};
    if (::stat(value.c_str(), &st) != 0) {
        const int error = errno;
        return fmt::format("PERFGAUGE_VALGRIND={}: {}", value,
                           error == ENOENT ? "no such file" : std::strerror(error));
    }
    if (S_ISDIR(st.st_mode))
        return fmt::format("PERFGAUGE_VALGRIND={}: a directory, not a program", value);
    if (::access(value.c_str(), X_OK) != 0)
        return fmt::format("PERFGAUGE_VALGRIND={}: not executable", value);
    return std::nullopt;
}

ValgrindLookup locate_valgrind() {
    ValgrindLookup lookup;
    if (const char* forced = std::getenv("PERFGAUGE_VALGRIND"); forced && *forced) {
        lookup.from_environment = true;
        if (auto problem = valgrind_override_problem(forced)) {
            lookup.problem = *problem + " (point it at valgrind, or unset it to search PATH)";
        } else {
            lookup.path = forced;
        }
        return lookup;
    }
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/valgrind";
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0) {
            lookup.path = candidate;
            return lookup;
        }
    }
    lookup.problem =
        "valgrind was not found on PATH (Debian: apt-get install valgrind; or point "
        "PERFGAUGE_VALGRIND at it)";
    return lookup;
}

std::optional<std::string> find_valgrind() {
    return locate_valgrind().path;
}

std::optional<std::string> valgrind_version(const std::string& valgrind) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
        return std::nullopt;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::string program = valgrind, flag = "--version";
    char* argv[] = {program.data(), flag.data(), nullptr};
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, valgrind.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    std::string out;
    if (spawned == 0) {
        char buffer[256];
        ssize_t n = 0;
        while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
            out.append(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    ::close(pipe_fds[0]);
    out = out.substr(0, out.find('\n'));
    if (out.empty())
        return std::nullopt;
    return out;
}

const char* valgrind_incompatibility() {
#if defined(__SANITIZE_ADDRESS__)
    return "this perfgauge is built with AddressSanitizer, which valgrind cannot run; use a "
           "release build (scripts/build.sh release) for simulated counts";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return "this perfgauge is built with AddressSanitizer, which valgrind cannot run; use a "
           "release build (scripts/build.sh release) for simulated counts";
#endif
#endif
    return nullptr;
}

namespace callgrind {

// The macros expand to a magic instruction sequence valgrind recognises; natively it does
// nothing, so the measured binary needs no separate build for simulation.
bool running_on_valgrind() {
    return RUNNING_ON_VALGRIND != 0;
}
void start_instrumentation() {
    CALLGRIND_START_INSTRUMENTATION;
}
void stop_instrumentation() {
    CALLGRIND_STOP_INSTRUMENTATION;
}
void zero_stats() {
    CALLGRIND_ZERO_STATS;
}
void dump_stats(const char* reason) {
    CALLGRIND_DUMP_STATS_AT(reason);
}
void toggle_collect() {
    CALLGRIND_TOGGLE_COLLECT;
}

}  // namespace callgrind

}  // namespace perfgauge::pmu
