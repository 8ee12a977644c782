// How the answer names a working set: in its notes (answer.cpp) and in its table's bands
// (run_answer.cpp), alike.
#pragma once

#include <cstdint>
#include <string>

namespace perfgauge::harness::detail {

/// 96B, 4K, 1.5M, 64M: a working set as the suite names its sizes.
std::string size_text(std::uint64_t bytes);

}  // namespace perfgauge::harness::detail
