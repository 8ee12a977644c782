#include "plot/options.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"
#include "common/result_input.hpp"

namespace perfgauge::cli {

std::string picture_output(const std::optional<std::string>& output) {
    if (!output)
        throw UsageError("-o FILE.png or -o FILE.svg is required");
    const auto extension = std::filesystem::path(*output).extension();
    if (extension != ".png" && extension != ".svg")
        throw UsageError(fmt::format("-o {}: the file must end in .png or .svg", *output));
    return *output;
}

std::optional<PlotRequest> parse_plot_request(const std::vector<std::string>& args) {
    po::options_description options(
        "usage: perfgauge plot RESULT.json -o FILE.png|FILE.svg [--counters LIST|none]\n\n"
        "Draws a perfgauge run result: working-set size against time per item, one column per "
        "cache state, one line per variant / distribution / shape (IQR shaded), dotted lines "
        "at the cache sizes, and a row per counter labelled with its source ([hw], [sw], "
        "[sim]). Also every result compare reads: stat results and Google Benchmark JSON, "
        "by the last number of each benchmark's name (BM_x/4096), else one point per "
        "benchmark. Runs scripts/plot_sweep.py with a Python that has matplotlib "
        "($PERFGAUGE_PYTHON, else /usr/bin/python3, else python3 on PATH).\n\noptions");
    options.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                      "FILE.png or FILE.svg (required)")(
        "counters", po::value<std::string>(),
        "counter rows, comma-separated (default: instructions,branch-misses when counted; "
        "none: time only)");
    po::options_description hidden;
    hidden.add_options()("result", po::value<std::string>());
    const auto parsed = parse_command_line(args, options, hidden, {"result", 1});
    if (!parsed)
        return std::nullopt;
    const po::variables_map& vm = *parsed;
    if (!vm.count("result"))
        throw UsageError("which result? usage: perfgauge plot RESULT.json -o FILE.png");
    PlotRequest request;
    request.result = vm["result"].as<std::string>();
    request.output = picture_output(
        vm.count("output") ? std::optional(vm["output"].as<std::string>()) : std::nullopt);
    read_input_file(request.result);  // UsageError when it cannot be read
    check_output_path(request.output);
    if (vm.count("counters"))
        request.counters = vm["counters"].as<std::string>();
    return request;
}

}  // namespace perfgauge::cli
