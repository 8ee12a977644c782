// perfgauge compare: two result files, or two variants in one, benchmark by benchmark.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_common.hpp"
#include "console.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_pairing.hpp"
#include "perfgauge/harness/stat_as_run.hpp"
#include "perfgauge/pmu/suggest.hpp"
#include "result_input.hpp"

namespace perfgauge::cli {

namespace {

// Each threshold bounded and finite: an infinite --min-change would make every verdict
// "equivalent", a NaN one none at all.
harness::CompareOptions compare_options(const po::variables_map& vm) {
    harness::CompareOptions compare;
    compare.alpha = bounded_option(vm, "alpha", {0, 1, Open::both, ""});
    compare.min_samples = vm["min-samples"].as<std::size_t>();
    if (compare.min_samples < 2 || compare.min_samples > 1000000) {
        throw UsageError(
            fmt::format("--min-samples must be 2 to 1000000, not {}", compare.min_samples));
    }
    compare.min_change =
        bounded_option(vm, "min-change", {0, std::nullopt, Open::none, " %"}) / 100;
    compare.min_work_delta =
        bounded_option(vm, "min-work-delta", {0, std::nullopt, Open::none, ""});
    compare.min_miss_delta =
        bounded_option(vm, "min-miss-delta", {0, std::nullopt, Open::none, ""});
    compare.min_rare_delta =
        bounded_option(vm, "min-rare-delta", {0, std::nullopt, Open::none, ""});
    return compare;
}

// A negative threshold would call an improvement a regression (exit 3).
std::optional<double> fail_on_regression(const po::variables_map& vm) {
    if (!vm.count("fail-on-regression"))
        return std::nullopt;
    return bounded_option(vm, "fail-on-regression", {0, std::nullopt, Open::none, " %"});
}

// The files one side names: a path, or several runs joined with commas (A1.json,A2.json). A
// path that exists as it is is never split.
std::vector<std::string> side_files(const std::string& side) {
    std::error_code ec;
    if (side.find(',') == std::string::npos || std::filesystem::exists(side, ec))
        return {side};
    std::vector<std::string> paths;
    std::size_t start = 0;
    while (start <= side.size()) {
        const std::size_t end = std::min(side.find(',', start), side.size());
        paths.push_back(side.substr(start, end - start));
        if (paths.back().empty())
            throw UsageError(fmt::format("'{}': an empty file name between commas", side));
        start = end + 1;
    }
    return paths;
}

// One side of a comparison across results (`paths`: the runs side_files found in `side`).
// Several runs of the same benchmarks are merged as measuring processes of one result, earliest
// first (process i is the side's run i by date, so that runs taken in turn with the other
// side's can be paired): the samples of each run form blocks of their own, so the differences
// between the runs - which one run cannot show - widen the interval.
struct Side {
    harness::RunResult merged;
    std::vector<std::string> dates;  ///< of each run joined, earliest first
};

Side read_side(const std::string& side, const std::vector<std::string>& paths) {
    std::vector<harness::RunResult> runs;
    for (const auto& path : paths) {
        runs.push_back(read_any_result_file(path));
        if (const auto why = harness::mixing_refusal(runs.front(), runs.back()); !why.empty())
            throw UsageError(fmt::format("cannot join {} with {}: {}", paths.front(), path, why));
    }
    std::vector<std::string> dates;
    for (const auto& r : runs)
        dates.push_back(r.date);
    std::vector<harness::RunResult> sorted;
    std::vector<std::string> sorted_paths;
    Side out;
    for (const std::size_t i : harness::by_date(dates)) {
        out.dates.push_back(dates[i]);
        sorted.push_back(std::move(runs[i]));
        sorted_paths.push_back(paths[i]);
    }
    if (sorted.size() == 1) {
        out.merged = std::move(sorted.front());
        return out;
    }
    try {
        out.merged = harness::merge_processes(std::move(sorted), sorted_paths);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format(
            "cannot join the runs '{}': each must hold the same benchmarks and events, in the "
            "same order ({})",
            side, e.what()));
    }
    return out;
}

// Whether the joined runs of the two sides are compared pair by pair, and what to say when
// they were joined but cannot be.
bool paired_runs(const Side& baseline, const Side& contender, std::vector<std::string>& notes) {
    const std::string& token = baseline.merged.in_turn_with;
    const bool both_from_against = baseline.dates.size() == 1 && contender.dates.size() == 1 &&
                                   !token.empty() && !contender.merged.in_turn_with.empty();
    if (both_from_against && token == contender.merged.in_turn_with) {
        // perfgauge run --against wrote both: process i of each benchmark ran beside the other
        // side's process i.
        const std::size_t pairs = baseline.merged.processes;
        if (pairs != contender.merged.processes || pairs < harness::kMinPairedRuns) {
            notes.push_back(fmt::format(
                "the two results were measured in turn (perfgauge run --against), but with {} and "
                "{} pairs of processes, not {} or more each: compared as independent results",
                pairs, contender.merged.processes, harness::kMinPairedRuns));
            return false;
        }
        notes.push_back(fmt::format(
            "the two results were measured in turn, benchmark by benchmark (perfgauge run "
            "--against): each benchmark's process i of one side is paired with process i of the "
            "other ({} pairs)",
            pairs));
        return true;
    }
    if (both_from_against) {
        notes.push_back(
            "the two results come from different perfgauge run --against runs (their "
            "in_turn_with differ), so their processes were not taken in turn with each other: "
            "compared as independent results; compare the two files one --against run saved");
        return false;
    }
    if (baseline.dates.size() < 2 && contender.dates.size() < 2)
        return false;  // nothing joined: nothing to pair
    const auto pairing = harness::pair_runs(baseline.dates, contender.dates);
    if (!pairing.in_turn) {
        notes.push_back(fmt::format(
            "the joined runs are not paired ({}): run the two sides in turn, {} or more runs "
            "each (A B A B ...), to have run i of one compared with run i of the other",
            pairing.why_not, harness::kMinPairedRuns));
        return false;
    }
    if (pairing.pairs < harness::kMinPairedRuns) {
        notes.push_back(fmt::format(
            "the runs were taken in turn, but {} pairs are too few to pair them (Student's t "
            "with {} degree of freedom): join {} or more runs a side (6 or more, at the default "
            "--alpha, for the median's sign-test interval)",
            pairing.pairs, pairing.pairs - 1, harness::kMinPairedRuns));
        return false;
    }
    if (pairing.baseline_first == 0 || pairing.baseline_first == pairing.pairs) {
        notes.push_back(fmt::format(
            "in every pair the {} ran first: a machine that speeds up or slows down steadily "
            "would read as a change; alternate the order (A B B A ...)",
            pairing.baseline_first == 0 ? "contender" : "baseline"));
    }
    return true;
}

// " (for 'X', did you mean 'Y'?)" for the first of `names` that no benchmark of `result` is
// named, when one is near; "" otherwise.
std::string did_you_mean(const std::vector<std::string>& names, const harness::RunResult& result) {
    std::vector<std::string> held;
    for (const auto& b : result.benchmarks)
        held.push_back(b.name);
    for (const auto& name : names) {
        if (std::find(held.begin(), held.end(), name) != held.end())
            continue;
        const auto close = pmu::closest_matches(name, held, 1);
        if (!close.empty())
            return fmt::format(" (for '{}', did you mean '{}'?)", name, close[0]);
    }
    return "";
}

// A variant asked for that the run skipped: said as skipped, with why, not as unknown.
void refuse_skipped(const harness::RunResult& result, const std::string& option,
                    const std::string& name, const std::string& file,
                    const std::vector<std::string>& held) {
    for (const auto& skipped : harness::skipped_variants(result)) {
        if (skipped.name == name)
            throw UsageError(fmt::format("{} {}: {} skipped it ({}); its variants: {}", option,
                                         name, file, skipped.why, fmt::join(held, ", ")));
    }
}

// A variant the run skipped is named where it would have been compared, with why.
void add_skipped_notes(const harness::RunResult& result, const std::string& file,
                       harness::Comparison& comparison) {
    for (const auto& skipped : harness::skipped_variants(result))
        comparison.notes.push_back(
            fmt::format("{}: a variant skipped in that run: {}", file, skipped.why));
}

}  // namespace

int compare_command(const std::vector<std::string>& args) {
    po::options_description options(
        "usage: perfgauge compare BASELINE.json CONTENDER.json [OPTIONS]\n"
        "       perfgauge compare A1.json,A2.json B1.json,B2.json [OPTIONS]\n"
        "       perfgauge compare RESULT.json --baseline VARIANT --contender VARIANT [OPTIONS]\n"
        "       perfgauge compare SIDE.json --baseline 'CMD A' --contender 'CMD B' [OPTIONS]\n\n"
        "Two files: results of perfgauge run, of perfgauge stat --format json (one sample per\n"
        "run of the command: elapsed time and each counter per run; two commands are compared\n"
        "whatever their names), or Google Benchmark JSON (--benchmark_out_format=json; one\n"
        "sample per repetition, time per iteration, its user counters as reported, aggregates\n"
        "ignored, NaN/Infinity accepted). Both files must be of the same kind (exit 2 says why\n"
        "otherwise).\n"
        "Compares time per item and every counter per item: both medians, the ratio\n"
        "(contender / baseline; paired: the pairs' own), the change, its confidence interval\n"
        "(CI) and a verdict that says only what the interval supports: faster/slower\n"
        "(fewer/more for counters) when it lies beyond the threshold, equivalent (±threshold)\n"
        "when within, inconclusive otherwise, or too few samples. One file: benchmarks matched\n"
        "on everything but the variant (or, in a side-by-side stat result, two of its commands,\n"
        "named as its table lists them), paired by interleaved round (per-round ratios of\n"
        "times, differences of counts; sign-test CI). Two files: matched by name; one run\n"
        "cannot show its run-to-run noise, so the CI spans the Hodges-Lehmann interval\n"
        "and batch means over blocks of consecutive samples of each measuring process, widened\n"
        "by the spread between blocks and by any drift of perfgauge's machine probes (equivalence\n"
        "within a small --min-change then needs very steady runs). Runs joined with commas are\n"
        "one side. Taken in turn - 3 or more a side, each pair's two runs before the next pair's\n"
        "by their dates (A B, B A, A B ...) - run i of one side is paired with run i of the\n"
        "other: the CI is the sign-test interval of the median of the pairs' ratios of\n"
        "medians (differences for counts; Student's t over their mean with fewer than 6\n"
        "pairs at the default --alpha, 8 at 0.01), so what changes from one run to the next "
        "cancels within a pair (no probe\n"
        "widening; a metric with fewer than 3 pairs of runs with samples is compared as\n"
        "blocks, widened, and named); this is how to compare two builds on a shared machine.\n"
        "Otherwise each run's samples form blocks of their own and what differs from one run\n"
        "to the next widens the interval. Threshold: the largest of --min-change, the\n"
        "counter's floor per item (--min-work-delta for instructions/cycles/branches,\n"
        "--min-miss-delta for misses and accesses, --min-rare-delta for switches/faults) and,\n"
        "for a side too short for two blocks, its IQR (then never \"equivalent\").\n"
        "Simulated (constant) counts are compared exactly, with no p-value. P (Mann-Whitney U)\n"
        "is shown for reference.\n\n"
        "Exit status: 0; 3 when --fail-on-regression finds a regression; 2 bad input.\n\noptions");
    // Defaults are given as typed (0.05, not boost's 0.050000000000000003).
    options.add_options()("help,h", "show this help")("baseline", po::value<std::string>(),
                                                      "variant taken as the baseline (one file)")(
        "contender", po::value<std::string>(), "another variant compared with it (one file)")(
        "format", po::value<std::string>()->default_value("table"), "table, csv, json or md")(
        "output,o", po::value<std::string>(),
        "write here instead of stdout (atomically; - is stdout)")(
        "alpha", po::value<double>()->default_value(0.05, "0.05"),
        "1 - confidence of the interval, in (0, 1)")(
        "min-samples", po::value<std::size_t>()->default_value(5),
        "fewer samples on a side: too few samples (2 to 1000000; runs paired run by run "
        "need 3 pairs of runs instead)")("min-change", po::value<double>()->default_value(1, "1"),
                                         "smallest change in % worth a verdict (0 or more)")(
        "min-work-delta", po::value<double>()->default_value(1, "1"),
        "smallest difference per item in instructions, cycles, branches worth a verdict")(
        "min-miss-delta", po::value<double>()->default_value(0.01, "0.01"),
        "smallest difference per item in misses and cache accesses worth a verdict")(
        "min-rare-delta", po::value<double>()->default_value(0.001, "0.001"),
        "smallest difference per item in context switches, migrations, faults, tracepoints")(
        "fail-on-regression", po::value<double>(),
        "exit 3 when a benchmark is slower (its whole CI beyond the threshold) by more than PCT % "
        "(0 or more)");
    // The positional result files: plumbing, kept out of --help.
    po::options_description hidden;
    hidden.add_options()("files", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description positional;
    positional.add("files", -1);
    const auto vm = parse_options(args, all, positional);
    if (vm.count("help")) {
        std::cout << options << '\n';
        return kExitOk;
    }
    const auto files =
        vm.count("files") ? vm["files"].as<std::vector<std::string>>() : std::vector<std::string>{};
    const bool variants = vm.count("baseline") || vm.count("contender");
    if (variants && (files.size() != 1 || !vm.count("baseline") || !vm.count("contender"))) {
        throw UsageError(
            "comparing variants takes one result file and both --baseline and --contender");
    }
    if (!variants && files.size() != 2) {
        throw UsageError(fmt::format(
            "give two result files (baseline, contender), or one file with --baseline and "
            "--contender (got {} file{})",
            files.size(), files.size() == 1 ? "" : "s"));
    }
    if (variants && vm["baseline"].as<std::string>() == vm["contender"].as<std::string>()) {
        throw UsageError(fmt::format(
            "--baseline and --contender are both '{}': a variant compared with itself says "
            "nothing; name two different variants",
            vm["baseline"].as<std::string>()));
    }
    const auto compare = compare_options(vm);
    const std::optional<double> fail_on = fail_on_regression(vm);
    const harness::OutputFormat format = format_option(vm);
    const std::string output = output_option(vm);
    std::vector<std::vector<std::string>> side_paths;  // per file argument: the runs it names
    std::vector<std::string> inputs;
    for (const auto& f : files) {
        side_paths.push_back(side_files(f));
        inputs.insert(inputs.end(), side_paths.back().begin(), side_paths.back().end());
    }
    refuse_input_as_output(output, inputs);

    harness::Comparison comparison;
    if (variants) {
        const auto result = read_any_result_file(files[0]);
        const auto baseline = vm["baseline"].as<std::string>();
        const auto contender = vm["contender"].as<std::string>();
        if (result.kind == harness::ResultKind::google_benchmark) {
            throw UsageError(fmt::format(
                "{} is a Google Benchmark result: its benchmarks have no variants perfgauge can "
                "pair; compare two files instead (perfgauge compare A.json B.json)",
                files[0]));
        }
        // Run results pair the workloads' variants; side-by-side stat results their commands.
        const bool commands = result.kind == harness::ResultKind::stat;
        comparison = harness::compare_within(result, commands ? harness::kCommandParam : "variant",
                                             baseline, contender, compare);
        for (auto& b : comparison.benchmarks) {
            if (commands)
                b.name = b.contender;  // a command line has no variant to strip
        }
        if (commands) {
            // A failing or interrupted command bears on every row, as with two stat files.
            comparison.notes.insert(comparison.notes.begin(), result.warnings.begin(),
                                    result.warnings.end());
        }
        if (comparison.benchmarks.empty() && commands) {
            std::vector<std::string> names;
            for (const auto& b : result.benchmarks)
                names.push_back("'" + b.name + "'");
            throw UsageError(fmt::format(
                "{} has no commands '{}' and '{}' to pair{}; its commands: {}", files[0], baseline,
                contender, did_you_mean({baseline, contender}, result), fmt::join(names, ", ")));
        }
        if (!commands) {
            // A name the file does not hold: what it holds, and the nearest.
            std::vector<std::string> held;
            for (const auto& b : result.benchmarks) {
                for (const auto& [key, value] : b.params) {
                    if (key == "variant" &&
                        std::find(held.begin(), held.end(), value) == held.end())
                        held.push_back(value);
                }
            }
            for (const auto& [option, name] :
                 {std::pair{"--baseline", baseline}, std::pair{"--contender", contender}}) {
                if (held.empty() || std::find(held.begin(), held.end(), name) != held.end())
                    continue;
                refuse_skipped(result, option, name, files[0], held);
                const auto close = pmu::closest_matches(name, held, 1);
                throw UsageError(fmt::format(
                    "{} {}: {} holds no variant of that name{}; its variants: {}", option, name,
                    files[0], close.empty() ? "" : fmt::format(" (did you mean {}?)", close[0]),
                    fmt::join(held, ", ")));
            }
        }
        if (comparison.benchmarks.empty()) {
            throw UsageError(
                fmt::format("{} has no benchmark pairs of variants '{}' and '{}' (variants are the "
                            "'variant' param of perfgauge run results)",
                            files[0], baseline, contender));
        }
        add_skipped_notes(result, files[0], comparison);
        comparison.baseline_label = fmt::format("{} in {}", baseline, files[0]);
        comparison.contender_label = fmt::format("{} in {}", contender, files[0]);
    } else {
        const auto baseline = read_side(files[0], side_paths[0]);
        const auto contender = read_side(files[1], side_paths[1]);
        if (const auto why = harness::mixing_refusal(baseline.merged, contender.merged);
            !why.empty())
            throw UsageError(fmt::format("cannot compare {} with {}: {}", files[0], files[1], why));
        std::vector<std::string> pairing_notes;
        const bool paired = paired_runs(baseline, contender, pairing_notes);
        comparison = harness::compare_results(baseline.merged, contender.merged, compare, paired);
        comparison.notes.insert(comparison.notes.end(), pairing_notes.begin(), pairing_notes.end());
        if (comparison.benchmarks.empty())
            throw UsageError(
                fmt::format("{} and {} have no benchmark in common", files[0], files[1]));
        add_skipped_notes(baseline.merged, files[0], comparison);
        add_skipped_notes(contender.merged, files[1], comparison);
        comparison.baseline_label = files[0];
        comparison.contender_label = files[1];
    }

    const std::string rendered = harness::render_comparison(comparison, format);
    write_output(rendered, output);
    if (fail_on) {
        const auto found = harness::regressions(comparison, *fail_on);
        for (const auto& line : found)
            say("perfgauge compare: regression: {}\n", line);
        if (!found.empty())
            return kExitRegression;
    }
    return kExitOk;
}

}  // namespace perfgauge::cli
