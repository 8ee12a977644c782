// A process perfgauge starts for a run, and what it is asked: the run's request (as
// measuring_request leaves it: no outputs, no notes, no fan-out) beside the process's role - one
// of the run's measuring processes (--processes, --against's pairs) or its simulation child
// under valgrind. The role is never part of the user's request: only a child has one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <variant>

#include "perfgauge/harness/run_request.hpp"

namespace perfgauge::harness {

/// A measuring process of a run: its place among them and its result file.
struct MeasuringChild {
    std::size_t index = 0, count = 1;
    std::filesystem::path result_path;
    /// Checks every decoder against the reference on its data before measuring. The fan-out's
    /// processes after the first draw the same bytes from the same seed, which the first one
    /// checked: they leave it (a 288 MB arena is 2-3 s of decoding). In the request only when
    /// false, so a build that does not know it (an --against OTHER) reads the request as before.
    bool checks_decoders = true;

    bool operator==(const MeasuringChild&) const = default;
};

/// The simulation child (perfgauge itself under callgrind): where it writes its manifest.
struct SimulationChild {
    std::filesystem::path manifest;

    bool operator==(const SimulationChild&) const = default;
};

using ProcessRole = std::variant<MeasuringChild, SimulationChild>;

struct ChildRequest {
    RunRequest run;
    ProcessRole role;

    const MeasuringChild* measuring() const { return std::get_if<MeasuringChild>(&role); }
    const SimulationChild* simulation() const { return std::get_if<SimulationChild>(&role); }

    bool operator==(const ChildRequest&) const = default;
};

/// One measuring process's share of a run: its rounds and seed, its per-benchmark budget when
/// it is not `base`'s, the selection it measures when it is not the whole suite (--against
/// measures one benchmark per process), and its place.
struct MeasuringShare {
    std::size_t repetitions = 0;
    std::uint64_t seed = 0;
    std::optional<double> max_time_s;
    std::optional<SuiteSelection> selection;
    MeasuringChild place;
};

/// The one place a measuring child's request is made: `base` (measuring_request's or
/// paired_child_request's) with `share` in it.
ChildRequest measuring_child_request(RunRequest base, const MeasuringShare& share);

/// What a run asks its simulation child: measuring_request, which keeps the selection (the
/// child builds the same suite) and --sim-items, with `jobs` simulation processes at once (as
/// the parent resolved them) and `manifest` where it writes what it ran.
ChildRequest simulation_child_request(const RunRequest& request, unsigned jobs,
                                      std::filesystem::path manifest);

}  // namespace perfgauge::harness
