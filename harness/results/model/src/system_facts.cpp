#include "perfgauge/harness/system_facts.hpp"

#include <fmt/format.h>

namespace perfgauge::harness {

std::string format_bytes(std::uint64_t bytes) {
    if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0)
        return fmt::format("{} GiB", bytes >> 30);
    if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0)
        return fmt::format("{} MiB", bytes >> 20);
    if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0)
        return fmt::format("{} KiB", bytes >> 10);
    return fmt::format("{} B", bytes);
}

}  // namespace perfgauge::harness
