#include "compare/options.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"

namespace perfgauge::cli {

namespace {

// --floor PCT: the machine's between-run floor, as selftest reports it; 0 (or absent): unknown.
// Above 50% no change would be found: such a number is a mistake (a share typed as a percent is
// the likelier one the other way, 0.0074 for 0.74%, which the message's example shows).
double floor_option(const po::variables_map& vm) {
    if (!vm.count("floor"))
        return 0;
    const double pct = vm["floor"].as<double>();
    if (!std::isfinite(pct) || pct < 0 || pct > 50) {
        throw UsageError(fmt::format(
            "--floor must be a percentage in [0, 50], not {}: give the median between-run "
            "movement of identical work that `perfgauge selftest` reports on this machine "
            "(\"noise floor: ... 0.74% between runs\" is --floor 0.74)",
            pct));
    }
    return pct / 100;
}

// Each threshold bounded and finite: an infinite --min-change would make every verdict
// "equivalent", a NaN one none at all.
harness::CompareOptions compare_options(const po::variables_map& vm) {
    harness::CompareOptions compare;
    compare.alpha = bounded_option(vm, "alpha", {0, 1, Open::both, ""});
    compare.min_samples = count_option(vm, "min-samples", 2, 1000000);
    compare.min_change =
        bounded_option(vm, "min-change", {0, std::nullopt, Open::none, " %"}) / 100;
    compare.min_work_delta =
        bounded_option(vm, "min-work-delta", {0, std::nullopt, Open::none, ""});
    compare.min_miss_delta =
        bounded_option(vm, "min-miss-delta", {0, std::nullopt, Open::none, ""});
    compare.min_rare_delta =
        bounded_option(vm, "min-rare-delta", {0, std::nullopt, Open::none, ""});
    compare.between_run_floor = floor_option(vm);
    return compare;
}

// A negative threshold would call an improvement a regression (exit 3).
std::optional<double> fail_on_regression(const po::variables_map& vm) {
    if (!vm.count("fail-on-regression"))
        return std::nullopt;
    return bounded_option(vm, "fail-on-regression", {0, std::nullopt, Open::none, " %"});
}

// The options --help lists, with their defaults.
po::options_description compare_options_description() {
    po::options_description options(
        "usage: perfgauge compare BASELINE.json CONTENDER.json [OPTIONS]\n"
        "       perfgauge compare A1.json,A2.json B1.json,B2.json [OPTIONS]\n"
        "       perfgauge compare RESULT.json --baseline VARIANT --contender VARIANT [OPTIONS]\n"
        "       perfgauge compare SIDE.json --baseline 'CMD A' --contender 'CMD B' [OPTIONS]\n\n"
        "Two files: results of perfgauge run, of perfgauge stat --format json (one sample per\n"
        "run of the command: elapsed time and each counter per run; two commands are compared\n"
        "whatever their names), or Google Benchmark JSON (--benchmark_out_format=json; one\n"
        "sample per repetition, real time per iteration with its CPU time beside it, user\n"
        "counters as reported, aggregates ignored, NaN/Infinity accepted). Both files must be\n"
        "of the same kind (exit 2 says why otherwise).\n"
        "Compares time per item and every counter per item: both medians, the ratio\n"
        "(contender / baseline medians; paired: the pairs' own, not the ratio of the medians,\n"
        "^ where the two disagree), the change, its confidence interval (CI, relative to the\n"
        "baseline, on the ratio scale: never below -100%) and a verdict that says only what\n"
        "the interval supports: faster/slower (fewer/more for counters) when it lies beyond\n"
        "the threshold, equivalent (±threshold)\n"
        "when within, inconclusive otherwise, or too few samples. One file: benchmarks matched\n"
        "on everything but the variant (or, in a side-by-side stat result, two of its commands,\n"
        "named as its table lists them), paired by interleaved round (per-round ratios of\n"
        "times, differences of counts; sign-test CI). Two files: matched by name; one run\n"
        "cannot show its run-to-run noise, so the CI spans the Hodges-Lehmann interval\n"
        "and batch means over blocks of consecutive samples of each measuring process, widened\n"
        "by the spread between blocks and by any drift of perfgauge's machine probes (equivalence\n"
        "within a small --min-change then needs very steady runs); with --floor PCT (the\n"
        "between-run floor perfgauge selftest measures, or a block spread larger than it) each\n"
        "time's Hodges-Lehmann interval widens by that noise in quadrature, instead of by batch\n"
        "means, the blocks' spread and the probes. Runs joined with commas are\n"
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
        "min-samples", po::value<long long>()->default_value(5),
        "fewer samples on a side: too few samples (2 to 1000000; runs paired run by run "
        "need 3 pairs of runs instead)")("min-change", po::value<double>()->default_value(1, "1"),
                                         "smallest change in % worth a verdict (0 or more)")(
        "min-work-delta", po::value<double>()->default_value(1, "1"),
        "smallest difference per item in instructions, cycles, branches worth a verdict")(
        "min-miss-delta", po::value<double>()->default_value(0.01, "0.01"),
        "smallest difference per item in misses and cache accesses worth a verdict")(
        "min-rare-delta", po::value<double>()->default_value(0.001, "0.001"),
        "smallest difference per item in context switches, migrations, faults, tracepoints")(
        "floor", po::value<double>(),
        "PCT: this machine's between-run floor, the median movement of identical work's "
        "medians between separate runs as perfgauge selftest reports it (two files): each "
        "time's interval widens by that measured noise instead of batch means, the blocks' "
        "spread and the machine probes' drift")(
        "fail-on-regression", po::value<double>(),
        "exit 3 when a benchmark is slower (its whole CI beyond the threshold) by more than PCT % "
        "(0 or more)");
    return options;
}

}  // namespace

std::optional<harness::CompareRequest> parse_compare_request(const std::vector<std::string>& args) {
    const po::options_description options = compare_options_description();
    // The positional result files: plumbing, kept out of --help.
    po::options_description hidden;
    hidden.add_options()("files", po::value<std::vector<std::string>>());
    const auto parsed = parse_command_line(args, options, hidden, {"files", -1});
    if (!parsed)
        return std::nullopt;
    const po::variables_map& vm = *parsed;
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
    if (variants && vm.count("floor")) {
        throw UsageError(
            "--floor is the noise between separate runs; --baseline and --contender compare two "
            "variants of one result, measured in the same runs and paired by round: leave "
            "--floor out");
    }
    if (variants && vm["baseline"].as<std::string>() == vm["contender"].as<std::string>()) {
        throw UsageError(fmt::format(
            "--baseline and --contender are both '{}': a variant compared with itself says "
            "nothing; name two different variants",
            vm["baseline"].as<std::string>()));
    }
    harness::CompareRequest request;
    request.files = files;
    if (variants)
        request.within = harness::CompareWithin{vm["baseline"].as<std::string>(),
                                                vm["contender"].as<std::string>()};
    request.options = compare_options(vm);
    request.fail_on_regression_percent = fail_on_regression(vm);
    request.format = format_option(vm);
    request.output = output_option(vm);
    return request;
}

}  // namespace perfgauge::cli
