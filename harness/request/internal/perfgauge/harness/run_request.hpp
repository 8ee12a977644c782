// perfgauge run's request: everything the command line asked for, typed and validated (sizes
// in bytes, cache states and formats as enums, times in seconds, paths as paths). Built once by
// harness/cli from the options; nothing below it sees an option name. A child perfgauge starts
// gets it beside its role (child_request.hpp), never inside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/workloads/datasets.hpp"
#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::harness {

/// Which benchmarks exist and on what data. Every list holds each value once. A measuring
/// child given the same selection builds exactly the same benchmarks under the same names.
struct SuiteSelection {
    std::vector<std::string> workloads = {"varint", "memcpy"};
    std::vector<std::string> variants = {"branchy", "bmi2"};
    std::vector<workloads::Distribution> distributions = {workloads::Distribution::log_uniform};
    std::vector<workloads::Shape> shapes = {workloads::Shape::end_on_end};
    std::vector<workloads::CacheState> caches = {workloads::CacheState::hot,
                                                 workloads::CacheState::cold};
    std::vector<std::uint64_t> sizes;  ///< working sets in bytes; empty: the sweep
    /// Cache sizes given in place of the machine's (--l1d, --l2, --l3).
    std::optional<std::uint64_t> l1d, l2, l3;
    std::uint64_t data_seed = 1;

    bool operator==(const SuiteSelection&) const = default;
};

/// Where a result is saved: a new dated file in the current directory, nowhere, or a path.
struct SavedResult {
    enum class Where { new_file, nowhere, path };
    Where where = Where::new_file;
    std::filesystem::path path;  ///< with Where::path

    bool operator==(const SavedResult&) const = default;
};

/// perfgauge run --against OTHER: both builds measured in turn, benchmark by benchmark.
struct AgainstRequest {
    std::filesystem::path other;  ///< the other build's perfgauge, as given ("./x" for "x")
    std::size_t pairs = 6;        ///< the fewest pairs of processes per benchmark
    std::size_t max_pairs = 30;   ///< pairs are added while the interval is wide, up to this
    /// The widest 95% interval of a benchmark's median pair ratio, in % (as given).
    double pair_precision_percent = 5;
    SavedResult other_json;  ///< the other build's result

    bool operator==(const AgainstRequest&) const = default;
};

/// harness::kDefaultSimulatedItems (sim, which this library does not link; the cli checks).
inline constexpr std::uint64_t kRunRequestSimulatedItems = 100000;

struct RunRequest {
    SuiteSelection selection;
    /// Notes about the selection as given (repeats folded), said once by the command.
    std::vector<std::string> notes;
    /// No option selecting benchmarks or their data was given: the default suite.
    bool default_suite = true;

    std::string events = kDefaultRunEvents;  ///< resolved by select_events, with the backend
    Backend backend = Backend::automatic;

    std::size_t repetitions = 10;  ///< rounds, at least
    double precision_percent = 1;  ///< the median's 95% interval, in % (as given); 0: exactly -r
    double max_time_s = 0.4;
    double min_time_s = 0.002;
    double warmup_s = 0.02;
    std::size_t processes = 2;
    std::optional<std::uint64_t> seed;  ///< the interleaving seed; none: random
    bool interleave = true;
    std::optional<int> pin_cpu;
    bool fifo = false, mlock = false;
    bool quiet = false;

    OutputFormat format = OutputFormat::table;
    bool show_answer = false;      ///< the one-screen answer instead of the table
    std::filesystem::path output;  ///< -o; empty: stdout
    SavedResult json;              ///< the JSON result

    std::uint64_t sim_items = kRunRequestSimulatedItems;
    unsigned sim_jobs = 0;  ///< simulation processes at once; 0: one per CPU

    std::optional<AgainstRequest> against;

    bool operator==(const RunRequest&) const = default;
};

}  // namespace perfgauge::harness
