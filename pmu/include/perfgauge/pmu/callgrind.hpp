// The simulated backend's process side: finding valgrind, the callgrind command line (with
// cache geometry valgrind accepts), and the client requests that delimit measured regions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgauge::pmu {

/// A cache as valgrind's simulator takes it: --D1=size,ways,line.
struct SimCache {
    std::uint64_t size = 0;
    unsigned ways = 0;
    unsigned line = 0;
    bool operator==(const SimCache&) const = default;
};

/// What a detected cache becomes in the simulation, and why it differs when it does.
struct FittedCache {
    SimCache cache;
    std::string note;  ///< empty when taken as detected
};

/// valgrind needs a power-of-two number of sets and line size (>= 16 B). Caches that are not
/// (Intel's 30 MB 20-way L3: 24576 sets) keep their size with more ways and a power-of-two set
/// count (30-way, 16384 sets); when even that cannot keep the size, the size shrinks to the
/// nearest geometry below. nullopt when nothing sensible exists (zero sizes, odd lines).
std::optional<FittedCache> fit_cache_for_valgrind(const SimCache& detected);

/// "--D1=32768,8,64" for which = "D1" (also "I1", "LL").
std::string cache_flag(std::string_view which, const SimCache& cache);

struct CallgrindSetup {
    std::string valgrind = "valgrind";
    std::optional<SimCache> i1, d1, ll;  ///< unset: valgrind's own detection
    /// false: simulate only between start_instrumentation() and stop_instrumentation() (the
    /// measured code knows its regions); true: the whole program (perfgauge stat).
    bool instrument_from_start = false;
    bool trace_children = false;  ///< follow fork/exec; one output file per process
    /// --cache-sim: off when no requested event needs the caches (instructions and branches
    /// only), which makes callgrind about twice as fast; the I1/D1/LL flags then go too.
    bool cache_sim = true;
    /// One dump per thread (--separate-threads=yes): a client request's dump then holds the
    /// calling thread's counts only, which is what a multi-threaded counted region needs
    /// (summed over threads, zeroing from one thread and dumping from another loses counts).
    bool separate_threads = false;
    std::string out_file;  ///< --callgrind-out-file (%p: the pid)
    std::string log_file;  ///< --log-file for valgrind's own messages ("": stderr)
};

/// valgrind -q --tool=callgrind --branch-sim=yes --cache-sim=yes|no ... -- program...
std::vector<std::string> callgrind_command(const CallgrindSetup& setup,
                                           const std::vector<std::string>& program);

/// Where valgrind is, or why there is none.
struct ValgrindLookup {
    std::optional<std::string> path;  ///< an executable valgrind
    bool from_environment = false;    ///< path (or problem) comes from $PERFGAUGE_VALGRIND
    /// Why `path` is empty, complete with what to do: "PERFGAUGE_VALGRIND=/x: no such file
    /// (...)" or "valgrind was not found on PATH (...)". Callers put it after "needs valgrind: ".
    std::string problem;
};

/// valgrind's path: $PERFGAUGE_VALGRIND when set (a bad value is reported, never replaced by a
/// search of PATH: the user asked for that one), else the first executable `valgrind` on
/// PATH. valgrind's callgrind tool must exist beside it (checked by running it).
ValgrindLookup locate_valgrind();

/// locate_valgrind().path.
std::optional<std::string> find_valgrind();

/// What is wrong with `value` as $PERFGAUGE_VALGRIND ("PERFGAUGE_VALGRIND=/x: no such file",
/// "...: not executable", "...: a directory, not a program"); nullopt when it can be run.
std::optional<std::string> valgrind_override_problem(const std::string& value);

/// The first line `valgrind --version` prints ("valgrind-3.19.0"), or nullopt when it cannot
/// be run or prints nothing.
std::optional<std::string> valgrind_version(const std::string& valgrind);

/// Why this build of perfgauge cannot run under valgrind (AddressSanitizer's shadow memory),
/// or nullptr when it can.
const char* valgrind_incompatibility();

/// Client requests (valgrind/callgrind.h): a few no-op instructions when not under valgrind.
namespace callgrind {
bool running_on_valgrind();
void start_instrumentation();
void stop_instrumentation();
void zero_stats();
/// Writes the counts since the last zero_stats() as one dump; `reason` becomes its trigger
/// ("Client Request: <reason>").
void dump_stats(const char* reason);
/// Stops (or resumes) counting while the simulation goes on: paused work leaves the caches
/// and predictor as it would natively, but is not counted.
void toggle_collect();
}  // namespace callgrind

}  // namespace perfgauge::pmu
