#include "perfgauge/harness/process_fanout.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/harness/stage_failures.hpp"

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

// A measuring process that failed: its samples are lost, the others' are kept.
struct LostProcess {
    std::string name;  // "measuring process 2 of 3"
    std::string why;   // "killed by signal 9 (SIGKILL)"
};

// What a finished process left, or why it is lost: it must have ended well and written a result
// that reads back.
std::optional<LostProcess> collect_part(std::vector<RunResult>& parts, const ProcessShare& share,
                                        const ExitStatus& status) {
    const std::string name =
        fmt::format("measuring process {} of {}", share.index + 1, share.processes);
    if (!status.exited_with(0))
        return LostProcess{name, status.describe()};
    // Messages name the process, never its file: the scratch directory is gone by then.
    std::string text;
    try {
        text = read_text_file(share.result_path);
    } catch (const std::exception&) {
        return LostProcess{name, "left no result"};
    }
    try {
        parts.push_back(parse_run_json(text, "its result"));
    } catch (const std::exception& e) {
        return LostProcess{name, fmt::format("left no readable result ({})", e.what())};
    }
    return std::nullopt;
}

// The merged result says what was lost, and the lost processes are failed stages (exit 1).
void note_lost(RunResult& merged, const std::vector<LostProcess>& lost, std::size_t processes) {
    for (const auto& l : lost) {
        merged.warnings.push_back(fmt::format("{} {}; its samples are lost", l.name, l.why));
        record_stage_failure(l.name);
    }
    merged.warnings.push_back(fmt::format(
        "{} of {} measuring processes lost: the statistics are of the samples of the {} that "
        "finished",
        lost.size(), processes, merged.processes));
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
    std::vector<LostProcess> lost;
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
        // A process that died loses its own share only: the next one still runs.
        if (auto failed = collect_part(parts, share, status))
            lost.push_back(std::move(*failed));
    }
    if (parts.empty() && !lost.empty() && interrupted() == 0) {
        throw std::runtime_error(fmt::format("every measuring process failed; {} {}",
                                             lost.front().name, lost.front().why));
    }
    if (parts.empty())
        return {};  // interrupted before any benchmark had a sample
    const std::size_t kept = parts.size();
    auto merged = merge_processes(std::move(parts));
    if (!lost.empty())
        note_lost(merged, lost, processes);
    if (const int signal = interrupted(); signal != 0 && merged.interrupted_by.empty()) {
        // The process the signal reached had nothing to save: the table must still say so.
        merged.interrupted_by = signal_name(signal);
        merged.warnings.push_back(fmt::format(
            "interrupted by {}: the samples of the {} measuring process{} that had finished "
            "are kept ({} planned)",
            merged.interrupted_by, kept, kept == 1 ? "" : "es", processes));
    }
    return merged;
}

}  // namespace perfgauge::harness
