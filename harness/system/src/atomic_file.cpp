#include "perfgauge/harness/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::harness {

namespace fs = std::filesystem;

namespace {

fs::path directory_of(const fs::path& path) {
    return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

[[noreturn]] void fail(const fs::path& path, const std::string& what, int error) {
    throw std::runtime_error(
        fmt::format("cannot write '{}': {}: {}", path.string(), what, std::strerror(error)));
}

}  // namespace

void check_writable(const fs::path& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw std::runtime_error(
            fmt::format("cannot write '{}': it is a directory", path.string()));
    }
    const fs::path dir = directory_of(path);
    if (!fs::is_directory(dir, ec)) {
        throw std::runtime_error(fmt::format("cannot write '{}': directory '{}' does not exist",
                                             path.string(), dir.string()));
    }
    if (::access(dir.c_str(), W_OK) != 0)
        fail(path, fmt::format("directory '{}'", dir.string()), errno);
    if (fs::exists(path, ec) && ::access(path.c_str(), W_OK) != 0)
        fail(path, "existing file", errno);
}

void write_file_atomically(const fs::path& path, const std::string& content) {
    std::string temp = (directory_of(path) / ("." + path.filename().string() + ".XXXXXX")).string();
    pmu::FileDescriptor fd(::mkstemp(temp.data()));
    if (!fd)
        fail(path, "creating a temporary file", errno);
    auto give_up = [&](const char* what) {
        const int error = errno;
        fd.reset();
        ::unlink(temp.c_str());
        fail(path, what, error);
    };
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd.get(), content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            give_up("writing");
        written += static_cast<std::size_t>(n);
    }
    // mkstemp creates 0600; results are ordinary files, readable as the umask allows.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd.get(), 0666 & ~mask) != 0)
        give_up("setting permissions");
    if (::fsync(fd.get()) != 0)
        give_up("flushing to disk");
    fd.reset();
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail(path, "renaming into place", error);
    }
}

}  // namespace perfgauge::harness
