// A private temporary directory for files perfgauge's own child processes write (callgrind's
// dumps, the results of measuring processes): created under $TMPDIR (default /tmp), removed with
// everything in it when the owner goes out of scope, on error paths too.
#pragma once

#include <filesystem>
#include <string>

namespace perfgauge::harness {

/// What separates a scratch directory's prefix from its owner's pid in its name.
inline constexpr const char* kOwnerTag = ".pid";

/// Removes the scratch directories in `root` whose owner is gone: named
/// perfgauge-...`kOwnerTag`PID-..., owned by this user, PID no longer running. They are what a
/// perfgauge killed by SIGKILL or a crash left behind; the first ScratchDir of every perfgauge
/// process removes them.
void remove_stale_scratch_dirs(const std::filesystem::path& root);

class ScratchDir {
  public:
    /// `purpose` names what the directory is for in the error message when it cannot be made;
    /// `prefix` starts its name (prefix.pidPID-XXXXXX). Throws std::runtime_error.
    ScratchDir(const std::string& prefix, const std::string& purpose);
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    ~ScratchDir();
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

/// The whole text of a file a child left (in a ScratchDir). Throws std::runtime_error
/// ("cannot read PATH") when it is missing or unreadable.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace perfgauge::harness
