#include "run_processes.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/process_fanout.hpp"
#include "run_options.hpp"

namespace perfgauge::cli {

namespace {

// The options a measuring process takes over unchanged: what to measure and how to time it.
std::vector<std::string> measuring_arguments(const po::variables_map& vm) {
    std::vector<std::string> out = suite_arguments(vm);
    out.push_back("--backend=" + vm["backend"].as<std::string>());
    const auto timing = timing_arguments(vm);
    out.insert(out.end(), timing.begin(), timing.end());
    return out;
}

}  // namespace

std::vector<std::string> timing_arguments(const po::variables_map& vm) {
    std::vector<std::string> out;
    out.push_back("--events=" + vm["events"].as<std::string>());
    out.push_back(fmt::format("--min-time={}", vm["min-time"].as<double>()));
    out.push_back(fmt::format("--warmup={}", vm["warmup"].as<double>()));
    out.push_back(fmt::format("--precision={}", vm["precision"].as<double>()));
    for (const char* flag : {"no-interleave", "fifo", "mlock", "quiet"}) {
        if (vm.count(flag))
            out.push_back(fmt::format("--{}", flag));
    }
    if (vm.count("pin"))
        out.push_back(fmt::format("--pin={}", vm["pin"].as<int>()));
    return out;
}

std::vector<std::size_t> repetitions_per_process(std::size_t repetitions, std::size_t processes) {
    try {
        return harness::repetitions_per_process(repetitions, processes);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

harness::RunResult measure_in_processes(const po::variables_map& vm, std::size_t processes,
                                        std::uint64_t seed) {
    harness::FanOut fan_out;
    fan_out.processes = processes;
    fan_out.repetitions = static_cast<std::size_t>(vm["repeat"].as<int>());
    fan_out.seed = seed;
    fan_out.max_time_s = vm["max-time"].as<double>();
    const auto common = measuring_arguments(vm);
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
