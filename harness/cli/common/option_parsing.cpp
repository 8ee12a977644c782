#include "common/option_parsing.hpp"

#include <cmath>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>

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

std::optional<po::variables_map> parse_command_line(const std::vector<std::string>& args,
                                                    const po::options_description& visible,
                                                    const po::options_description& hidden,
                                                    Positional positional) {
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positions;
    if (positional.name != nullptr)
        positions.add(positional.name, positional.count);
    auto vm = parse_options(args, all, positions);
    if (vm.count("help")) {
        std::cout << visible << '\n';
        return std::nullopt;
    }
    return vm;
}

bool printed_help(const std::vector<std::string>& args, const char* usage) {
    po::options_description options(usage);
    options.add_options()("help,h", "show this help");
    return !parse_command_line(args, options);
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

std::size_t count_option(const po::variables_map& vm, const char* name, std::size_t low,
                         std::size_t high) {
    const long long value = vm[name].as<long long>();
    if (value < 0) {
        throw UsageError(fmt::format("--{} {}: expected a non-negative integer ({} to {})", name,
                                     value, low, high));
    }
    const auto count = static_cast<std::size_t>(value);
    if (count < low || count > high)
        throw UsageError(fmt::format("--{} must be {} to {}, not {}", name, low, high, count));
    return count;
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

harness::OutputFormat format_option(const po::variables_map& vm,
                                    std::span<const harness::OutputFormat> accepted) {
    try {
        return harness::parse_output_format(vm["format"].as<std::string>(), accepted);
    } catch (const std::invalid_argument& e) {
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

}  // namespace perfgauge::cli
