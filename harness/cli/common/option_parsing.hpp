// The command line's option parsing, shared by the commands' *_options.cpp files (the only
// files that see boost::program_options): parsing with perfgauge's messages, and the values of
// the options several commands share, validated.
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/cli_common.hpp"
#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::cli {

namespace po = boost::program_options;

/// Parses `args` against `options` (+ positional), turning boost's errors into UsageError.
po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& options,
                                const po::positional_options_description& positional);

/// The positional arguments of a command line: all given to option `name` (count -1), or up to
/// `count`; none when `name` is null.
struct Positional {
    const char* name = nullptr;
    int count = 0;
};

/// A command's options parsed: `visible` (what --help shows) and `hidden` (plumbing: positional
/// arguments, perfgauge's own options). nullopt after printing `visible` for --help.
std::optional<po::variables_map> parse_command_line(
    const std::vector<std::string>& args, const po::options_description& visible,
    const po::options_description& hidden = po::options_description(), Positional positional = {});

/// Whether `args` asked for --help, a command's only option: then `usage` and the option list
/// are printed. UsageError for any other argument.
bool printed_help(const std::vector<std::string>& args, const char* usage);

/// Which ends of a Bounds interval are excluded.
enum class Open { none, low, high, both };
/// Where a numeric option's value must lie; no `high`: any finite value from `low` up.
/// NaN and infinity are always outside ("inf" seconds would mean "never stop").
struct Bounds {
    double low;
    std::optional<double> high;
    Open open;
    const char* unit;  ///< " s", " %", ""
};
/// The double value of --`name`; UsageError naming the option, the bounds and the value
/// unless it lies within `bounds`.
double bounded_option(const po::variables_map& vm, const char* name, const Bounds& bounds);

/// The count given to --`name`, declared po::value<long long> (never an unsigned type: boost
/// reads "-1" into one as 18446744073709551615); UsageError naming the option and the value as
/// given ("-1: expected a non-negative integer") unless it lies in [low, high].
std::size_t count_option(const po::variables_map& vm, const char* name, std::size_t low,
                         std::size_t high);

/// `args` with each old spelling in `aliases` ("--repetitions") replaced by its current one
/// ("--repeat"), "=VALUE" kept: old command lines keep working while --help shows one name.
std::vector<std::string> canonical_spellings(
    std::vector<std::string> args, const std::vector<std::pair<std::string, std::string>>& aliases);

/// The value of --format as one of `accepted` (parse_output_format); UsageError for another,
/// naming `accepted` ("unknown format 'x': choose table, csv, json, md or bmf").
harness::OutputFormat format_option(
    const po::variables_map& vm,
    std::span<const harness::OutputFormat> accepted = harness::kResultFormats);
/// The value of -o/--output, "" when absent or "-" (the standard stream); checked with
/// check_output_path.
std::string output_option(const po::variables_map& vm);

}  // namespace perfgauge::cli
