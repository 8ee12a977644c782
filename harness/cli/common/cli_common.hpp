// Shared plumbing of the perfgauge subcommands: exit statuses, bad input, output paths and
// files. The commands themselves are listed in registry.hpp; parsing options is
// option_parsing.hpp's (each command's options.cpp alone).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <optional>

#include "perfgauge/harness/output_file.hpp"

namespace perfgauge::cli {

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

/// UsageError unless `path` can be written: checked before any work, so nothing is lost. It
/// refuses "-" (for outputs that must be files).
void check_output_path(const std::string& path);
/// UsageError when an output names another output or one of `inputs` (result files read,
/// executables run): harness::refuse_overlapping_paths, with perfgauge's own executable always
/// an input. Called before any work by every command that writes files.
void refuse_outputs_over_inputs(const std::vector<harness::NamedPath>& outputs,
                                std::vector<harness::NamedPath> inputs);
/// UsageError when `path`, given to `option` (--json), is the standard output a command prints
/// `printed` (its table) on: two documents in one stream, which no reader could take apart
/// (/dev/stdout, /dev/fd/1, a file stdout is redirected to, the same pipe or terminal).
/// /dev/null is let through: both are discarded. Called before any work.
void refuse_second_document_on_stdout(const char* option, const std::string& path,
                                      const char* printed);
/// The same for one -o `output` and the result files `inputs` (compare A B -o A).
void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs);
/// `content` atomically into `path`, unless `interrupted` and `path` names an existing regular
/// file (or a symlink to one): a result cut short never replaces what was there, most often the
/// complete result of an earlier run. It goes to a new file beside it instead,
/// STEM.interrupted.EXT (numbered when taken), and stderr says where. Returns the path written.
std::string write_output_keeping(const std::string& path, const std::string& content,
                                 bool interrupted);

/// `text` on stdout, or into `output` when one was given (write_output_keeping).
void write_output(const std::string& text, const std::string& output, bool interrupted = false);

/// Saves a result's JSON to `path` when given (write_output_keeping); else under a new name
/// `stem`.json in the current directory (numbered when taken), the next free one when -o
/// `output` names it (-o's file is the user's choice, and would replace the result). Returns
/// the path written.
std::string save_result_json(const std::string& json, const std::optional<std::string>& path,
                             const std::string& stem, const std::string& output,
                             bool interrupted = false);

/// The path perfgauge runs from (/proc/self/exe), for re-running itself.
std::string own_executable();

}  // namespace perfgauge::cli
