#include "perfgauge/harness/scratch_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

namespace perfgauge::harness {

ScratchDir::ScratchDir(const std::string& prefix, const std::string& purpose) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error(fmt::format("cannot create a directory for {} ({}): {}", purpose,
                                             pattern, std::strerror(errno)));
    }
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::string read_text_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in)
        throw std::runtime_error(fmt::format("cannot read {}", path.string()));
    return text.str();
}

}  // namespace perfgauge::harness
