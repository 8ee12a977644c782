#include "cli_common.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "perfgauge/harness/output_file.hpp"
#include "perfgauge/harness/simulation_valgrind.hpp"
#include "perfgauge/pmu/callgrind.hpp"

namespace perfgauge::cli {

namespace {

// boost's message for an abbreviation lists every option it matches, perfgauge's own
// --internal-* ones included (run --in X): those are left out, as in --help.
std::string ambiguity_text(const po::ambiguous_option& e) {
    std::vector<std::string> visible;
    for (const auto& name : e.alternatives()) {
        if (!name.starts_with("--internal-") && !name.starts_with("internal-"))
            visible.push_back(name.starts_with("-") ? name : "--" + name);
    }
    if (visible.empty())
        return fmt::format("unrecognised option '{}'", e.get_option_name());
    return fmt::format("option '{}' is ambiguous and matches {}", e.get_option_name(),
                       fmt::join(visible, ", "));
}

}  // namespace

po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& options,
                                const po::positional_options_description& positional) {
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
        po::notify(vm);
    } catch (const po::ambiguous_option& e) {
        throw UsageError(ambiguity_text(e));
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    return vm;
}

double bounded_option(const po::variables_map& vm, const char* name, const Bounds& bounds) {
    const double value = vm[name].as<double>();
    const bool low_open = bounds.open == Open::low || bounds.open == Open::both;
    const bool high_open = bounds.open == Open::high || bounds.open == Open::both;
    const bool above = low_open ? value > bounds.low : value >= bounds.low;
    const bool below = !bounds.high || (high_open ? value < *bounds.high : value <= *bounds.high);
    if (std::isfinite(value) && above && below)
        return value;
    if (bounds.high) {
        throw UsageError(fmt::format("--{} must be in {}{}, {}{}{}, not {}", name,
                                     low_open ? '(' : '[', bounds.low, *bounds.high,
                                     high_open ? ')' : ']', bounds.unit, value));
    }
    throw UsageError(fmt::format("--{} must be a finite number {} {}{}, not {}", name,
                                 low_open ? "above" : "of at least", bounds.low, bounds.unit,
                                 value));
}

std::vector<std::string> canonical_spellings(
    std::vector<std::string> args,
    const std::vector<std::pair<std::string, std::string>>& aliases) {
    for (auto& arg : args) {
        for (const auto& [old_name, name] : aliases) {
            if (arg == old_name || arg.starts_with(old_name + "="))
                arg = name + arg.substr(old_name.size());
        }
    }
    return args;
}

harness::OutputFormat format_option(const po::variables_map& vm, const char* choices) {
    const std::string text = vm["format"].as<std::string>();
    try {
        return harness::parse_output_format(text);
    } catch (const std::invalid_argument& e) {
        if (choices == nullptr)
            throw UsageError(e.what());
        throw UsageError(fmt::format("unknown format '{}': choose {}", text, choices));
    }
}

void check_output_path(const std::string& path) {
    // Most tools read "-" as the standard stream: a file of that name would surprise.
    if (path == "-") {
        throw UsageError(
            "'-' names no file here: give a file name ('./-' for a file called '-'), or "
            "/dev/stdout");
    }
    try {
        harness::check_writable(path);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

std::string output_option(const po::variables_map& vm) {
    if (!vm.count("output"))
        return "";
    const std::string output = vm["output"].as<std::string>();
    if (output.empty())
        throw UsageError("-o: empty path (leave -o out to write to the standard stream)");
    if (output == "-")
        return "";  // the standard stream, as without -o
    check_output_path(output);
    return output;
}

void refuse_outputs_over_inputs(const std::vector<harness::NamedPath>& outputs,
                                std::vector<harness::NamedPath> inputs) {
    inputs.push_back({"perfgauge itself", own_executable()});
    try {
        harness::refuse_overlapping_paths(outputs, inputs);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs) {
    std::vector<harness::NamedPath> named;
    for (const auto& input : inputs)
        named.push_back({"the input result", input});
    refuse_outputs_over_inputs({{"-o", output}}, named);
}

std::string save_result_json(const std::string& json, const std::optional<std::string>& path,
                             const std::string& stem, const std::string& output) {
    if (path) {
        harness::write_output_file(*path, json);
        return *path;
    }
    auto where = harness::write_new_output_file("", stem, ".json", json);
    if (!output.empty() && harness::same_output(output, where))
        where = harness::write_new_output_file("", stem, ".json", json);
    return where.string();
}

void write_output(const std::string& text, const std::string& output) {
    if (output.empty())
        std::fwrite(text.data(), 1, text.size(), stdout);
    else
        harness::write_output_file(output, text);
}

harness::Backend backend_option(const po::variables_map& vm) {
    try {
        return harness::parse_backend(vm["backend"].as<std::string>());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

std::optional<std::string> simulation_valgrind(harness::Backend backend) {
    return harness::simulation_valgrind(backend, "--backend sim");
}

std::string own_executable() {
    return harness::own_executable();
}

}  // namespace perfgauge::cli
