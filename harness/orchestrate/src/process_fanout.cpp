#include "perfgauge/harness/process_fanout.hpp"

#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"

namespace perfgauge::harness {

namespace {

std::vector<std::string> benchmark_names(const RunResult& r) {
    std::vector<std::string> out;
    for (const auto& b : r.benchmarks)
        out.push_back(b.name);
    return out;
}

// The result an interrupted measuring process left (it skips writing one when it had no sample
// at all). It joins the others only when it measured the same benchmarks: a process stopped
// during sizing leaves some out, and its few samples are not worth the others'.
void keep_interrupted_part(std::vector<RunResult>& parts, const std::filesystem::path& path,
                           std::size_t index) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return;
    auto part = parse_run_json(read_text_file(path), path.string());
    if (parts.empty() || benchmark_names(parts.front()) == benchmark_names(part)) {
        parts.push_back(std::move(part));
    } else {
        parts.front().warnings.push_back(fmt::format(
            "the interrupted measuring process {} had not sampled every benchmark yet; its "
            "samples are left out",
            index + 1));
    }
}

}  // namespace

std::vector<std::size_t> repetitions_per_process(std::size_t repetitions, std::size_t processes) {
    if (processes < 1 || repetitions < processes) {
        throw std::invalid_argument(fmt::format(
            "-r/--repeat ({}) must be at least --processes ({}): each process takes a share "
            "of the rounds",
            repetitions, processes));
    }
    std::vector<std::size_t> shares(processes, repetitions / processes);
    for (std::size_t i = 0; i < repetitions % processes; ++i)
        ++shares[i];
    return shares;
}

RunResult measure_in_processes(const FanOut& fan_out, const MeasuringProcess& run_process) {
    const std::function<int()> interrupted = fan_out.interrupt_signal
                                                 ? fan_out.interrupt_signal
                                                 : std::function<int()>(interrupt_signal);
    const std::size_t processes = fan_out.processes;
    const auto shares = repetitions_per_process(fan_out.repetitions, processes);
    const ScratchDir dir("perfgauge-run", "the measuring processes' results");
    std::vector<RunResult> parts;
    for (std::size_t i = 0; i < processes && interrupted() == 0; ++i) {
        ProcessShare share;
        share.index = i;
        share.processes = processes;
        share.repetitions = shares[i];
        share.seed = fan_out.seed + i;
        share.max_time_s = fan_out.max_time_s / static_cast<double>(processes);
        share.result_path = dir.path() / fmt::format("process-{}.json", i);
        const ExitStatus status = run_process(share);
        if (interrupted() != 0) {
            // The process got the signal too and saved what it had measured, if anything.
            keep_interrupted_part(parts, share.result_path, i);
            break;
        }
        if (status.exec_failed || status.signaled || status.code != 0) {
            throw std::runtime_error(
                fmt::format("measuring process {} of {} {}", i + 1, processes, status.describe()));
        }
        parts.push_back(
            parse_run_json(read_text_file(share.result_path), share.result_path.string()));
    }
    if (parts.empty())
        return {};  // interrupted before any benchmark had a sample
    auto merged = merge_processes(std::move(parts));
    if (const int signal = interrupted(); signal != 0 && merged.interrupted_by.empty())
        merged.interrupted_by = signal_name(signal);
    return merged;
}

}  // namespace perfgauge::harness
