#include "perfgauge/harness/own_executable.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace perfgauge::harness {

std::string own_executable() {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw std::runtime_error("cannot find perfgauge's own executable (/proc/self/exe)");
    return path.string();
}

}  // namespace perfgauge::harness
