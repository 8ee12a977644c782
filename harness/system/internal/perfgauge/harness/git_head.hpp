// The commit a directory's git repository has checked out, for the runs `history add` stores
// without --commit. git is run as a child process (child_process.hpp: no shell, reaped by
// RAII), never through popen or system().
#pragma once

#include <string>

namespace perfgauge::harness {

/// `git -C DIRECTORY rev-parse --verify -q HEAD`'s output without its line end: the full hash
/// of the commit checked out. Empty, quietly, when DIRECTORY is in no repository, the
/// repository has no commit yet, git is not installed or cannot be started (git's stderr goes
/// to /dev/null: a missing repository is the common case, not an error).
std::string git_head(const std::string& directory = ".");

}  // namespace perfgauge::harness
