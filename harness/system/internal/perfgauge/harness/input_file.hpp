// Files perfgauge reads whole (result files named on the command line): bounded, read once.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace perfgauge::harness {

/// The most a result file may hold. The largest result perfgauge writes (a full sweep with every
/// sample kept) is a few MB: this leaves room for years of growth, and refuses /dev/zero or a
/// mistaken multi-GB file before it takes the machine's memory.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{256} << 20;

/// The whole content of `path`. Throws std::runtime_error with a message naming the path when
/// it cannot be opened, is a directory, or holds more than `limit` bytes (a regular file's size
/// is checked before reading; a device or pipe stops being read at the limit).
///
/// What is not a regular file (a pipe, `<(...)`, /dev/stdin) is read exactly once per process:
/// a second call for the same path gives the same text, where reading again would find it
/// empty. A regular file is read afresh each time.
std::string read_input_file(const std::filesystem::path& path,
                            std::size_t limit = kMaxInputFileBytes);

}  // namespace perfgauge::harness
