#include "run_processes.hpp"

#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
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

// The result an interrupted measuring process left (it skips writing one when it had no sample
// at all). It joins the others only when it measured the same benchmarks: a process stopped
// during sizing leaves some out, and its few samples are not worth the others'.
void keep_interrupted_part(std::vector<harness::RunResult>& parts,
                           const std::filesystem::path& path, std::size_t index) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return;
    auto part = harness::parse_run_json(harness::read_text_file(path), path.string());
    const auto names = [](const harness::RunResult& r) {
        std::vector<std::string> out;
        for (const auto& b : r.benchmarks)
            out.push_back(b.name);
        return out;
    };
    if (parts.empty() || names(parts.front()) == names(part)) {
        parts.push_back(std::move(part));
    } else {
        parts.front().warnings.push_back(fmt::format(
            "the interrupted measuring process {} had not sampled every benchmark yet; its "
            "samples are left out",
            index + 1));
    }
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
    for (std::size_t i = 0; i < processes && harness::interrupt_signal() == 0; ++i) {
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
        if (harness::interrupt_signal() != 0) {
            // The child got the signal too and saved what it had measured, if anything.
            keep_interrupted_part(parts, path, i);
            break;
        }
        if (status.exec_failed || status.signaled || status.code != 0) {
            throw std::runtime_error(
                fmt::format("measuring process {} of {} {}", i + 1, processes, status.describe()));
        }
        parts.push_back(harness::parse_run_json(harness::read_text_file(path), path.string()));
    }
    if (parts.empty())
        return {};  // interrupted before any benchmark had a sample
    auto merged = harness::merge_processes(std::move(parts));
    if (const int signal = harness::interrupt_signal();
        signal != 0 && merged.interrupted_by.empty())
        merged.interrupted_by = harness::signal_name(signal);
    return merged;
}

}  // namespace perfgauge::cli
