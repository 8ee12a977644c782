#include "run_against.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <exception>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "cli_common.hpp"
#include "console.hpp"
#include "perfgauge/harness/against_pairs.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/request_json.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "run_options.hpp"
#include "run_processes.hpp"
#include "run_suite.hpp"

namespace perfgauge::cli {

namespace {

// One build's side of the measurement: for every benchmark, one result per pair.
struct Side {
    std::string executable;  // as given, in messages
    const char* label;       // in messages
    std::vector<harness::RunResult> benchmarks;
    std::string launch;  // what is executed: `executable`, of one length (equal_length_paths)
};

// The two builds' executables as absolute paths of one length, so that both sides' processes
// get argv of equal length: the shorter is padded with slashes before its file name
// ("/a/b///perfgauge"), which names the same file on any filesystem and keeps its directory for
// a wrapper script's `dirname "$0"`. With result files named -own and -other, memcpy hot 4K ran
// 6% apart in the two sides' processes of one binary (every pair, three runs); with names of one
// length it did not. Likely the heap's layout following argv's lengths; not pinned down.
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

// One child of `side` measures the benchmark alone into `path`. Nullopt when interrupted
// meanwhile (what it measured is dropped: a pair needs both sides).
std::optional<harness::RunResult> measure_one(const Side& side, harness::RunRequest request,
                                              const std::filesystem::path& path,
                                              const std::string& benchmark) {
    // Process 1 of 2: the measuring child of index 0 says the suite's notes, which this
    // process said once already.
    request.measuring_child = harness::MeasuringChild{1, 2, path};
    const auto argv = measuring_argv(side.launch, request);
    harness::ChildSetup setup;
    setup.stdout_to_stderr = true;  // an OTHER's chatter must not spoil --format json on stdout
    harness::PendingChild child(argv, setup);
    const harness::ExitStatus status = child.wait();
    if (harness::interrupt_signal() != 0)
        return std::nullopt;
    if (status.exec_failed || status.signaled || status.code != 0) {
        // Exit 2 is how a perfgauge refuses its request: one older than the request format (or
        // of another format) is the likely cause, and it says so above this line.
        const bool refused = !status.exec_failed && !status.signaled && status.code == 2;
        throw std::runtime_error(fmt::format(
            "{} ({}) {} while measuring {}{}", side.label, side.executable, status.describe(),
            benchmark,
            refused ? fmt::format("; it refused its request: --against needs a perfgauge that "
                                  "reads request format {} (builds from before it do not)",
                                  harness::kRunRequestFormat)
                    : ""));
    }
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        throw std::runtime_error(
            fmt::format("{} ({}) ended without writing a result for {}: is it a perfgauge build?",
                        side.label, side.executable, benchmark));
    }
    harness::RunResult result;
    try {
        result = harness::parse_run_json(harness::read_text_file(path), path.string());
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

// A token both results carry, so perfgauge compare knows they were measured in turn.
std::string in_turn_token() {
    std::random_device random;
    return fmt::format("{}-{:08x}{:08x}", harness::format_local_now("%Y%m%dT%H%M%S"), random(),
                       random());
}

// The benchmarks the selection holds, by name, with the arguments that select each alone;
// their data is dropped at once (each child builds its own benchmark's).
using Selections = std::vector<std::pair<std::string, harness::SuiteSelection>>;
Selections benchmark_selections(const harness::RunRequest& request, workloads::SuiteSpec spec,
                                const harness::SystemInfo& system) {
    Selections benchmarks;
    spec.check_decoders = false;  // every child checks its own data
    const auto suite = workloads::build_suite(spec, system.cpu);
    for (const auto& note : suite.notes)
        say("perfgauge run: {}\n", note);
    for (const auto& b : suite.benchmarks)
        benchmarks.emplace_back(b.name, single_benchmark_selection(request.selection, b.params));
    return benchmarks;
}

// What every child of both builds is asked besides its benchmark, rounds and seed.
harness::RunRequest child_request(const harness::RunRequest& request) {
    harness::RunRequest child = measuring_request(request);
    child.backend = harness::Backend::perf;
    child.quiet = true;  // this process shows the progress
    // The per-benchmark budget is the run's, shared between a side's processes like the rounds.
    child.max_time_s = request.max_time_s / static_cast<double>(request.against->pairs);
    return child;
}

// How the pairs went: where measuring stopped early (an interrupt, or a child that failed:
// `failure`), and the fewest and most pairs a benchmark took.
struct PairsDone {
    std::string stopped_at, failure;
    std::size_t fewest = 0, most = 0;
};

// The measuring loop's fixed inputs.
struct PairedRun {
    const harness::RunRequest& request;
    const Selections& benchmarks;
    harness::RunRequest child;
    std::vector<std::size_t> shares;
    std::uint64_t seed;
    bool progress;
    std::filesystem::path dir;
};

// Benchmark k's pairs, added while its interval is wide; false when measuring stopped.
bool measure_benchmark(const PairedRun& run, std::size_t k, Side& own, Side& other,
                       PairsDone& done) {
    const auto& against = *run.request.against;
    const auto& [name, selection] = run.benchmarks[k];
    std::vector<harness::RunResult> own_parts, other_parts;
    for (std::size_t i = 0; i < against.max_pairs; ++i) {
        // Added pairs come two at a time, A B then B A, so that neither build goes first
        // more often (pair i's order alternates with i).
        const bool added = i >= against.pairs;
        if (harness::pairs_done(i, against.pairs, other_parts, own_parts,
                                against.pair_precision_percent / 100))
            break;
        if (run.progress) {
            say("\r\033[Kperfgauge run --against: benchmark {}/{} pair {} {}", k + 1,
                run.benchmarks.size(), i + 1,
                added ? fmt::format("(more, up to {})", against.max_pairs)
                      : fmt::format("of {}", against.pairs),
                name);
        }
        harness::RunRequest child = run.child;
        child.selection = selection;
        child.repetitions = run.shares[i % run.shares.size()];
        child.seed = run.seed + i;
        // A B, B A, A B, ...: a machine that speeds up or slows down steadily favours
        // neither build; with an odd number of pairs, the benchmarks take turns at the
        // extra first place.
        const bool other_first = (i + k) % 2 == 0;
        for (Side* side : other_first ? std::array{&other, &own} : std::array{&own, &other}) {
            // Names of one length, as the executables' (equal_length_paths).
            const auto path =
                run.dir / fmt::format("{}-{}-{}.json", k, i, side == &own ? "own" : "oth");
            std::optional<harness::RunResult> result;
            try {
                result = measure_one(*side, child, path, name);
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
    own.benchmarks.push_back(harness::merge_processes(std::move(own_parts)));
    other.benchmarks.push_back(harness::merge_processes(std::move(other_parts)));
    return true;
}

// Every benchmark in pairs of processes, until done, interrupted or a child fails.
PairsDone measure_pairs(const harness::RunRequest& request, const Selections& benchmarks, Side& own,
                        Side& other) {
    const auto& against = *request.against;
    const harness::ScratchDir dir("perfgauge-against", "the two builds' results");
    const PairedRun run{request,
                        benchmarks,
                        child_request(request),
                        repetitions_per_process(request.repetitions, against.pairs),
                        request.seed ? *request.seed : std::random_device{}(),
                        !request.quiet && ::isatty(STDERR_FILENO),
                        dir.path()};
    PairsDone done;
    for (std::size_t k = 0; k < benchmarks.size(); ++k) {
        if (!measure_benchmark(run, k, own, other, done))
            break;
    }
    if (run.progress)
        say("\r\033[K");
    return done;
}

// The comparison printed: OTHER the baseline, with how the pairs were taken.
harness::Comparison compare_sides(const harness::RunRequest& request,
                                  const harness::RunResult& other_result,
                                  const harness::RunResult& own_result, const Side& other,
                                  const std::string& other_path, const std::string& own_path,
                                  const PairsDone& done, const std::string& stop_warning) {
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
                           const PairsDone& done, const std::string& stop_warning,
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
            output));
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
    attempt([&] { write_output(harness::render_comparison(comparison, request.format), output); });
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
    std::tie(own.launch, other.launch) = equal_length_paths(own.executable, other.executable);
    // Native counters only (bad names are refused here, before anything runs): what a
    // simulation would count does not change between runs of one build.
    const auto plan = harness::select_events(request.events, harness::Backend::perf, false);
    if (!plan.notice.empty())
        say("perfgauge run: {}\n", plan.notice);
    const auto benchmarks = benchmark_selections(request, std::move(spec), system);
    const PairsDone done = measure_pairs(request, benchmarks, own, other);
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
