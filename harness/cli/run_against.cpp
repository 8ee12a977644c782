#include "run_against.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "console.hpp"
#include "perfgauge/harness/against_pairs.hpp"
#include "perfgauge/harness/child_process.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/scratch_dir.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "run_processes.hpp"

namespace perfgauge::cli {

namespace {

std::string param(const std::vector<std::pair<std::string, std::string>>& params,
                  const std::string& key) {
    for (const auto& [k, v] : params) {
        if (k == key)
            return v;
    }
    throw std::logic_error("a built-in benchmark without the param " + key);
}

// The other build as given: a path to an executable file (no PATH search: a bare name that
// happens to be in the current directory would otherwise run something else).
std::string other_build(const po::variables_map& vm) {
    const std::string path = vm["against"].as<std::string>();
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    const char* why = nullptr;
    if (path.empty())
        why = "empty path";
    else if (ec || !std::filesystem::exists(status))
        why = "no such file";
    else if (!std::filesystem::is_regular_file(status))
        why = "not a regular file";
    else if (::access(path.c_str(), X_OK) != 0)
        why = "not executable";
    if (why != nullptr) {
        throw UsageError(
            fmt::format("--against {}: {} (give the path of the other build's perfgauge, e.g. "
                        "../main/build/harness/perfgauge)",
                        path, why));
    }
    return path.find('/') == std::string::npos ? "./" + path : path;
}

// Where a build's result is saved: the path given, "" for 'none', nullopt for the default (a new
// file in the current directory).
std::optional<std::string> saved_result_option(const po::variables_map& vm, const char* name) {
    if (!vm.count(name))
        return std::nullopt;
    const std::string path = vm[name].as<std::string>();
    if (path.empty())
        throw UsageError(fmt::format("--{}: empty path (give a file name, or 'none')", name));
    if (path == "none")
        return std::string();
    check_output_path(path);
    return path;
}

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
std::optional<harness::RunResult> measure_one(const Side& side,
                                              const std::vector<std::string>& arguments,
                                              const std::filesystem::path& path,
                                              const std::string& benchmark) {
    std::vector<std::string> argv = {side.launch, "run"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    // Process 1 of 2: the measuring child of index 0 says the suite's notes, which this
    // process said once already.
    argv.push_back("--internal-measure-child=1:2:" + path.string());
    harness::ChildSetup setup;
    setup.stdout_to_stderr = true;  // an OTHER's chatter must not spoil --format json on stdout
    harness::PendingChild child(argv, setup);
    const harness::ExitStatus status = child.wait();
    if (harness::interrupt_signal() != 0)
        return std::nullopt;
    if (status.exec_failed || status.signaled || status.code != 0) {
        throw std::runtime_error(fmt::format("{} ({}) {} while measuring {}", side.label,
                                             side.executable, status.describe(), benchmark));
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

}  // namespace

std::vector<std::string> single_benchmark_arguments(
    const po::variables_map& vm, const std::vector<std::pair<std::string, std::string>>& params) {
    const std::string workload = param(params, "workload");
    std::vector<std::string> out = {"--workload=" + workload};
    if (workload == "varint") {  // memcpy has neither (its params say "memcpy" and "-")
        out.push_back("--variant=" + param(params, "variant"));
        out.push_back("--shape=" + param(params, "shape"));
    }
    out.push_back("--dist=" + param(params, "dist"));
    out.push_back("--cache=" + param(params, "cache"));
    out.push_back("--sizes=" + param(params, "size_bytes"));
    for (const char* name : {"l1d", "l2", "l3"}) {
        if (vm.count(name))
            out.push_back(fmt::format("--{}={}", name, vm[name].as<std::string>()));
    }
    out.push_back(fmt::format("--data-seed={}", vm["data-seed"].as<std::uint64_t>()));
    return out;
}

int run_against(const po::variables_map& vm, workloads::SuiteSpec spec,
                const harness::SystemInfo& system) {
    // Everything is checked before the first child starts.
    for (const char* option : {"processes", "sim-jobs", "sim-items"}) {
        if (!vm[option].defaulted()) {
            throw UsageError(fmt::format(
                "--{} does not apply with --against: each benchmark is measured in --pairs "
                "pairs of processes, natively",
                option));
        }
    }
    if (backend_option(vm) == harness::Backend::sim) {
        throw UsageError(
            "--backend sim with --against: simulated counts do not vary from run to run, so "
            "there is nothing to measure in turn; simulate each build's run and compare the two "
            "files (perfgauge compare)");
    }
    const int pairs = vm["pairs"].as<int>();
    if (pairs < 3 || pairs > 100)
        throw UsageError(fmt::format("--pairs must be 3 to 100, not {}", pairs));
    // By default pairs are added while a benchmark's interval is wide; a --pairs given alone is
    // a fixed number, as it always was; with --max-pairs too, the fewest.
    const int max_pairs = !vm["max-pairs"].defaulted() ? vm["max-pairs"].as<int>()
                          : !vm["pairs"].defaulted()   ? pairs
                                                       : std::max(vm["max-pairs"].as<int>(), pairs);
    if (max_pairs < pairs || max_pairs > 100) {
        throw UsageError(
            fmt::format("--max-pairs must be --pairs ({}) to 100, not {}", pairs, max_pairs));
    }
    const double pair_precision = vm["pair-precision"].as<double>();
    if (!(pair_precision > 0 && pair_precision < 100)) {
        throw UsageError(fmt::format("--pair-precision must be above 0 and below 100 (%), not {}",
                                     pair_precision));
    }
    const int repeat = vm["repeat"].as<int>();
    if (repeat < pairs) {
        throw UsageError(fmt::format(
            "-r/--repeat ({}) must be at least --pairs ({}): each process of a pair takes a "
            "share of a benchmark's rounds",
            repeat, pairs));
    }
    const harness::OutputFormat format = format_option(vm);
    const std::string output = output_option(vm);
    Side other{other_build(vm), "the other build", {}, {}};
    Side own{own_executable(), "this build", {}, {}};
    std::tie(own.launch, other.launch) = equal_length_paths(own.executable, other.executable);
    const auto own_json = saved_result_option(vm, "json");
    const auto other_json = saved_result_option(vm, "against-json");
    if (!own_json || !other_json) {
        try {
            harness::check_new_file_directory("");
        } catch (const std::runtime_error& e) {
            throw UsageError(fmt::format(
                "{} (the builds' results are saved there; --json and --against-json PATH save "
                "them elsewhere, 'none' not at all)",
                e.what()));
        }
    }
    refuse_outputs_over_inputs({{"-o", output},
                                {"--json", own_json.value_or("")},
                                {"--against-json", other_json.value_or("")}},
                               {{"the --against build", other.executable}});
    // Native counters only (bad names are refused here, before anything runs): what a
    // simulation would count does not change between runs of one build.
    const auto plan =
        harness::select_events(vm["events"].as<std::string>(), harness::Backend::perf, false);
    if (!plan.notice.empty())
        say("perfgauge run: {}\n", plan.notice);

    // The benchmarks the selection holds, by name and params; their data is dropped at once
    // (each child builds its own benchmark's).
    std::vector<std::pair<std::string, std::vector<std::string>>> benchmarks;
    {
        spec.check_decoders = false;  // every child checks its own data
        const auto suite = workloads::build_suite(spec, system.cpu);
        for (const auto& note : suite.notes)
            say("perfgauge run: {}\n", note);
        for (const auto& b : suite.benchmarks)
            benchmarks.emplace_back(b.name, single_benchmark_arguments(vm, b.params));
    }
    const auto shares =
        repetitions_per_process(static_cast<std::size_t>(repeat), static_cast<std::size_t>(pairs));
    const std::uint64_t seed =
        vm.count("seed") ? vm["seed"].as<std::uint64_t>() : std::random_device{}();
    std::vector<std::string> timing = timing_arguments(vm);
    timing.push_back("--backend=perf");
    if (!vm.count("quiet"))
        timing.push_back("--quiet");  // this process shows the progress
    // The per-benchmark budget is the run's, shared between a side's processes like the rounds.
    timing.push_back(fmt::format("--max-time={}", vm["max-time"].as<double>() / pairs));
    const bool progress = vm.count("quiet") == 0 && ::isatty(STDERR_FILENO);

    const harness::ScratchDir dir("perfgauge-against", "the two builds' results");
    // Where measuring stopped early (an interrupt, or a child that failed: `failure`); the
    // benchmarks measured before it are kept and saved either way.
    std::string stopped_at, failure;
    std::size_t fewest_pairs_used = 0, most_pairs_used = 0;
    for (std::size_t k = 0; k < benchmarks.size() && stopped_at.empty(); ++k) {
        const auto& [name, selection] = benchmarks[k];
        std::vector<harness::RunResult> own_parts, other_parts;
        for (std::size_t i = 0; i < static_cast<std::size_t>(max_pairs); ++i) {
            // Added pairs come two at a time, A B then B A, so that neither build goes first
            // more often (pair i's order alternates with i).
            const bool added = i >= static_cast<std::size_t>(pairs);
            if (harness::pairs_done(i, static_cast<std::size_t>(pairs), other_parts, own_parts,
                                    pair_precision / 100))
                break;
            if (progress) {
                say("\r\033[Kperfgauge run --against: benchmark {}/{} pair {} {}", k + 1,
                    benchmarks.size(), i + 1,
                    added ? fmt::format("(more, up to {})", max_pairs)
                          : fmt::format("of {}", pairs),
                    name);
            }
            std::vector<std::string> arguments = selection;
            arguments.insert(arguments.end(), timing.begin(), timing.end());
            arguments.push_back(fmt::format("--repeat={}", shares[i % shares.size()]));
            arguments.push_back(fmt::format("--seed={}", seed + i));
            // A B, B A, A B, ...: a machine that speeds up or slows down steadily favours
            // neither build; with an odd number of pairs, the benchmarks take turns at the
            // extra first place.
            const bool other_first = (i + k) % 2 == 0;
            for (Side* side : other_first ? std::array{&other, &own} : std::array{&own, &other}) {
                // Names of one length, as the executables' (equal_length_paths).
                const auto path =
                    dir.path() / fmt::format("{}-{}-{}.json", k, i, side == &own ? "own" : "oth");
                std::optional<harness::RunResult> result;
                try {
                    result = measure_one(*side, arguments, path, name);
                } catch (const std::runtime_error& e) {
                    failure = e.what();
                }
                if (!result) {
                    stopped_at = name;
                    break;
                }
                (side == &own ? own_parts : other_parts).push_back(std::move(*result));
            }
            if (!stopped_at.empty())
                break;
        }
        if (stopped_at.empty()) {
            fewest_pairs_used =
                k == 0 ? own_parts.size() : std::min(fewest_pairs_used, own_parts.size());
            most_pairs_used = std::max(most_pairs_used, own_parts.size());
            own.benchmarks.push_back(harness::merge_processes(std::move(own_parts)));
            other.benchmarks.push_back(harness::merge_processes(std::move(other_parts)));
        }
    }
    if (progress)
        say("\r\033[K");
    const bool interrupted = harness::interrupt_signal() != 0;
    if (own.benchmarks.empty() && !failure.empty())
        throw std::runtime_error(failure);
    if (own.benchmarks.empty()) {
        say("perfgauge run: interrupted by {} before the first benchmark had all its pairs; "
            "nothing saved\n",
            harness::signal_name(harness::interrupt_signal()));
        return harness::interrupted_exit_status(harness::interrupt_signal());
    }

    const std::string stop_warning =
        own.benchmarks.size() < benchmarks.size()
            ? fmt::format("{} while measuring {}: it and the benchmarks after it are missing",
                          failure.empty() ? "interrupted" : "a measuring process failed",
                          stopped_at)
            : std::string();
    const std::string token = in_turn_token();
    // Once for both sides, here: none of the measuring processes spun for them.
    const std::optional<harness::CpuGaps> gaps =
        interrupted ? std::nullopt : std::optional(harness::measure_cpu_gaps());
    const auto finish = [&](Side& side) {
        auto joined = harness::join_benchmarks(std::move(side.benchmarks));
        joined.system = system;
        if (gaps)
            harness::record_cpu_gaps(joined, *gaps);
        joined.in_turn_with = token;
        if (interrupted)
            joined.interrupted_by = harness::signal_name(harness::interrupt_signal());
        if (!stop_warning.empty())
            joined.warnings.push_back(stop_warning);
        return joined;
    };
    const harness::RunResult other_result = finish(other);
    const harness::RunResult own_result = finish(own);

    // Both results first: when the comparison cannot be printed, the measurements are kept. Every
    // file saved is named, whatever fails after it.
    std::vector<std::string> saved;
    const auto said = [&] {
        for (const auto& path : saved)
            say("perfgauge run: result saved to {}\n", path);
    };
    const std::string stem = harness::format_local_now("perfgauge-run-%Y%m%d-%H%M%S");
    const auto save = [&](const harness::RunResult& result, const std::optional<std::string>& path,
                          const std::string& name) {
        if (path && path->empty())
            return std::string();
        saved.push_back(save_result_json(harness::render_run(result, harness::OutputFormat::json),
                                         path, name, output));
        return saved.back();
    };
    // Each output is written whatever happened to the ones before it (a full disk behind one
    // file loses nothing else); the first error is reported once every output was tried.
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
    attempt([&] { other_path = save(other_result, other_json, stem + "-against"); });
    attempt([&] { own_path = save(own_result, own_json, stem); });

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
            fewest_pairs_used == most_pairs_used
                ? std::to_string(most_pairs_used)
                : fmt::format("{} to {}", fewest_pairs_used, most_pairs_used),
            max_pairs == pairs
                ? std::string()
                : fmt::format("; {} pairs, then two more at a time (up to {}) while the 95% "
                              "sign-test interval of a benchmark's median pair ratio of times "
                              "was wider than +-{:g}%",
                              pairs, max_pairs, pair_precision)));
    if (!stop_warning.empty()) {  // said where the comparison is read, not only in the files
        comparison.notes.insert(comparison.notes.begin(), stop_warning);
        say("perfgauge run: warning: {}\n", stop_warning);
    }
    attempt([&] { write_output(harness::render_comparison(comparison, format), output); });
    said();
    if (write_error)
        std::rethrow_exception(write_error);
    if (!failure.empty())
        throw std::runtime_error(failure);  // what was measured before it is saved
    return interrupted ? harness::interrupted_exit_status(harness::interrupt_signal()) : kExitOk;
}

}  // namespace perfgauge::cli
