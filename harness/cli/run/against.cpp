#include "run/against.hpp"

#include <unistd.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "perfgauge/harness/against_run.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/measuring_request.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/request_json.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "run/options.hpp"
#include "run/processes.hpp"
#include "run/suite.hpp"

namespace perfgauge::cli {

namespace {

using Side = harness::AgainstSide;
// The benchmarks the selection holds, by name, with the selection that makes a child build
// each alone.
using Selections = std::vector<std::pair<std::string, harness::SuiteSelection>>;

// A token both results carry, so perfgauge compare knows they were measured in turn.
std::string in_turn_token() {
    std::random_device random;
    return fmt::format("{}-{:08x}{:08x}", harness::format_local_now("%Y%m%dT%H%M%S"), random(),
                       random());
}

// The benchmarks the selection holds, by name, with the arguments that select each alone;
// their data is dropped at once (each child builds its own benchmark's).
Selections benchmark_selections(const harness::RunRequest& request, workloads::SuiteSpec spec,
                                const harness::SystemInfo& system) {
    Selections benchmarks;
    spec.check_decoders = false;  // every child checks its own data
    const auto suite = workloads::enumerate(spec, system.cpu);
    for (const auto& note : suite.notes)
        say("perfgauge run: {}\n", note);
    for (const auto& b : suite.benchmarks)
        benchmarks.emplace_back(b.name, single_benchmark_selection(request.selection, b.params));
    return benchmarks;
}

// Every benchmark in pairs of processes of both builds, until done, interrupted or a child
// fails; the progress on one self-overwriting stderr line when it is a terminal.
harness::PairsDone measure_pairs(const harness::RunRequest& request, const Selections& benchmarks,
                                 Side& own, Side& other) {
    const auto& against = *request.against;
    harness::PairsPlan plan;
    for (const auto& benchmark : benchmarks)
        plan.benchmarks.push_back(benchmark.first);
    plan.pairs = against.pairs;
    plan.max_pairs = against.max_pairs;
    plan.precision = against.pair_precision_percent / 100;
    plan.repetitions = request.repetitions;
    plan.seed = request.seed ? *request.seed : std::random_device{}();
    plan.request_format = harness::kRunRequestFormat;
    const harness::RunRequest child_request = harness::paired_child_request(request);
    const auto launch = [&](const Side& side, const harness::PairedProcess& process) {
        harness::RunRequest child = child_request;
        child.selection = benchmarks[process.benchmark].second;
        child.repetitions = process.repetitions;
        child.seed = process.seed;
        // Process 1 of 2: the measuring child of index 0 says the suite's notes, which this
        // process said once already.
        child.measuring_child = harness::MeasuringChild{1, 2, process.result_path};
        harness::ChildSetup setup;
        setup.stdout_to_stderr = true;  // an OTHER's chatter must not spoil --format json
        harness::PendingChild pending(measuring_argv(side.launch, child), setup);
        return pending.wait();
    };
    const bool progress = !request.quiet && ::isatty(STDERR_FILENO);
    harness::PairsHooks hooks;
    if (progress) {
        hooks.before_pair = [&](std::size_t k, std::size_t i) {
            say("\r\033[Kperfgauge run --against: benchmark {}/{} pair {} {}", k + 1,
                benchmarks.size(), i + 1,
                i >= against.pairs ? fmt::format("(more, up to {})", against.max_pairs)
                                   : fmt::format("of {}", against.pairs),
                benchmarks[k].first);
        };
    }
    const auto done = harness::measure_pairs(plan, own, other, launch, hooks);
    if (progress)
        say("\r\033[K");
    return done;
}

// The comparison printed: OTHER the baseline, with how the pairs were taken.
harness::Comparison compare_sides(const harness::RunRequest& request,
                                  const harness::RunResult& other_result,
                                  const harness::RunResult& own_result, const Side& other,
                                  const std::string& other_path, const std::string& own_path,
                                  const harness::PairsDone& done, const std::string& stop_warning) {
    const auto& against = *request.against;
    auto comparison = harness::compare_results(other_result, own_result, harness::CompareOptions{},
                                               /*paired_runs=*/true);
    comparison.baseline_label =
        fmt::format("{}{}", other.executable, other_path.empty() ? "" : " (" + other_path + ")");
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

// One build's benchmarks joined into its result, with what both share.
harness::RunResult finish_side(Side& side, const harness::SystemInfo& system,
                               const std::optional<harness::CpuGaps>& gaps,
                               const std::string& token, const std::string& stop_warning) {
    auto joined = harness::join_benchmarks(std::move(side.benchmarks));
    joined.system = system;
    if (gaps)
        harness::record_cpu_gaps(joined, *gaps);
    joined.in_turn_with = token;
    if (harness::interrupt_signal() != 0)
        joined.interrupted_by = harness::signal_name(harness::interrupt_signal());
    if (!stop_warning.empty())
        joined.warnings.push_back(stop_warning);
    return joined;
}

// Saves both results and prints the comparison. Each output is written whatever happened to
// the ones before it (a full disk behind one file loses nothing else); the first error is
// rethrown once every output was tried, after every file saved is named.
void write_against_outputs(const harness::RunRequest& request, Side& own, Side& other,
                           const harness::PairsDone& done, const std::string& stop_warning,
                           const harness::SystemInfo& system) {
    const std::string token = in_turn_token();
    // Once for both sides, here: none of the measuring processes spun for them.
    const std::optional<harness::CpuGaps> gaps = harness::interrupt_signal() != 0
                                                     ? std::nullopt
                                                     : std::optional(harness::measure_cpu_gaps());
    const harness::RunResult other_result = finish_side(other, system, gaps, token, stop_warning);
    const harness::RunResult own_result = finish_side(own, system, gaps, token, stop_warning);
    std::vector<std::string> saved;
    const std::string stem = harness::format_local_now("perfgauge-run-%Y%m%d-%H%M%S");
    const std::string output = request.output.string();
    const auto save = [&](const harness::RunResult& result, const harness::SavedResult& where,
                          const std::string& name) {
        using Where = harness::SavedResult::Where;
        if (where.where == Where::nowhere)
            return std::string();
        saved.push_back(save_result_json(
            harness::render_run(result, harness::OutputFormat::json),
            where.where == Where::path ? std::optional(where.path.string()) : std::nullopt, name,
            output, !result.interrupted_by.empty()));
        return saved.back();
    };
    std::exception_ptr write_error;
    const auto attempt = [&](const auto& write) {
        try {
            write();
        } catch (const std::exception&) {
            if (!write_error)
                write_error = std::current_exception();
        }
    };
    std::string other_path, own_path;
    attempt(
        [&] { other_path = save(other_result, request.against->other_json, stem + "-against"); });
    attempt([&] { own_path = save(own_result, request.json, stem); });
    const auto comparison = compare_sides(request, other_result, own_result, other, other_path,
                                          own_path, done, stop_warning);
    const bool interrupted =
        !own_result.interrupted_by.empty() || !other_result.interrupted_by.empty();
    attempt([&] {
        write_output(harness::render_comparison(comparison, request.format), output, interrupted);
    });
    for (const auto& path : saved)
        say("perfgauge run: result saved to {}\n", path);
    if (write_error)
        std::rethrow_exception(write_error);
}

}  // namespace

int run_against(const harness::RunRequest& request, workloads::SuiteSpec spec,
                const harness::SystemInfo& system) {
    Side other{request.against->other.string(), "the other build", {}, {}};
    Side own{own_executable(), "this build", {}, {}};
    std::tie(own.launch, other.launch) =
        harness::equal_length_paths(own.executable, other.executable);
    // Native counters only (bad names are refused here, before anything runs): what a
    // simulation would count does not change between runs of one build.
    const auto plan = harness::select_events(request.events, harness::Backend::perf, false);
    if (!plan.notice.empty())
        say("perfgauge run: {}\n", plan.notice);
    const auto benchmarks = benchmark_selections(request, std::move(spec), system);
    const harness::PairsDone done = measure_pairs(request, benchmarks, own, other);
    if (own.benchmarks.empty() && !done.failure.empty())
        throw std::runtime_error(done.failure);
    if (own.benchmarks.empty()) {
        say("perfgauge run: interrupted by {} before the first benchmark had all its pairs; "
            "nothing saved\n",
            harness::signal_name(harness::interrupt_signal()));
        return harness::interrupted_exit_status(harness::interrupt_signal());
    }
    const std::string stop_warning =
        own.benchmarks.size() < benchmarks.size()
            ? fmt::format("{} while measuring {}: it and the benchmarks after it are missing",
                          done.failure.empty() ? "interrupted" : "a measuring process failed",
                          done.stopped_at)
            : std::string();
    write_against_outputs(request, own, other, done, stop_warning, system);
    if (!done.failure.empty())
        throw std::runtime_error(done.failure);  // what was measured before it is saved
    return harness::interrupt_signal() != 0
               ? harness::interrupted_exit_status(harness::interrupt_signal())
               : kExitOk;
}

}  // namespace perfgauge::cli
