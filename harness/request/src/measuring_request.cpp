#include "perfgauge/harness/measuring_request.hpp"

namespace perfgauge::harness {

RunRequest measuring_request(RunRequest request) {
    request.notes.clear();
    request.processes = 1;
    request.output.clear();
    request.json = {SavedResult::Where::nowhere, {}};
    request.against.reset();
    return request;
}

RunRequest paired_child_request(const RunRequest& request) {
    RunRequest child = measuring_request(request);
    child.backend = Backend::perf;
    child.quiet = true;  // the parent shows the progress
    // The per-benchmark budget is the run's, shared between a side's processes like the rounds.
    child.max_time_s = request.max_time_s / static_cast<double>(request.against->pairs);
    return child;
}

}  // namespace perfgauge::harness
