// Output files that are either complete or not there: never half written.
#pragma once

#include <filesystem>
#include <string>

namespace perfgauge::harness {

/// Throws std::runtime_error with an actionable message when `path` could not be created:
/// missing directory, no write permission, or a directory in its place. Run before the work
/// whose result goes there, so a bad -o fails fast instead of after a long measurement.
void check_writable(const std::filesystem::path& path);

/// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
/// `path`. On any failure the temporary is removed, `path` is untouched, and it throws.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace perfgauge::harness
