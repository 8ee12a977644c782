// perfgauge export: re-renders a stored result, optionally only some benchmarks.
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "perfgauge/harness/bmf.hpp"
#include "perfgauge/harness/json_text.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "result_input.hpp"
#include "user_pattern.hpp"

namespace perfgauge::cli {

int export_command(const std::vector<std::string>& args) {
    po::options_description options(
        "usage: perfgauge export RESULT.json --format csv|md|json|table|bmf [-o FILE] "
        "[--filter REGEX]\n\n"
        "Re-renders a result written by perfgauge run. --filter keeps the benchmarks whose\n"
        "name matches REGEX (RE2 syntax, searched anywhere in the name). JSON keeps\n"
        "every sample and the context as stored; Markdown pastes into a GitHub comment.\n"
        "bmf writes Bencher Metric Format for continuous-benchmarking dashboards, from a run\n"
        "result, a stat result (--format json; the benchmark is the command) or Google\n"
        "Benchmark JSON: per benchmark, measure \"latency\" (median ns per item, per run for\n"
        "stat, per iteration for Google Benchmark) and one measure per counter (simulated ones\n"
        "named \"EVENT [sim]\"), each {value, lower_value, upper_value}: the median and its\n"
        "distribution-free 95% interval.\n\n"
        "options");
    options.add_options()("help,h", "show this help")(
        "format", po::value<std::string>()->default_value("table"), "csv, md, json, table or bmf")(
        "output,o", po::value<std::string>(),
        "write here instead of stdout (atomically; - is stdout)")(
        "filter", po::value<std::string>(), "only benchmarks whose name matches");
    // The positional RESULT.json: plumbing, kept out of --help.
    po::options_description hidden;
    hidden.add_options()("file", po::value<std::string>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description positional;
    positional.add("file", 1);
    const auto vm = parse_options(args, all, positional);
    if (vm.count("help")) {
        std::cout << options << '\n';
        return kExitOk;
    }
    if (!vm.count("file"))
        throw UsageError("which result file? perfgauge export RESULT.json --format ...");
    // bmf is an export of its own, not one of the formats every result renders in.
    const bool bmf = vm["format"].as<std::string>() == "bmf";
    const harness::OutputFormat format =
        bmf ? harness::OutputFormat::json : format_option(vm, "table, csv, json, md or bmf");
    std::optional<UserPattern> filter;
    if (vm.count("filter"))
        filter.emplace("--filter", vm["filter"].as<std::string>());
    const std::string output = output_option(vm);
    const std::string path = vm["file"].as<std::string>();
    refuse_input_as_output(output, {path});
    const auto keep = [&](const std::string& name) { return !filter || filter->found_in(name); };
    auto result = read_any_result_file(path);  // validates the file in every format
    if (bmf) {
        std::erase_if(result.benchmarks,
                      [&](const harness::BenchmarkResult& b) { return !keep(b.name); });
        write_output(harness::render_bmf(result), output);
        return kExitOk;
    }
    if (result.kind != harness::ResultKind::run) {
        throw UsageError(fmt::format(
            "{} is {}: --format {} re-renders perfgauge run results; --format bmf takes this one",
            path, harness::kind_description(result.kind), vm["format"].as<std::string>()));
    }
    std::string rendered;
    if (format == harness::OutputFormat::json) {
        // The stored JSON minus the filtered-out entries: nothing is recomputed or lost.
        auto j = nlohmann::json::parse(read_input_file(path));
        j.emplace(harness::kSchemaVersionKey, harness::kUnversionedSchemaVersion);  // as read
        auto& entries = j["benchmarks"];
        entries.erase(
            std::remove_if(entries.begin(), entries.end(),
                           [&](const nlohmann::json& e) { return !keep(e.value("run_name", "")); }),
            entries.end());
        rendered = harness::json_text(j);
    } else {
        std::erase_if(result.benchmarks,
                      [&](const harness::BenchmarkResult& b) { return !keep(b.name); });
        rendered = harness::render_run(result, format);
    }
    write_output(rendered, output);
    return kExitOk;
}

}  // namespace perfgauge::cli
