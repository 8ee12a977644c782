// A private temporary directory for files perfgauge's own child processes write (callgrind's
// dumps, the results of measuring processes): created under $TMPDIR (default /tmp), removed with
// everything in it when the owner goes out of scope, on error paths too.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>

namespace perfgauge::harness {

/// What separates a scratch directory's prefix from its owner's pid in its name.
inline constexpr const char* kOwnerTag = ".pid";

/// Removes the scratch directories in `root` whose owner is gone: named
/// perfgauge-...`kOwnerTag`PID-..., owned by this user, PID no longer running. They are what a
/// perfgauge killed by SIGKILL or a crash left behind; the first ScratchDir of every perfgauge
/// process removes them.
void remove_stale_scratch_dirs(const std::filesystem::path& root);

/// Whether `dir` has room for `bytes` more: a temporary file there is given that many bytes and
/// removed at once, with the interrupts held back meanwhile so that it is never left behind.
/// 0, or the errno that refused it (ENOSPC, EDQUOT, EACCES, ...).
int try_room(const std::filesystem::path& dir, std::size_t bytes);

/// Where temporary files go: $TMPDIR, or /tmp when it is unset or empty (as mkdtemp's callers
/// and valgrind read it).
std::filesystem::path temp_root();

/// Removes the entries of `root` (directories when `directories`, else regular files) that
/// `owner` gives a pid for (0: not one of them), owned by this user, whose process is gone: what
/// a process killed outright left behind. A pid reused since keeps its entry.
void remove_entries_of_gone_processes(const std::filesystem::path& root, bool directories,
                                      const std::function<pid_t(const std::string&)>& owner);

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
