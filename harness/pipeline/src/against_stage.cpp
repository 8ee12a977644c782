// perfgauge run --against OTHER's stages: the benchmarks' pairs of processes (each child of
// either build handed its request as JSON), each build's result, and their comparison.
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "perfgauge/harness/against_stage.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/child_request.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/measuring_request.hpp"
#include "perfgauge/harness/own_executable.hpp"
#include "perfgauge/harness/request_json.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/system_info.hpp"

namespace perfgauge::harness {

namespace {

// The benchmarks the selection holds, by name, with the selection that makes a child build
// each alone.
using Selections = std::vector<std::pair<std::string, SuiteSelection>>;

// A token both results carry, so perfgauge compare knows they were measured in turn.
std::string in_turn_token() {
    std::random_device random;
    return fmt::format("{}-{:08x}{:08x}", format_local_now("%Y%m%dT%H%M%S"), random(), random());
}

// The benchmarks the suite holds, each with the selection that makes it alone, listed without
// their data (each child builds and checks its own benchmark's).
Selections benchmark_selections(const workloads::SuiteSpec& spec, const SystemInfo& system,
                                const SingleSelection& single, const Messages& say) {
    Selections benchmarks;
    const auto suite = workloads::enumerate(spec, system.cpu);
    for (const auto& note : suite.notes)
        say("perfgauge run: {}\n", note);
    for (const auto& b : suite.benchmarks)
        benchmarks.emplace_back(b.name, single(b.params));
    return benchmarks;
}

// Every benchmark in pairs of processes of both builds, until done, interrupted or a child
// fails; the progress on one self-overwriting stderr line when it is a terminal.
PairsDone measure_in_pairs(const RunRequest& request, const Selections& benchmarks,
                           AgainstSide& own, AgainstSide& other, const Messages& say) {
    const auto& against = *request.against;
    PairsPlan plan;
    for (const auto& benchmark : benchmarks)
        plan.benchmarks.push_back(benchmark.first);
    plan.pairs = against.pairs;
    plan.max_pairs = against.max_pairs;
    plan.precision = against.pair_precision_percent / 100;
    plan.repetitions = request.repetitions;
    plan.seed = request.seed ? *request.seed : std::random_device{}();
    plan.request_format = kRunRequestFormat;
    const RunRequest base = paired_child_request(request);
    const auto launch = [&](const AgainstSide& side, const PairedProcess& process) {
        // Process 1 of 2: the measuring child of index 0 says the suite's notes, which this
        // process said once already.
        const ChildRequest child =
            measuring_child_request(base, {process.repetitions,
                                           process.seed,
                                           std::nullopt,
                                           benchmarks[process.benchmark].second,
                                           {1, 2, process.result_path}});
        ChildSetup setup;
        setup.stdout_to_stderr = true;  // an OTHER's chatter must not spoil --format json
        PendingChild pending(child_argv(side.launch, child, PERFGAUGE_VERSION), setup);
        return pending.wait();
    };
    const bool progress = !request.quiet && ::isatty(STDERR_FILENO);
    PairsHooks hooks;
    if (progress) {
        hooks.before_pair = [&](std::size_t k, std::size_t i) {
            say("\r\033[Kperfgauge run --against: benchmark {}/{} pair {} {}", k + 1,
                benchmarks.size(), i + 1,
                i >= against.pairs ? fmt::format("(more, up to {})", against.max_pairs)
                                   : fmt::format("of {}", against.pairs),
                benchmarks[k].first);
        };
    }
    const auto done = measure_pairs(plan, own, other, launch, hooks);
    if (progress)
        say("\r\033[K");
    return done;
}

// One build's benchmarks joined into its result, with what both share.
RunResult finish_side(AgainstSide& side, const SystemInfo& system,
                      const std::optional<CpuGaps>& gaps, const std::string& token,
                      const std::string& stop_warning) {
    auto joined = join_benchmarks(std::move(side.benchmarks));
    joined.system = system;
    if (gaps)
        record_cpu_gaps(joined, *gaps);
    joined.in_turn_with = token;
    if (interrupt_signal() != 0)
        joined.interrupted_by = signal_name(interrupt_signal());
    if (!stop_warning.empty())
        joined.warnings.push_back(stop_warning);
    return joined;
}

}  // namespace

AgainstMeasured measure_against(const RunRequest& request, const workloads::SuiteSpec& spec,
                                const SystemInfo& system, const SingleSelection& single,
                                const Messages& say) {
    AgainstMeasured measured{{own_executable(), "this build", {}, {}},
                             {request.against->other.string(), "the other build", {}, {}},
                             {},
                             0};
    auto& [own, other, done, count] = measured;
    std::tie(own.launch, other.launch) = equal_length_paths(own.executable, other.executable);
    // Native counters only (bad names are refused here, before anything runs): what a
    // simulation would count does not change between runs of one build.
    const auto plan = select_events(request.events, Backend::perf, false);
    if (!plan.notice.empty())
        say("perfgauge run: {}\n", plan.notice);
    const auto benchmarks = benchmark_selections(spec, system, single, say);
    count = benchmarks.size();
    done = measure_in_pairs(request, benchmarks, own, other, say);
    return measured;
}

std::string against_stop_warning(const AgainstMeasured& measured) {
    if (measured.own.benchmarks.size() >= measured.benchmarks)
        return "";
    return fmt::format("{} while measuring {}: it and the benchmarks after it are missing",
                       measured.done.failure.empty() ? "interrupted" : "a measuring process failed",
                       measured.done.stopped_at);
}

std::pair<RunResult, RunResult> against_results(AgainstMeasured& measured, const SystemInfo& system,
                                                const std::string& stop_warning) {
    const std::string token = in_turn_token();
    // Once for both sides, here: none of the measuring processes spun for them.
    const std::optional<CpuGaps> gaps =
        interrupt_signal() != 0 ? std::nullopt : std::optional(measure_cpu_gaps());
    RunResult other = finish_side(measured.other, system, gaps, token, stop_warning);
    RunResult own = finish_side(measured.own, system, gaps, token, stop_warning);
    return {std::move(other), std::move(own)};
}

Comparison against_comparison(const RunRequest& request, const RunResult& other_result,
                              const RunResult& own_result, const AgainstMeasured& measured,
                              const std::string& other_path, const std::string& own_path,
                              const std::string& stop_warning, const Messages& say) {
    const auto& against = *request.against;
    const auto& done = measured.done;
    auto comparison = compare_results(other_result, own_result, CompareOptions{},
                                      /*paired_runs=*/true);
    comparison.baseline_label = fmt::format("{}{}", measured.other.executable,
                                            other_path.empty() ? "" : " (" + other_path + ")");
    comparison.contender_label =
        fmt::format("this build{}", own_path.empty() ? "" : " (" + own_path + ")");
    comparison.notes.insert(
        comparison.notes.begin(),
        fmt::format(
            "perfgauge run --against: each benchmark measured in {} pairs of processes, one "
            "of each build, which went first alternating (A B, B A, ...); process i of "
            "one build is paired with process i of the other{}",
            done.fewest == done.most ? std::to_string(done.most)
                                     : fmt::format("{} to {}", done.fewest, done.most),
            against.max_pairs == against.pairs
                ? std::string()
                : fmt::format("; {} pairs, then two more at a time (up to {}) while the 95% "
                              "sign-test interval of a benchmark's median pair ratio of times "
                              "was wider than +-{:g}%",
                              against.pairs, against.max_pairs, against.pair_precision_percent)));
    if (!stop_warning.empty()) {  // said where the comparison is read, not only in the files
        comparison.notes.insert(comparison.notes.begin(), stop_warning);
        say("perfgauge run: warning: {}\n", stop_warning);
    }
    return comparison;
}

}  // namespace perfgauge::harness
