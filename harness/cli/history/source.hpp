// Where a stored run came from, in terms its user recognises: the file as named, its absolute
// path, and the command that made the result when the file records one. A fleet names its
// results by scratch paths that are gone by the time anyone reads `history list`; the command
// says which run it was.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::cli {

/// The command a result file records, from its JSON: a perfgauge stat result's measured
/// command ("./prog arg"; side by side: "./a ::: ./b"), a Google Benchmark file's executable
/// (context.executable). Empty when it records none: a perfgauge run result (its executable is
/// "perfgauge" itself), or a field that is not text.
std::string recorded_command(const nlohmann::json& result);

/// `path` made absolute against the current directory, lexically (a symlink named stays the
/// name given; "." and ".." are folded). The standard input ("-") and /dev/... stay as given.
std::string absolute_source(const std::string& path);

/// A result file read once for `history add`: the result (UsageError when it is not one),
/// its absolute path and the command it records.
struct HistoryInput {
    harness::RunResult result;
    std::string path, command;
};
HistoryInput read_history_input(const std::string& path);

}  // namespace perfgauge::cli
