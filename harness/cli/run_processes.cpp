#include "run_processes.hpp"

#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "run_options.hpp"

namespace perfgauge::cli {

namespace {

// The options a measuring process takes over unchanged: what to measure and how to time it.
std::vector<std::string> measuring_arguments(const po::variables_map& vm) {
    std::vector<std::string> out = suite_arguments(vm);
    out.push_back("--events=" + vm["events"].as<std::string>());
    out.push_back("--backend=" + vm["backend"].as<std::string>());
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

}  // namespace

std::vector<std::size_t> repetitions_per_process(std::size_t repetitions, std::size_t processes) {
    if (processes < 1 || repetitions < processes) {
        throw UsageError(fmt::format(
            "-r/--repeat ({}) must be at least --processes ({}): each process takes a share "
            "of the rounds",
            repetitions, processes));
    }
    std::vector<std::size_t> shares(processes, repetitions / processes);
    for (std::size_t i = 0; i < repetitions % processes; ++i)
        ++shares[i];
    return shares;
}

harness::RunResult measure_in_processes(const po::variables_map& vm, std::size_t processes,
                                        std::uint64_t seed) {
    const auto shares =
        repetitions_per_process(static_cast<std::size_t>(vm["repeat"].as<int>()), processes);
    const harness::ScratchDir dir("perfgauge-run", "the measuring processes' results");
    const auto common = measuring_arguments(vm);
    std::vector<harness::RunResult> parts;
    for (std::size_t i = 0; i < processes; ++i) {
        const auto path = dir.path() / fmt::format("process-{}.json", i);
        std::vector<std::string> argv = {own_executable(), "run"};
        argv.insert(argv.end(), common.begin(), common.end());
        argv.push_back(fmt::format("--repeat={}", shares[i]));
        argv.push_back(fmt::format("--seed={}", seed + i));
        // The per-benchmark budget is the run's, shared like the rounds.
        argv.push_back(fmt::format("--max-time={}",
                                   vm["max-time"].as<double>() / static_cast<double>(processes)));
        argv.push_back(
            fmt::format("--internal-measure-child={}:{}:{}", i, processes, path.string()));
        harness::PendingChild child(argv);
        child.start();
        const harness::ExitStatus status = child.wait();
        if (status.exec_failed || status.signaled || status.code != 0) {
            throw std::runtime_error(
                fmt::format("measuring process {} of {} {}", i + 1, processes, status.describe()));
        }
        parts.push_back(harness::parse_run_json(harness::read_text_file(path), path.string()));
    }
    return harness::merge_processes(std::move(parts));
}

}  // namespace perfgauge::cli
