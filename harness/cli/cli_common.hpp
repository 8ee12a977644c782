// Shared plumbing of the perfgauge subcommands: argument parsing and error reporting.
#pragma once

#include <boost/program_options.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace perfgauge::cli {

namespace po = boost::program_options;

/// Exit statuses shared by every subcommand (`stat` passes the command's own through instead).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure =
    1;                                ///< the work could not be done (e.g. nothing can be counted)
inline constexpr int kExitUsage = 2;  ///< bad input: options, event names, paths
inline constexpr int kExitRegression = 3;  ///< compare --fail-on-regression found one

/// Bad input from the user; the message is printed with the command's name and exit 2.
class UsageError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Parses `args` against `options` (+ positional), turning boost's errors into UsageError.
po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& options,
                                const po::positional_options_description& positional);

int run_doctor(const std::vector<std::string>& args);
int run_events(const std::vector<std::string>& args);
int run_stat(const std::vector<std::string>& args);
int run_calibrate(const std::vector<std::string>& args);
int run_run(const std::vector<std::string>& args);
int run_list(const std::vector<std::string>& args);
int run_compare(const std::vector<std::string>& args);
int run_export(const std::vector<std::string>& args);

}  // namespace perfgauge::cli
