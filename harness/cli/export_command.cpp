// perfgauge export: re-renders a stored result, optionally only some benchmarks.
#include <iostream>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "result_input.hpp"

namespace perfgauge::cli {

int export_command(const std::vector<std::string>& args) {
    po::options_description options(
        "usage: perfgauge export RESULT.json --format csv|md|json|table [-o FILE] "
        "[--filter REGEX]\n\n"
        "Re-renders a result written by perfgauge run. --filter keeps the benchmarks whose\n"
        "name matches REGEX (ECMAScript syntax, searched anywhere in the name). JSON keeps\n"
        "every sample and the context as stored; Markdown pastes into a GitHub comment.\n\n"
        "options");
    options.add_options()("help,h", "show this help")(
        "format", po::value<std::string>()->default_value("table"), "csv, md, json or table")(
        "output,o", po::value<std::string>(), "write here instead of stdout (atomically)")(
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
    const harness::OutputFormat format = format_option(vm);
    std::regex filter;
    const bool filtered = vm.count("filter") > 0;
    if (filtered) {
        try {
            filter = std::regex(vm["filter"].as<std::string>());
        } catch (const std::regex_error& e) {
            throw UsageError(fmt::format("--filter '{}': not a regular expression ({})",
                                         vm["filter"].as<std::string>(), e.what()));
        }
    }
    const std::string output = output_option(vm);
    const std::string path = vm["file"].as<std::string>();
    refuse_input_as_output(output, {path});
    auto result = read_result_file(path);  // validates the file in every format
    const auto keep = [&](const std::string& name) {
        return !filtered || std::regex_search(name, filter);
    };
    std::string rendered;
    if (format == harness::OutputFormat::json) {
        // The stored JSON minus the filtered-out entries: nothing is recomputed or lost.
        auto j = nlohmann::json::parse(read_input_file(path));
        auto& entries = j["benchmarks"];
        entries.erase(
            std::remove_if(entries.begin(), entries.end(),
                           [&](const nlohmann::json& e) { return !keep(e.value("run_name", "")); }),
            entries.end());
        rendered = j.dump(2) + "\n";
    } else {
        std::erase_if(result.benchmarks,
                      [&](const harness::BenchmarkResult& b) { return !keep(b.name); });
        rendered = harness::render_run(result, format);
    }
    write_output(rendered, output);
    return kExitOk;
}

}  // namespace perfgauge::cli
