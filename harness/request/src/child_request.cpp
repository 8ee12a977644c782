#include "perfgauge/harness/child_request.hpp"

#include <utility>

#include "perfgauge/harness/measuring_request.hpp"

namespace perfgauge::harness {

ChildRequest measuring_child_request(RunRequest base, const MeasuringShare& share) {
    base.repetitions = share.repetitions;
    base.seed = share.seed;
    if (share.max_time_s)
        base.max_time_s = *share.max_time_s;
    if (share.selection)
        base.selection = *share.selection;
    return {std::move(base), share.place};
}

ChildRequest simulation_child_request(const RunRequest& request, unsigned jobs,
                                      std::filesystem::path manifest) {
    RunRequest run = measuring_request(request);
    run.sim_jobs = jobs;
    return {std::move(run), SimulationChild{std::move(manifest)}};
}

}  // namespace perfgauge::harness
