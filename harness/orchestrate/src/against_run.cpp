#include "perfgauge/harness/against_run.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/harness/against_pairs.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/process_fanout.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/scratch_dir.hpp"

namespace perfgauge::harness {

namespace {

// The measuring loop's fixed inputs.
struct PairedRun {
    const PairsPlan& plan;
    std::vector<std::size_t> shares;
    std::filesystem::path dir;
    const PairedLaunch& launch;
    const PairsHooks& hooks;
    std::function<int()> interrupted;
};

// One child of `side` measures the benchmark alone into `path`. Nullopt when interrupted
// meanwhile (what it measured is dropped: a pair needs both sides).
std::optional<RunResult> measure_one(const PairedRun& run, const AgainstSide& side,
                                     const PairedProcess& process) {
    const std::string& benchmark = run.plan.benchmarks[process.benchmark];
    const std::filesystem::path& path = process.result_path;
    const ExitStatus status = run.launch(side, process);
    if (run.interrupted() != 0)
        return std::nullopt;
    if (!status.exited_with(0)) {
        // Exit 2 is how a perfgauge refuses its request: one older than the request format (or
        // of another format) is the likely cause, and it says so above this line.
        const bool refused = status.exited_with(2);
        throw std::runtime_error(fmt::format(
            "{} ({}) {} while measuring {}{}", side.label, side.executable, status.describe(),
            benchmark,
            refused ? fmt::format("; it refused its request: --against needs a perfgauge that "
                                  "reads request format {} (builds from before it do not)",
                                  run.plan.request_format)
                    : ""));
    }
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        throw std::runtime_error(
            fmt::format("{} ({}) ended without writing a result for {}: is it a perfgauge build?",
                        side.label, side.executable, benchmark));
    }
    RunResult result;
    try {
        result = parse_run_json(read_text_file(path), path.string());
    } catch (const std::exception& e) {
        throw std::runtime_error(fmt::format("{} ({}) wrote an invalid result for {}: {}",
                                             side.label, side.executable, benchmark, e.what()));
    }
    if (result.benchmarks.size() != 1 || result.benchmarks.front().name != benchmark) {
        throw std::runtime_error(fmt::format(
            "{} ({}) measured {} where this build measures {}: the two builds' suites differ, "
            "so their benchmarks cannot be paired",
            side.label, side.executable,
            result.benchmarks.empty() ? std::string("nothing")
                                      : "'" + result.benchmarks.front().name + "'",
            benchmark));
    }
    return result;
}

// Benchmark k's pairs, added while its interval is wide; false when measuring stopped.
bool measure_benchmark(const PairedRun& run, std::size_t k, AgainstSide& own, AgainstSide& other,
                       PairsDone& done) {
    const PairsPlan& plan = run.plan;
    const std::string& name = plan.benchmarks[k];
    std::vector<RunResult> own_parts, other_parts;
    for (std::size_t i = 0; i < plan.max_pairs; ++i) {
        // Added pairs come two at a time, A B then B A, so that neither build goes first
        // more often (pair i's order alternates with i).
        if (pairs_done(i, plan.pairs, other_parts, own_parts, plan.precision))
            break;
        if (run.hooks.before_pair)
            run.hooks.before_pair(k, i);
        PairedProcess process;
        process.benchmark = k;
        process.pair = i;
        process.repetitions = run.shares[i % run.shares.size()];
        process.seed = plan.seed + i;
        // A B, B A, A B, ...: a machine that speeds up or slows down steadily favours
        // neither build; with an odd number of pairs, the benchmarks take turns at the
        // extra first place.
        const bool other_first = (i + k) % 2 == 0;
        for (AgainstSide* side :
             other_first ? std::array{&other, &own} : std::array{&own, &other}) {
            // Names of one length, as the executables' (equal_length_paths).
            process.result_path =
                run.dir / fmt::format("{}-{}-{}.json", k, i, side == &own ? "own" : "oth");
            std::optional<RunResult> result;
            try {
                result = measure_one(run, *side, process);
            } catch (const std::runtime_error& e) {
                done.failure = e.what();
            }
            if (!result) {
                done.stopped_at = name;
                return false;
            }
            (side == &own ? own_parts : other_parts).push_back(std::move(*result));
        }
    }
    done.fewest = k == 0 ? own_parts.size() : std::min(done.fewest, own_parts.size());
    done.most = std::max(done.most, own_parts.size());
    own.benchmarks.push_back(merge_processes(std::move(own_parts)));
    other.benchmarks.push_back(merge_processes(std::move(other_parts)));
    return true;
}

}  // namespace

std::pair<std::string, std::string> equal_length_paths(const std::string& a, const std::string& b) {
    const auto absolute = [](const std::string& path) {
        std::error_code ec;
        auto out = std::filesystem::absolute(path, ec);
        if (ec)
            throw std::runtime_error(
                fmt::format("cannot make {} absolute: {}", path, ec.message()));
        return out.string();
    };
    std::string x = absolute(a), y = absolute(b);
    std::string& shorter = x.size() < y.size() ? x : y;
    const std::size_t longer = std::max(x.size(), y.size());
    shorter.insert(shorter.rfind('/'), longer - shorter.size(), '/');
    return {x, y};
}

PairsDone measure_pairs(const PairsPlan& plan, AgainstSide& own, AgainstSide& other,
                        const PairedLaunch& launch, const PairsHooks& hooks) {
    const ScratchDir dir("perfgauge-against", "the two builds' results");
    const PairedRun run{
        plan,
        repetitions_per_process(plan.repetitions, plan.pairs),
        dir.path(),
        launch,
        hooks,
        hooks.interrupt_signal ? hooks.interrupt_signal : std::function<int()>(interrupt_signal)};
    PairsDone done;
    for (std::size_t k = 0; k < plan.benchmarks.size(); ++k) {
        if (!measure_benchmark(run, k, own, other, done))
            break;
    }
    return done;
}

}  // namespace perfgauge::harness
