#include "run_processes.hpp"

#include <fmt/format.h>

#include "cli_common.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/process_fanout.hpp"
#include "run_suite.hpp"

namespace perfgauge::cli {

namespace {

// The options a measuring process takes over unchanged: what to measure and how to time it.
std::vector<std::string> measuring_arguments(const harness::RunRequest& request) {
    std::vector<std::string> out = suite_arguments(request.selection);
    out.push_back(fmt::format("--backend={}", harness::backend_name(request.backend)));
    const auto timing = timing_arguments(request);
    out.insert(out.end(), timing.begin(), timing.end());
    return out;
}

}  // namespace

std::vector<std::string> timing_arguments(const harness::RunRequest& request) {
    std::vector<std::string> out;
    out.push_back("--events=" + request.events);
    out.push_back(fmt::format("--min-time={}", request.min_time_s));
    out.push_back(fmt::format("--warmup={}", request.warmup_s));
    out.push_back(fmt::format("--precision={}", request.precision_percent));
    for (const auto& [flag, given] :
         {std::pair{"no-interleave", !request.interleave}, std::pair{"fifo", request.fifo},
          std::pair{"mlock", request.mlock}, std::pair{"quiet", request.quiet}}) {
        if (given)
            out.push_back(fmt::format("--{}", flag));
    }
    if (request.pin_cpu)
        out.push_back(fmt::format("--pin={}", *request.pin_cpu));
    return out;
}

harness::RunResult measure_in_processes(const harness::RunRequest& request, std::uint64_t seed) {
    harness::FanOut fan_out;
    fan_out.processes = request.processes;
    fan_out.repetitions = request.repetitions;
    fan_out.seed = seed;
    fan_out.max_time_s = request.max_time_s;
    const auto common = measuring_arguments(request);
    return harness::measure_in_processes(fan_out, [&](const harness::ProcessShare& share) {
        std::vector<std::string> argv = {own_executable(), "run"};
        argv.insert(argv.end(), common.begin(), common.end());
        argv.push_back(fmt::format("--repeat={}", share.repetitions));
        argv.push_back(fmt::format("--seed={}", share.seed));
        argv.push_back(fmt::format("--max-time={}", share.max_time_s));
        argv.push_back(fmt::format("--internal-measure-child={}:{}:{}", share.index,
                                   share.processes, share.result_path.string()));
        harness::PendingChild child(argv);
        child.start();
        return child.wait();
    });
}

}  // namespace perfgauge::cli
