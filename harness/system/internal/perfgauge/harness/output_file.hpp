// Output files that are either complete or not there, and output paths that are never destroyed.
//
// What a path names decides how it is written:
// - a regular file, or nothing yet: a temporary file beside it, flushed to disk, renamed over
//   it (atomic: readers see the old content or the new, never half); an existing file keeps
//   its permission bits;
// - a symlink to a regular file (or a dangling one): followed, and its final target replaced
//   that way; the link itself stays a link;
// - a device or FIFO (/dev/null, /dev/full, a terminal): opened and written in place, never
//   replaced (replacing /dev/null as root would break the whole system); a socket is refused;
// - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: written to that already open
//   descriptor, so `-o /dev/stdout >> log` appends as the shell meant.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgauge::harness {

/// Throws std::runtime_error with an actionable message when `path` cannot be written: missing
/// or deleted directory, no write permission, a directory or socket in its place, a symlink
/// loop, an append-only file that a rename cannot replace. Run before the
/// work whose result goes there, so a bad -o fails fast instead of after a long measurement.
void check_writable(const std::filesystem::path& path);

/// Writes `content` to `path` as described above. On any failure a temporary is removed, a
/// replaced file is untouched, and it throws std::runtime_error naming the path and the error.
void write_output_file(const std::filesystem::path& path, const std::string& content);

/// Whether `a` and `b` name the same output (the same existing file, or the same place for a
/// new one, symlinks followed). Device nodes are never "the same output": writing two reports
/// to /dev/null or one terminal loses nothing.
bool same_output(const std::filesystem::path& a, const std::filesystem::path& b);

/// A path named on the command line and what named it, for messages: "-o", "--json", "the
/// result", "the command".
struct NamedPath {
    std::string role;
    std::filesystem::path path;
};

/// Throws std::runtime_error, before any work, when writing the outputs could destroy what the
/// command needs or makes: two outputs that are the same_output(), or an output that names one
/// of the inputs (result files read, executables run) through any path, symlink or hard link
/// (an existing output's final target has the input's device and inode). Empty paths are
/// skipped; devices and FIFOs are written in place, never replaced, so never refused.
void refuse_overlapping_paths(const std::vector<NamedPath>& outputs,
                              const std::vector<NamedPath>& inputs);

/// check_writable for write_new_output_file: throws unless new files can be created in `dir`.
void check_new_file_directory(const std::filesystem::path& dir);

/// Writes `content` atomically to a new file in `dir` ("": the current directory) named
/// `stem``extension`, or, when that name is taken, `stem`-2`extension`, -3, ...; returns the path
/// written. The name is claimed at the rename (RENAME_NOREPLACE), so a file someone else created
/// meanwhile is never replaced and nothing is left behind when the work before it fails. Throws
/// like write_output_file.
std::filesystem::path write_new_output_file(const std::filesystem::path& dir,
                                            const std::string& stem, const std::string& extension,
                                            const std::string& content);

}  // namespace perfgauge::harness
