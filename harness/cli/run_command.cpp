// perfgauge run: the built-in workloads (varint decoders, memcpy) over working-set sizes and
// cache states, through the runner, to a table and a JSON result file.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "cli_common.hpp"
#include "console.hpp"
#include "hints.hpp"
#include "perfgauge/harness/cpu_gaps.hpp"
#include "perfgauge/harness/event_plan.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/runner.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/harness/stat.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/pmu/callgrind.hpp"
#include "perfgauge/workloads/suite.hpp"
#include "run_against.hpp"
#include "run_options.hpp"
#include "run_processes.hpp"
#include "run_simulation.hpp"

namespace perfgauge::cli {

namespace {

constexpr const char* kRunUsage = R"(usage: perfgauge run [OPTIONS]

Runs the built-in workloads over working-set sizes and cache states with a counter list,
prints a table, and saves the complete result as JSON (Google Benchmark's format plus every
sample and counter; read by compare.py, perfgauge compare and perfgauge plot).

With no options: the default suite - varint branchy vs bmi2 plus memcpy, log-uniform data,
end-on-end parsing, hot and cold caches, sizes from one varint to 2x the last-level cache.
Sizes are working sets in bytes of encoded varints (memcpy copies the same bytes); every
result has items/s and bytes/s, so a decoder's throughput reads as a fraction of memcpy's.
Before anything is timed, each variant is checked against the reference decoder on the data.

Samples are taken in interleaved rounds: -r rounds, then more rounds for the benchmarks whose
median is not yet known within --precision % (the distribution-free 95% interval of the
median), each until its samples have taken --max-time seconds. A sample during which the thread
lost the CPU (an involuntary switch, unless 50 us per switch + 20x the time away is at most
0.1% of the sample's timed time, 50 ms or more; wall time beyond CPU time; or the hypervisor's
steal time advancing) or the machine ran slow (perfgauge's probe around it) is disturbed: set
aside, shown in the table and JSON, and re-taken. Gaps the thread cannot see (a VM's host
taking the CPU, counted as the thread's own CPU time) are not caught that way: after the samples
the run spins 50 ms on the clock, records what it lost (context.perfgauge.system.cpu_gaps) and
warns from 1% ('interruptions', as perfgauge doctor does). An entry whose median is still not
known within --precision (+-1% with --precision 0), or that has fewer than 6 samples (which
bound no median), is flagged imprecise: give it more --max-time. An entry whose times moved steadily
while they were taken (within a process, the last third's median 5% or more from the first's,
Mann-Kendall p < 0.001) is flagged drifting: its median depends on when and how long it was
measured (a branch predictor learning the data a hot benchmark repeats; memory settling; the
host changing speed). The
rounds are shared between --processes fresh perfgauge processes run one after another (default
2): what lasts a whole process - where code and data landed, the host's state meanwhile - then
shows as a difference between processes, which widens perfgauge compare's interval between two
results. A benchmark that pauses (cache state flush) while a counter snapshot is a system call
(any software event) is timed apart: in batches whose pauses read only the clock, each beside a
batch whose pauses snapshot its counts (the two share its --max-time); the table says so.

Counters come from the backend --backend names. auto (the default): hardware counters where
the PMU opens them; where it cannot (virtual machines, most CI runners), hardware events that
callgrind simulates (instructions, branches, branch-misses, L1-dcache-*, LLC-*; also the sums
L1-dcache-misses and LLC-misses) are counted by re-running the same benchmarks under valgrind
--tool=callgrind, each batch between client requests, with the caches sized from sysfs. perf:
perf_event_open only. sim: simulate every hardware event even where a PMU exists. Time and
software events are always measured natively; every value is labelled hw, sw or sim. A run
that simulates skips the avx512 variant (valgrind cannot decode AVX-512), saying so.
The simulation starts once the native measurement has ended: each benchmark in a process of
its own (--sim-jobs at once, default one per CPU; the counts do not depend on it), --sim-items
items each (a varint iteration longer than that is cut to its first --sim-items varints:
per-item counts have converged by then), callgrind's cache simulation only when a cache
event (or est-cycles) is asked for. est-cycles is an estimate, never a measured cycle count:
L1 hits + 5*LL hits + 35*memory accesses + 15*mispredicted branches (cycles itself is not
simulated). The time breakdown (native, simulation, per benchmark) is in the table's notes
and the JSON.

Comparing two builds: --against OTHER (the path of another perfgauge build, e.g. main's)
measures this build and OTHER in turn, benchmark by benchmark: each benchmark in --pairs pairs
of fresh processes, one of each build, the order alternating (A B, B A, ...), each build's -r
rounds and --max-time shared between its first --pairs processes (a later pair takes the same
shares again). A pair's two processes run within about a second of each other, so what a
shared machine does from one minute to the next falls on both builds alike and cancels in the
pair's ratio. A process now and then runs far slower or faster throughout (its own state on a
shared host): such a pair is an outlier, so the comparison rests on the median of the pairs'
ratios and its sign-test interval. By default (--pairs not given alone) a benchmark whose
interval is still wider than +-(--pair-precision)% after --pairs pairs gets two more at a
time (A B, B A), up to --max-pairs; the width decides, not the direction (stopping on a
narrow interval still lets a few more chance verdicts through than a fixed number would: in
simulation 3.2% instead of 2.0% of identical rows). --pairs alone is a fixed number. Prints the comparison (OTHER the baseline,
thresholds as perfgauge compare's defaults) in --format, and saves each build's result (--json, --against-json): perfgauge compare
OTHER.json THIS.json pairs them again, with any thresholds. Native counters only (simulated
counts do not vary from run to run: simulate each build and compare the files).

Output: with no selection option (the default suite) and no --format, the one-screen answer
(docs/cli/run.md): per cache state and size band, how much faster or slower each decoder is
than branchy, with its interval and verdict, the counters that explain it and each decoder's
share of memcpy's speed; the full table is in the saved result (perfgauge export, or
--format table). --format answer gives the answer for any selection.

Exit status: 0 success, 1 the work could not be done, 2 bad options, names or output paths.

options)";

// The default result file's name without ".json"; write_new_output_file numbers it when a run
// in the same second took it.
std::string default_result_stem() {
    return harness::format_local_now("perfgauge-run-%Y%m%d-%H%M%S");
}

// Progress on one self-overwriting stderr line, only when stderr is a terminal.
void show_progress(std::string_view phase, std::size_t done, std::size_t total) {
    say("\r\033[Kperfgauge run: {} {}/{}", phase, done + 1, total);
}

// --internal-measure-child INDEX:COUNT:PATH: this perfgauge is one of a run's measuring
// processes and writes its result to PATH.
struct MeasuringChild {
    std::size_t index = 0, count = 1;
    std::string result_path;
};

std::optional<MeasuringChild> measuring_child_option(const po::variables_map& vm) {
    if (!vm.count("internal-measure-child"))
        return std::nullopt;
    const std::string text = vm["internal-measure-child"].as<std::string>();
    const auto bad = [] {
        return UsageError("--internal-measure-child is perfgauge's own; use --processes");
    };
    // INDEX:COUNT:PATH, the path taken whole (it may hold colons, and has no length limit).
    const std::size_t first = text.find(':');
    const std::size_t second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos || second + 1 == text.size())
        throw bad();
    MeasuringChild child;
    try {
        child.index = std::stoul(text.substr(0, first));
        child.count = std::stoul(text.substr(first + 1, second - first - 1));
    } catch (const std::logic_error&) {
        throw bad();
    }
    if (child.index >= child.count)
        throw bad();
    child.result_path = text.substr(second + 1);
    return child;
}

// The repetitions and every time option, bounded: an infinite or NaN time would never end.
harness::RunnerOptions timing_options(const po::variables_map& vm) {
    harness::RunnerOptions options;
    const int repetitions = vm["repeat"].as<int>();
    if (repetitions < 1 || repetitions > 1000000)
        throw UsageError(fmt::format("-r/--repeat must be 1 to 1000000, not {}", repetitions));
    options.repetitions = static_cast<std::size_t>(repetitions);
    options.min_sample_time_s = bounded_option(vm, "min-time", {0, 60, Open::low, " s"});
    options.warmup_time_s = bounded_option(vm, "warmup", {0, 60, Open::none, " s"});
    options.max_time_s = bounded_option(vm, "max-time", {0, 3600, Open::none, " s"});
    options.precision = bounded_option(vm, "precision", {0, 100, Open::high, " %"}) / 100;
    return options;
}

// --pin's CPU. One that does not exist is a typo (exit 2), not a permission the machine may lack
// (which the runner warns about).
std::optional<int> pin_option(const po::variables_map& vm) {
    if (!vm.count("pin"))
        return std::nullopt;
    const int cpu = vm["pin"].as<int>();
    const long cpus = ::sysconf(_SC_NPROCESSORS_CONF);
    if (cpu < 0 || (cpus > 0 && cpu >= cpus)) {
        throw UsageError(
            fmt::format("--pin {}: no such CPU (this machine has CPUs 0 to {})", cpu, cpus - 1));
    }
    return cpu;
}

// No option that selects benchmarks or their data was given: the suite the answer is made for.
bool default_suite(const po::variables_map& vm) {
    for (const char* option : {"workload", "variant", "dist", "shape", "cache"}) {
        if (!vm[option].defaulted())
            return false;
    }
    return vm.count("sizes") == 0;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
    po::options_description options(kRunUsage);
    // Defaults are given as typed (0.05, not boost's 0.050000000000000003).
    options.add_options()("help,h", "show this help")(
        "workload", po::value<std::string>()->default_value("varint,memcpy"), "varint, memcpy")(
        "variant", po::value<std::string>()->default_value("branchy,bmi2"),
        "varint decoders, or 'all' (perfgauge list shows them)")(
        "dist", po::value<std::string>()->default_value("log-uniform"),
        "fixed1..fixed5, uniform, log-uniform")(
        "shape", po::value<std::string>()->default_value("end-on-end"), "end-on-end, one-shot")(
        "cache", po::value<std::string>()->default_value("hot,cold"), "hot, cold, flush")(
        "sizes", po::value<std::string>(),
        "working sets, e.g. 4K,256K,64M (default: the sweep, see perfgauge list); their data "
        "must fit in available memory")("l1d", po::value<std::string>(),
                                        "L1 data cache size (default: from sysfs)")(
        "l2", po::value<std::string>(), "L2 size (default: from sysfs)")(
        "l3", po::value<std::string>(), "last-level cache size (default: from sysfs)")(
        "events,e", po::value<std::string>()->default_value(harness::kDefaultRunEvents),
        "counted per item (perfgauge events)")(
        "repeat,r", po::value<int>()->default_value(10),
        "rounds: samples per benchmark, at least (--repetitions: the same)")(
        "precision", po::value<double>()->default_value(1, "1"),
        "more samples until each median is known within this % (95% interval), 0 to below "
        "100; 0: exactly -r")("max-time", po::value<double>()->default_value(0.4, "0.4"),
                              "seconds of samples per benchmark at most, for --precision (0 to "
                              "3600)")(
        "processes", po::value<int>()->default_value(2),
        "measuring processes the rounds are shared between (1 to 64, see above)")(
        "min-time", po::value<double>()->default_value(0.002, "0.002"),
        "seconds per sample, at least (above 0, at most 60)")(
        "warmup", po::value<double>()->default_value(0.02, "0.02"),
        "seconds of warm-up per benchmark (0 to 60)")(
        "seed", po::value<std::uint64_t>(), "interleaving seed (default: random, recorded)")(
        "data-seed", po::value<std::uint64_t>()->default_value(1), "seed of the varint data")(
        "no-interleave", "run benchmarks in order instead of shuffling each round")(
        "pin", po::value<int>(), "pin to this CPU (warns if not permitted)")(
        "fifo", "SCHED_FIFO priority 1 (warns if not permitted)")(
        "mlock", "lock all memory (warns if not permitted)")(
        "format", po::value<std::string>()->default_value("table"),
        "table, csv, json, md or answer (default: answer for the default suite, see above)")(
        "output,o", po::value<std::string>(),
        "write the --format output here, not to stdout (- is stdout)")(
        "json", po::value<std::string>(),
        "save the JSON result here (default perfgauge-run-DATE.json; 'none': do not)")(
        "quiet,q", "no progress line")("backend", po::value<std::string>()->default_value("auto"),
                                       "auto, perf or sim (see above)")(
        "sim-items", po::value<std::uint64_t>()->default_value(harness::kDefaultSimulatedItems),
        "items counted per benchmark under simulation: whole iterations up to this many, "
        "the first this-many varints of a longer one (see above)")(
        "sim-jobs", po::value<unsigned>()->default_value(0),
        "simulation processes at once, after the native measurement (0: one per CPU)")(
        "against", po::value<std::string>(),
        "measure this build and the perfgauge at this path in turn, benchmark by benchmark, and "
        "compare them (see above)")("pairs", po::value<int>()->default_value(6),
                                    "with --against: pairs of processes per benchmark, the "
                                    "fewest (3 to 100; given alone: exactly)")(
        "max-pairs", po::value<int>()->default_value(30),
        "with --against: pairs per benchmark at most, added two at a time while its interval "
        "is wider than --pair-precision (--pairs to 100)")(
        "pair-precision", po::value<double>()->default_value(5),
        "with --against: more pairs until the 95% interval of a benchmark's median pair ratio "
        "is within this % (above 0, below 100)")(
        "against-json", po::value<std::string>(),
        "with --against: save the other build's result here (default "
        "perfgauge-run-DATE-against.json; 'none': do not)");
    po::options_description hidden;
    hidden.add_options()("internal-sim-child", po::value<std::string>(),
                         "perfgauge's own: the simulation child writes its manifest here")(
        "internal-measure-child", po::value<std::string>(),
        "perfgauge's own: INDEX:COUNT:PATH, a measuring process writes its result to PATH");
    po::options_description all;
    all.add(options).add(hidden);
    const auto vm =
        parse_options(canonical_spellings(args, {{"--repetitions", "--repeat"}}), all, {});
    if (vm.count("help")) {
        std::cout << options << '\n';
        return kExitOk;
    }
    // Checked first: a bad number is refused at once, before the machine is probed.
    const auto timing = timing_options(vm);

    // Interrupts stop the measurement between batches, and what was measured is saved. The
    // simulation child (under valgrind) passes them on to its simulation processes, reaps them
    // and ends; its parent saves the native result without the simulated counts.
    std::optional<harness::InterruptHandling> interrupts;
    interrupts.emplace();
    const auto interruption = [] {
        const int signal = harness::interrupt_signal();
        return signal != 0 ? harness::signal_name(signal) : std::string();
    };

    const auto system = harness::collect_system_info();
    std::string last_level_found_by;  // empty: sysfs's size, or --l3
    auto spec =
        suite_spec_from(vm, workloads::cache_sizes_from(system.caches), &last_level_found_by);
    check_suite_memory(spec);
    // Callgrind runs some 50x slower than native: 10^10 items is already hours.
    if (const auto items = vm["sim-items"].as<std::uint64_t>(); items < 1 || items > 10000000000)
        throw UsageError(fmt::format("--sim-items must be 1 to 10000000000, not {}", items));
    if (vm.count("internal-sim-child")) {
        return run_simulation_child(vm["internal-sim-child"].as<std::string>(), spec, vm, system);
    }
    const std::optional<int> pin = pin_option(vm);
    if (vm.count("against"))
        return run_against(vm, std::move(spec), system);
    if (!vm["pairs"].defaulted() || !vm["max-pairs"].defaulted() ||
        !vm["pair-precision"].defaulted() || vm.count("against-json"))
        throw UsageError(
            "--pairs, --max-pairs, --pair-precision and --against-json apply only with --against "
            "OTHER_PERFGAUGE");
    // The answer is the table format's one-screen summary; the table stays in the saved result.
    const bool answer_requested = vm["format"].as<std::string>() == "answer";
    const bool show_answer = answer_requested || (vm["format"].defaulted() && default_suite(vm));
    const harness::OutputFormat format =
        answer_requested ? harness::OutputFormat::table : format_option(vm);
    const harness::Backend backend = backend_option(vm);
    const auto valgrind = simulation_valgrind(backend);
    const auto plan =
        harness::select_events(vm["events"].as<std::string>(), backend, valgrind.has_value());
    spec.simulated = plan.any_simulated();
    harness::RunnerOptions runner_options = timing;
    runner_options.events = harness::CountedEvents(plan);
    if (vm.count("seed"))
        runner_options.seed = vm["seed"].as<std::uint64_t>();
    runner_options.interleave = vm.count("no-interleave") == 0;
    runner_options.pin_cpu = pin;
    runner_options.fifo = vm.count("fifo") > 0;
    runner_options.mlock = vm.count("mlock") > 0;
    if (vm.count("quiet") == 0 && ::isatty(STDERR_FILENO))
        runner_options.progress = show_progress;
    runner_options.interruption = interruption;

    const auto child = measuring_child_option(vm);
    runner_options.probe_cpu_gaps = !child;  // its parent spins once, after every process
    const int processes = vm["processes"].as<int>();
    if (processes < 1 || processes > 64)
        throw UsageError(fmt::format("--processes must be 1 to 64, not {}", processes));
    if (processes > 1 && !child)  // every process must get rounds to measure
        repetitions_per_process(runner_options.repetitions, static_cast<std::size_t>(processes));

    // Every output path is checked before minutes of measuring.
    std::string output, json_path;
    bool default_json = false;  // saved under a new name in the current directory
    if (!child) {
        output = output_option(vm);
        // The JSON result is saved beside the chosen output, unless that output is the JSON.
        if (vm.count("json")) {
            json_path = vm["json"].as<std::string>() == "none" ? "" : vm["json"].as<std::string>();
            if (vm["json"].as<std::string>().empty())
                throw UsageError("--json: empty path (give a file name, or 'none' to not save)");
        }
        default_json = !vm.count("json") && format != harness::OutputFormat::json;
        if (default_json) {
            try {
                harness::check_new_file_directory("");
            } catch (const std::runtime_error& e) {
                throw UsageError(
                    fmt::format("{} (the JSON result is saved there; --json PATH "
                                "saves it elsewhere)",
                                e.what()));
            }
        }
        if (!json_path.empty())
            check_output_path(json_path);
        refuse_outputs_over_inputs({{"-o", output}, {"--json", json_path}}, {});
    }

    harness::RunResult result;
    const auto native_start = std::chrono::steady_clock::now();
    if (processes > 1 && !child) {
        if (!plan.notice.empty())
            say("perfgauge run: {}\n", plan.notice);
        const std::uint64_t seed =
            runner_options.seed ? *runner_options.seed : std::random_device{}();
        result = measure_in_processes(vm, processes, seed);
        result.system = system;                // a process's result file carries only part of it
        if (harness::interrupt_signal() == 0)  // once here, not in every measuring process
            harness::record_cpu_gaps(result, harness::measure_cpu_gaps());
    } else {
        harness::Runner runner(runner_options);  // plan_events above already refused bad names
        // Data generation and the check against the reference decoder happen here.
        const workloads::Suite suite = workloads::build_suite(spec, system.cpu);
        if (!child || child->index == 0) {  // once per run, not once per measuring process
            for (const auto& note : suite.notes)
                say("perfgauge run: {}\n", note);
        }
        if (!plan.notice.empty() && !child)
            say("perfgauge run: {}\n", plan.notice);
        result = runner.run(suite.benchmarks);
        if (runner_options.progress)
            say("\r\033[K");
        result.context = suite.context;
        for (const auto& note : suite.notes)
            result.warnings.push_back(note);
        if (child) {
            // What an interrupted process measured is kept too; its parent merges it.
            if (!result.benchmarks.empty()) {
                harness::write_output_file(
                    child->result_path, harness::render_run(result, harness::OutputFormat::json));
            }
            return result.interrupted_by.empty()
                       ? kExitOk
                       : harness::interrupted_exit_status(harness::interrupt_signal());
        }
    }
    if (result.benchmarks.empty() && harness::interrupt_signal() != 0) {
        say("perfgauge run: interrupted by {} before any benchmark had a sample; nothing "
            "saved\n",
            interruption());
        return harness::interrupted_exit_status(harness::interrupt_signal());
    }
    const std::chrono::duration<double> native_wall =
        std::chrono::steady_clock::now() - native_start;
    std::optional<harness::SimulationResult> sim;
    const auto caches = simulated_caches_for(spec, vm, system);
    if (plan.any_simulated() && harness::interrupt_signal() == 0)
        sim = simulate_unless_interrupted(vm, plan, caches, *valgrind, result);
    if (sim) {
        harness::merge_simulated(result, plan, *sim);
        result.simulation = simulation_context(plan, *sim, caches, vm, native_wall.count());
        say("perfgauge run: {}\n", time_breakdown(*sim, native_wall.count()));
    } else if (backend != harness::Backend::perf && result.interrupted_by.empty()) {
        harness::merge_simulated(result, plan, {});  // places events neither backend counts
    } else if (backend != harness::Backend::perf) {
        // Interrupted before or during the simulation: its events say so.
        harness::merge_simulated(result,
                                 harness::without_simulation(plan, interrupted_simulation()), {});
    }

    // How the last-level cache cold data rotates over was found: the answer says it.
    if (!last_level_found_by.empty()) {
        say("perfgauge run: last-level cache {}: {}\n",
            spec.cache_sizes.l3 > 0 ? fmt::format("{} KiB", spec.cache_sizes.l3 >> 10)
                                    : std::string("unknown"),
            last_level_found_by);
    } else {
        last_level_found_by = vm.count("l3") ? "given by --l3" : "reported by sysfs";
    }
    result.context.emplace_back("l3_found_by", last_level_found_by);
    add_cli_hints(result.events);
    // The JSON result first: when the table cannot be printed (a full disk behind stdout), the
    // measurement is still kept.
    if (!json_path.empty() || default_json) {
        json_path = save_result_json(harness::render_run(result, harness::OutputFormat::json),
                                     default_json ? std::nullopt : std::optional(json_path),
                                     default_result_stem(), output);
    }
    const auto saved = [&] {
        if (!json_path.empty())
            say("perfgauge run: result saved to {}\n", json_path);
    };
    std::string rendered = show_answer ? harness::render_answer(harness::build_answer(result)) : "";
    if (rendered.empty()) {  // no answer asked, or fewer than two decoders to answer about
        rendered = harness::render_run(result, format);
    } else {
        std::string refused;
        for (const auto& e : result.events) {
            if (!e.counted)
                refused += (refused.empty() ? "" : ", ") + e.name;
        }
        if (!refused.empty())
            rendered += fmt::format("Not counted: {} (why: in the table)\n", refused);
        rendered += fmt::format(
            "Every entry, with its flags and warnings:\n  perfgauge export {} --format table\n",
            json_path.empty() ? "RESULT.json" : json_path);
    }
    try {
        write_output(rendered, output);
    } catch (...) {
        saved();  // what was kept, beside the error main reports
        throw;
    }
    saved();
    return result.interrupted_by.empty()
               ? kExitOk
               : harness::interrupted_exit_status(harness::interrupt_signal());
}

}  // namespace perfgauge::cli
