// perfgauge run's command line: the options, their help, and the one place they become a
// harness::RunRequest, validated there with the messages and exit statuses of bad input
// (unknown names with "did you mean", sizes, bounds, output paths, --against's rules).
#include "run/options.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/backend_option.hpp"
#include "common/option_parsing.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/request_json.hpp"
#include "perfgauge/harness/selection.hpp"
#include "perfgauge/harness/simulation.hpp"
#include "perfgauge/pmu/suggest.hpp"
#include "perfgauge/workloads/varint.hpp"

namespace perfgauge::cli {

namespace {

constexpr const char* kRunUsage = R"(usage: perfgauge run [OPTIONS]

Runs the built-in workloads over working-set sizes and cache states with a counter list,
prints the one-screen answer (the default suite) or a table (a selection; Output below), and
saves the complete result as JSON (Google Benchmark's format plus every sample and counter;
read by compare.py, perfgauge compare, export and plot).

With no options: the default suite - varint branchy vs bmi2, avx2 and avx512 (those the CPU
runs; the others named as skipped, with why) plus memcpy, log-uniform data, end-on-end
parsing, hot and cold caches, sizes from one varint to 2x the last-level cache. From 2x the
last-level cache a decoder's iteration decodes the next of 64 consecutive slices of the working
set (it comes from memory either way), so that a sample takes milliseconds, not a whole pass.
Sizes are working sets in bytes of encoded varints (memcpy copies the same bytes); every
result has items/s and bytes/s, so a decoder's throughput reads as a fraction of memcpy's.
Before anything is timed, each variant is checked against the reference decoder on the data.

Samples are taken in interleaved rounds: -r rounds, then more rounds for the benchmarks whose
median is not yet known within --precision % (the distribution-free 95% interval of the
median), each until its samples have taken --max-time seconds; where the answer is printed,
a size whose decoders' verdicts against the baseline are decided (their paired interval clear
of +-1% or within it, looked at after 9, 14, 21, ... pairs at 99.375% each: at most 5% wrong
over all looks) takes no more of those rounds. A sample during which the thread
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

static_assert(harness::kRunRequestSimulatedItems == harness::kDefaultSimulatedItems);

// The options of outputs, the backend and --against.
void add_run_output_options(po::options_description& options) {
    options.add_options()("format", po::value<std::string>()->default_value("table"),
                          "table, csv, json, md or answer (default: answer for the default "
                          "suite, see above)")(
        "output,o", po::value<std::string>(),
        "write the --format output here, not to stdout (- is stdout)")(
        "json", po::value<std::string>(),
        "save the JSON result here (default perfgauge-run-DATE.json; 'none': do not; not the "
        "standard output the table goes to); an interrupted run saves beside an existing file "
        "(NAME.interrupted.json), never over it")("quiet,q", "no progress line")(
        "backend", po::value<std::string>()->default_value("auto"),
        "auto, perf or sim (see above)")(
        "sim-items",
        po::value<std::string>()->default_value(std::to_string(harness::kDefaultSimulatedItems)),
        "items counted per benchmark under simulation: whole iterations up to this many, "
        "the first this-many varints of a longer one (see above)")(
        "sim-jobs", po::value<std::string>()->default_value("0"),
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
}

void add_run_options(po::options_description& options) {
    // Defaults are given as typed (0.05, not boost's 0.050000000000000003). The unsigned options
    // are read as text: boost would read -1 as 18446744073709551615.
    options.add_options()("help,h", "show this help")(
        "workload", po::value<std::string>()->default_value("varint,memcpy"), "varint, memcpy")(
        "variant", po::value<std::string>()->default_value("branchy,bmi2"),
        "varint decoders, or 'all' (perfgauge list; the default suite adds avx2,avx512)")(
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
        "100; 0: exactly -r")(
        "max-time", po::value<double>()->default_value(0.4, "0.4"),
        "seconds of samples per benchmark at most (a variant at a size in a cache state), "
        "for --precision (0 to 3600); the run takes longer (warm-up, cold "
        "data prepared untimed, each process, simulation)")(
        "processes", po::value<int>()->default_value(2),
        "measuring processes the rounds are shared between (1 to 64, see above)")(
        "min-time", po::value<double>()->default_value(0.002, "0.002"),
        "seconds per sample, at least (above 0, at most 60)")(
        "warmup", po::value<double>()->default_value(0.02, "0.02"),
        "seconds of warm-up per benchmark (0 to 60)")(
        "seed", po::value<std::string>(), "interleaving seed (default: random, recorded)")(
        "data-seed", po::value<std::string>()->default_value("1"), "seed of the varint data")(
        "no-interleave", "run benchmarks in order instead of shuffling each round")(
        "pin", po::value<int>(), "pin to this CPU (warns if not permitted)")(
        "fifo", "SCHED_FIFO priority 1 (warns if not permitted)")(
        "mlock", "lock all memory (warns if not permitted)");
    add_run_output_options(options);
}

std::vector<std::string> split_list(const std::string& text, const char* option) {
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty())
            throw UsageError(fmt::format("{}: empty name in '{}'", option, text));
        items.push_back(item);
    }
    if (items.empty())
        throw UsageError(fmt::format("{}: empty list", option));
    return items;
}

[[noreturn]] void unknown_name(const char* option, const std::string& name,
                               const std::vector<std::string>& known) {
    const auto close = pmu::closest_matches(name, known, 3);
    std::string message = fmt::format("{}: unknown name '{}'", option, name);
    if (!close.empty())
        message += fmt::format(" (did you mean {}?)", fmt::join(close, ", "));
    throw UsageError(message + fmt::format("; known: {}", fmt::join(known, ", ")));
}

// The values of --`name`'s list, each once: a repeat (however written) is folded into the
// first, with a note in `notes`.
template <class T, class Parse, class Names>
std::vector<T> parse_list(const std::string& text, const char* option, Parse parse, Names names,
                          std::vector<std::string>& notes) {
    std::vector<harness::Written<T>> written;
    for (const auto& name : split_list(text, option)) {
        const std::optional<T> value = parse(name);
        if (!value)
            unknown_name(option, name, names());
        written.push_back({*value, name});
    }
    std::vector<harness::Repeat> repeats;
    auto out = harness::without_repeats(written, repeats);
    if (!repeats.empty())
        notes.push_back(harness::repeats_note(option, repeats));
    return out;
}

std::vector<std::string> variant_names() {
    std::vector<std::string> names;
    for (const auto& v : workloads::varint_variants())
        names.emplace_back(v.name);
    return names;
}

std::vector<std::string> distribution_names() {
    std::vector<std::string> names;
    for (const auto d : workloads::all_distributions())
        names.emplace_back(workloads::distribution_name(d));
    return names;
}

std::optional<std::string> known_name(const std::string& name,
                                      const std::vector<std::string>& known) {
    if (std::find(known.begin(), known.end(), name) == known.end())
        return std::nullopt;
    return name;
}

// The size options; --sizes folded like the names.
void read_sizes(const po::variables_map& vm, harness::SuiteSelection& selection,
                std::vector<std::string>& notes) {
    const auto size = [](const char* option) {
        return [option](const std::string& text) {
            return std::optional<std::uint64_t>(size_option(text, option));
        };
    };
    if (vm.count("sizes")) {
        selection.sizes = parse_list<std::uint64_t>(
            vm["sizes"].as<std::string>(), "--sizes", size("--sizes"),
            [] { return std::vector<std::string>{}; }, notes);
    }
    if (vm.count("l1d"))
        selection.l1d = size_option(vm["l1d"].as<std::string>(), "--l1d");
    if (vm.count("l2"))
        selection.l2 = size_option(vm["l2"].as<std::string>(), "--l2");
    if (vm.count("l3"))
        selection.l3 = size_option(vm["l3"].as<std::string>(), "--l3");
}

// A non-negative integer given as text; `must` says what it must be when it is negative.
std::uint64_t unsigned_option(const po::variables_map& vm, const char* name, const char* must) {
    const std::string text = vm[name].as<std::string>();
    if (text.starts_with('-'))
        throw UsageError(fmt::format("--{} must be {}, not {}", name, must, text));
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        throw UsageError(
            fmt::format("the argument ('{}') for option '--{}' is invalid", text, name));
    }
    return value;
}

void read_selection(const po::variables_map& vm, harness::RunRequest& request) {
    auto& selection = request.selection;
    auto& notes = request.notes;
    selection.workloads = parse_list<std::string>(
        vm["workload"].as<std::string>(), "--workload",
        [](const std::string& w) {
            return known_name(w, {"varint", "memcpy"});
        },
        [] {
            return std::vector<std::string>{"varint", "memcpy"};
        },
        notes);
    const std::string variants = vm["variant"].as<std::string>();
    selection.variants =
        variants == "all" ? variant_names()
                          : parse_list<std::string>(
                                variants, "--variant",
                                [](const std::string& v) { return known_name(v, variant_names()); },
                                variant_names, notes);
    selection.distributions = parse_list<workloads::Distribution>(
        vm["dist"].as<std::string>(), "--dist", workloads::parse_distribution, distribution_names,
        notes);
    selection.shapes = parse_list<workloads::Shape>(
        vm["shape"].as<std::string>(), "--shape", workloads::parse_shape,
        [] {
            return std::vector<std::string>{"one-shot", "end-on-end"};
        },
        notes);
    selection.caches = parse_list<workloads::CacheState>(
        vm["cache"].as<std::string>(), "--cache", workloads::parse_cache_state,
        [] {
            return std::vector<std::string>{"hot", "cold", "flush"};
        },
        notes);
    read_sizes(vm, selection, notes);
    selection.data_seed = unsigned_option(vm, "data-seed", "a non-negative integer");
    request.default_suite = vm.count("sizes") == 0;
    for (const char* option : {"workload", "variant", "dist", "shape", "cache"}) {
        if (!vm[option].defaulted())
            request.default_suite = false;
    }
    // The default suite's answer has every decoder family the CPU runs, the SIMD ones too;
    // build_suite skips, saying why, those this CPU (or valgrind) cannot run.
    if (request.default_suite)
        selection.variants = {"branchy", "bmi2", "avx2", "avx512"};
}

// The repetitions and every time option, bounded: an infinite or NaN time would never end.
void read_timing(const po::variables_map& vm, harness::RunRequest& request) {
    const int repetitions = vm["repeat"].as<int>();
    if (repetitions < 1 || repetitions > 1000000)
        throw UsageError(fmt::format("-r/--repeat must be 1 to 1000000, not {}", repetitions));
    request.repetitions = static_cast<std::size_t>(repetitions);
    request.min_time_s = bounded_option(vm, "min-time", {0, 60, Open::low, " s"});
    request.warmup_s = bounded_option(vm, "warmup", {0, 60, Open::none, " s"});
    request.max_time_s = bounded_option(vm, "max-time", {0, 3600, Open::none, " s"});
    request.precision_percent = bounded_option(vm, "precision", {0, 100, Open::high, " %"});
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

// --internal-request JSON: this perfgauge is one of a run's measuring processes (--processes,
// --against), or its simulation child; its parent wrote the request (child_request_to_json),
// validated already.
harness::ChildRequest request_from_parent(const std::string& text) {
    try {
        return harness::child_request_from_json(text, PERFGAUGE_VERSION);
    } catch (const harness::RequestError& e) {
        throw UsageError(fmt::format(
            "--internal-request is perfgauge's own (use --processes or --against): {}", e.what()));
    }
}

// run's --format: the result formats, and the answer (the decoders' one-screen summary,
// instead of the table, whose format the request keeps for a run with no answer to give).
void read_format(const po::variables_map& vm, harness::RunRequest& request) {
    using harness::OutputFormat;
    static constexpr OutputFormat kAccepted[] = {OutputFormat::table, OutputFormat::csv,
                                                 OutputFormat::json, OutputFormat::markdown,
                                                 OutputFormat::answer};
    const OutputFormat format = format_option(vm, kAccepted);
    const bool answer = format == OutputFormat::answer;
    request.show_answer = answer || (vm["format"].defaulted() && request.default_suite);
    if (!answer)
        request.format = format;
}

// Where a build's result is saved: the path given (checked), nowhere for 'none', else a new
// file in the current directory.
harness::SavedResult saved_result_option(const po::variables_map& vm, const char* name) {
    if (!vm.count(name))
        return {};
    const std::string path = vm[name].as<std::string>();
    if (path.empty())
        throw UsageError(fmt::format("--{}: empty path (give a file name, or 'none')", name));
    if (path == "none")
        return {harness::SavedResult::Where::nowhere, {}};
    check_output_path(path);
    return {harness::SavedResult::Where::path, path};
}

std::string saved_path(const harness::SavedResult& saved) {
    return saved.where == harness::SavedResult::Where::path ? saved.path.string() : "";
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

// --against's pairs: --pairs, --max-pairs and --pair-precision, bounded and consistent.
void read_pairs(const po::variables_map& vm, const harness::RunRequest& run,
                harness::AgainstRequest& against) {
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
    if (run.repetitions < static_cast<std::size_t>(pairs)) {
        throw UsageError(fmt::format(
            "-r/--repeat ({}) must be at least --pairs ({}): each process of a pair takes a "
            "share of a benchmark's rounds",
            run.repetitions, pairs));
    }
    against.pairs = static_cast<std::size_t>(pairs);
    against.max_pairs = static_cast<std::size_t>(max_pairs);
    against.pair_precision_percent = pair_precision;
}

// --against OTHER: everything checked before the first child starts.
void read_against(const po::variables_map& vm, harness::RunRequest& request) {
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
    harness::AgainstRequest against;
    read_pairs(vm, request, against);
    request.format = format_option(vm);
    request.output = output_option(vm);
    against.other = other_build(vm);
    request.json = saved_result_option(vm, "json");
    against.other_json = saved_result_option(vm, "against-json");
    using Where = harness::SavedResult::Where;
    if (request.json.where == Where::new_file || against.other_json.where == Where::new_file) {
        try {
            harness::check_new_file_directory("");
        } catch (const std::runtime_error& e) {
            throw UsageError(fmt::format(
                "{} (the builds' results are saved there; --json and --against-json PATH save "
                "them elsewhere, 'none' not at all)",
                e.what()));
        }
    }
    if (request.output.empty()) {  // the comparison goes to stdout
        refuse_second_document_on_stdout("--json", saved_path(request.json), "the comparison");
        refuse_second_document_on_stdout("--against-json", saved_path(against.other_json),
                                         "the comparison");
    }
    refuse_outputs_over_inputs({{"-o", request.output.string()},
                                {"--json", saved_path(request.json)},
                                {"--against-json", saved_path(against.other_json)}},
                               {{"the --against build", against.other.string()}});
    request.against = std::move(against);
}

// -o and --json of a run (not --against): every output path checked before minutes of
// measuring. The JSON result is saved beside the chosen output, unless that output is it.
void read_outputs(const po::variables_map& vm, harness::RunRequest& request) {
    request.output = output_option(vm);
    using Where = harness::SavedResult::Where;
    if (vm.count("json")) {
        const std::string json = vm["json"].as<std::string>();
        if (json.empty())
            throw UsageError("--json: empty path (give a file name, or 'none' to not save)");
        request.json = json == "none" ? harness::SavedResult{Where::nowhere, {}}
                                      : harness::SavedResult{Where::path, json};
    } else if (request.format == harness::OutputFormat::json) {
        request.json = {Where::nowhere, {}};  // the output is the JSON result
    }
    if (request.json.where == Where::new_file) {
        try {
            harness::check_new_file_directory("");
        } catch (const std::runtime_error& e) {
            throw UsageError(
                fmt::format("{} (the JSON result is saved there; --json PATH "
                            "saves it elsewhere)",
                            e.what()));
        }
    }
    if (request.json.where == Where::path) {
        check_output_path(request.json.path.string());
        if (request.output.empty())  // the table (or the JSON of --format json) goes to stdout
            refuse_second_document_on_stdout("--json", request.json.path.string(), "the result");
    }
    refuse_outputs_over_inputs(
        {{"-o", request.output.string()}, {"--json", saved_path(request.json)}}, {});
}

// Everything after the selection, for a run that is not --against.
void read_run(const po::variables_map& vm, harness::RunRequest& request) {
    if (!vm["pairs"].defaulted() || !vm["max-pairs"].defaulted() ||
        !vm["pair-precision"].defaulted() || vm.count("against-json"))
        throw UsageError(
            "--pairs, --max-pairs, --pair-precision and --against-json apply only with --against "
            "OTHER_PERFGAUGE");
    read_format(vm, request);
    request.backend = backend_option(vm);
    const int processes = vm["processes"].as<int>();
    if (processes < 1 || processes > 64)
        throw UsageError(fmt::format("--processes must be 1 to 64, not {}", processes));
    request.processes = static_cast<std::size_t>(processes);
    // Every process must get rounds to measure. -r 1 alone met the default --processes 2, which
    // the message named as if it had been given.
    if (processes > 1 && request.repetitions < request.processes) {
        throw UsageError(fmt::format(
            "-r/--repeat ({}) must be at least --processes ({}{}): each process takes a share of "
            "the rounds; give -r {} or more, or --processes {}",
            request.repetitions, processes, vm["processes"].defaulted() ? ", its default" : "",
            processes, request.repetitions));
    }
    const unsigned long long jobs =
        unsigned_option(vm, "sim-jobs", "a non-negative integer (0: one per CPU, to 256)");
    if (jobs > 256)
        throw UsageError(fmt::format("--sim-jobs must be 0 (one per CPU) to 256, not {}", jobs));
    request.sim_jobs = static_cast<unsigned>(jobs);
    read_outputs(vm, request);
}

}  // namespace

std::uint64_t size_option(const std::string& text, const char* option) {
    const auto bytes = workloads::parse_size(text);
    if (!bytes) {
        throw UsageError(fmt::format(
            "{}: '{}' is not a size (a positive number of bytes, optionally with K, M or G)",
            option, text));
    }
    return *bytes;
}

std::optional<RunCall> parse_run_request(const std::vector<std::string>& args) {
    po::options_description options(kRunUsage);
    add_run_options(options);
    po::options_description hidden;
    hidden.add_options()("internal-sim-child", po::value<std::string>(),
                         "a Google Benchmark binary's simulation flag, refused here")(
        "internal-request", po::value<std::string>(),
        "perfgauge's own: a measuring process's or the simulation child's request (JSON)")(
        "internal-measure-child", po::value<std::string>(), "replaced by --internal-request");
    po::options_description all;
    all.add(options).add(hidden);
    const auto vm =
        parse_options(canonical_spellings(args, {{"--repetitions", "--repeat"}}), all, {});
    if (vm.count("help")) {
        std::cout << options << '\n';
        return std::nullopt;
    }
    if (vm.count("internal-measure-child"))
        throw UsageError("--internal-measure-child is perfgauge's own; use --processes");
    // A Google Benchmark binary's flag, never perfgauge's: the simulation child's manifest
    // travels inside its --internal-request.
    if (vm.count("internal-sim-child")) {
        throw UsageError(
            "--internal-sim-child is perfgauge's own (it runs under valgrind); use --backend sim");
    }
    if (vm.count("internal-request"))
        return RunCall(request_from_parent(vm["internal-request"].as<std::string>()));
    harness::RunRequest request;
    // Checked first: a bad number is refused at once, before the machine is probed.
    read_timing(vm, request);
    read_selection(vm, request);
    // Callgrind runs some 50x slower than native: 10^10 items is already hours.
    request.sim_items = unsigned_option(vm, "sim-items", "a positive integer (1 to 10000000000)");
    if (request.sim_items < 1 || request.sim_items > 10000000000)
        throw UsageError(
            fmt::format("--sim-items must be 1 to 10000000000, not {}", request.sim_items));
    if (vm.count("seed"))
        request.seed = unsigned_option(vm, "seed", "a non-negative integer");
    request.interleave = vm.count("no-interleave") == 0;
    request.pin_cpu = pin_option(vm);
    request.fifo = vm.count("fifo") > 0;
    request.mlock = vm.count("mlock") > 0;
    request.quiet = vm.count("quiet") > 0;
    request.events = vm["events"].as<std::string>();
    if (vm.count("against"))
        read_against(vm, request);
    else
        read_run(vm, request);
    return RunCall(std::move(request));
}

}  // namespace perfgauge::cli
