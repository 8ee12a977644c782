#include "export/options.hpp"

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"

namespace perfgauge::cli {

std::optional<ExportRequest> parse_export_request(const std::vector<std::string>& args) {
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
    const auto parsed = parse_command_line(args, options, hidden, {"file", 1});
    if (!parsed)
        return std::nullopt;
    const po::variables_map& vm = *parsed;
    if (!vm.count("file"))
        throw UsageError("which result file? perfgauge export RESULT.json --format ...");
    ExportRequest request;
    request.format_name = vm["format"].as<std::string>();
    using harness::OutputFormat;
    static constexpr OutputFormat kAccepted[] = {OutputFormat::table, OutputFormat::csv,
                                                 OutputFormat::json, OutputFormat::markdown,
                                                 OutputFormat::bmf};
    request.format = format_option(vm, kAccepted);
    if (vm.count("filter"))
        request.filter.emplace("--filter", vm["filter"].as<std::string>());
    request.output = output_option(vm);
    request.path = vm["file"].as<std::string>();
    refuse_input_as_output(request.output, {request.path});
    return request;
}

}  // namespace perfgauge::cli
