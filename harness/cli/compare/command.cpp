// perfgauge compare: two result files, or two variants in one, benchmark by benchmark.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/console.hpp"
#include "common/result_input.hpp"
#include "compare/options.hpp"
#include "perfgauge/harness/compare.hpp"
#include "perfgauge/harness/compare_report.hpp"
#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/run_answer.hpp"
#include "perfgauge/harness/run_pairing.hpp"
#include "perfgauge/harness/stat_as_run.hpp"
#include "perfgauge/pmu/suggest.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

namespace {

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

// A name the file does not hold: what it holds, and the nearest.
void refuse_unknown_variants(const harness::RunResult& result, const std::string& file,
                             const std::string& baseline, const std::string& contender) {
    std::vector<std::string> held;
    for (const auto& b : result.benchmarks) {
        for (const auto& [key, value] : b.params) {
            if (key == "variant" && std::find(held.begin(), held.end(), value) == held.end())
                held.push_back(value);
        }
    }
    for (const auto& [option, name] :
         {std::pair{"--baseline", baseline}, std::pair{"--contender", contender}}) {
        if (held.empty() || std::find(held.begin(), held.end(), name) != held.end())
            continue;
        refuse_skipped(result, option, name, file, held);
        const auto close = pmu::closest_matches(name, held, 1);
        throw UsageError(
            fmt::format("{} {}: {} holds no variant of that name{}; its variants: {}", option, name,
                        file, close.empty() ? "" : fmt::format(" (did you mean {}?)", close[0]),
                        fmt::join(held, ", ")));
    }
}

// One file: two of its variants (a run result) or commands (a side-by-side stat result).
harness::Comparison compare_within_file(const harness::CompareRequest& request) {
    const auto& files = request.files;
    const auto& compare = request.options;
    harness::Comparison comparison;
    const auto result = read_any_result_file(files[0]);
    const auto& baseline = request.within->baseline;
    const auto& contender = request.within->contender;
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
    if (!commands)
        refuse_unknown_variants(result, files[0], baseline, contender);
    if (comparison.benchmarks.empty()) {
        throw UsageError(
            fmt::format("{} has no benchmark pairs of variants '{}' and '{}' (variants are the "
                        "'variant' param of perfgauge run results)",
                        files[0], baseline, contender));
    }
    add_skipped_notes(result, files[0], comparison);
    comparison.baseline_label = fmt::format("{} in {}", baseline, files[0]);
    comparison.contender_label = fmt::format("{} in {}", contender, files[0]);
    return comparison;
}

// Two sides, each one result or several runs joined, matched benchmark by benchmark.
harness::Comparison compare_files(const harness::CompareRequest& request,
                                  const std::vector<std::vector<std::string>>& side_paths) {
    const auto& files = request.files;
    harness::Comparison comparison;
    const auto baseline = read_side(files[0], side_paths[0]);
    const auto contender = read_side(files[1], side_paths[1]);
    if (const auto why = harness::mixing_refusal(baseline.merged, contender.merged); !why.empty())
        throw UsageError(fmt::format("cannot compare {} with {}: {}", files[0], files[1], why));
    std::vector<std::string> pairing_notes;
    const bool paired = paired_runs(baseline, contender, pairing_notes);
    comparison =
        harness::compare_results(baseline.merged, contender.merged, request.options, paired);
    comparison.notes.insert(comparison.notes.end(), pairing_notes.begin(), pairing_notes.end());
    if (comparison.benchmarks.empty())
        throw UsageError(fmt::format("{} and {} have no benchmark in common", files[0], files[1]));
    add_skipped_notes(baseline.merged, files[0], comparison);
    add_skipped_notes(contender.merged, files[1], comparison);
    comparison.baseline_label = files[0];
    comparison.contender_label = files[1];
    return comparison;
}

}  // namespace

int compare_command(const std::vector<std::string>& args) {
    const auto parsed = parse_compare_request(args);
    if (!parsed)
        return kExitOk;  // --help
    const harness::CompareRequest& request = *parsed;
    const auto& files = request.files;
    const std::optional<double> fail_on = request.fail_on_regression_percent;
    const harness::OutputFormat format = request.format;
    const std::string& output = request.output;
    const bool variants = request.within.has_value();
    std::vector<std::vector<std::string>> side_paths;  // per file argument: the runs it names
    std::vector<std::string> inputs;
    for (const auto& f : files) {
        side_paths.push_back(side_files(f));
        inputs.insert(inputs.end(), side_paths.back().begin(), side_paths.back().end());
    }
    refuse_input_as_output(output, inputs);
    // An A/A check is a fine thing to run, but by mistake it reads like a real comparison.
    if (!variants && side_paths.size() == 2 && side_paths[0].size() == 1 &&
        side_paths[1].size() == 1 && harness::same_output(side_paths[0][0], side_paths[1][0])) {
        say("perfgauge compare: both sides are {}: its samples compared with themselves (an "
            "A/A check of compare; for this machine's noise, compare two runs of the same code)\n",
            side_paths[0][0]);
    }

    const harness::Comparison comparison =
        variants ? compare_within_file(request) : compare_files(request, side_paths);

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
