#include "run/processes.hpp"

#include "common/cli_common.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/measuring_request.hpp"
#include "perfgauge/harness/process_fanout.hpp"
#include "perfgauge/harness/request_json.hpp"

namespace perfgauge::cli {

std::vector<std::string> measuring_argv(const std::string& executable,
                                        const harness::RunRequest& request) {
    return {executable, "run",
            "--internal-request=" + harness::run_request_to_json(request, PERFGAUGE_VERSION)};
}

harness::RunResult measure_in_processes(const harness::RunRequest& request, std::uint64_t seed) {
    harness::FanOut fan_out;
    fan_out.processes = request.processes;
    fan_out.repetitions = request.repetitions;
    fan_out.seed = seed;
    fan_out.max_time_s = request.max_time_s;
    harness::RunRequest child_request = harness::measuring_request(request);
    return harness::measure_in_processes(fan_out, [&](const harness::ProcessShare& share) {
        child_request.repetitions = share.repetitions;
        child_request.seed = share.seed;
        child_request.max_time_s = share.max_time_s;
        child_request.measuring_child =
            harness::MeasuringChild{share.index, share.processes, share.result_path};
        harness::PendingChild child(measuring_argv(own_executable(), child_request));
        child.start();
        return child.wait();
    });
}

}  // namespace perfgauge::cli
