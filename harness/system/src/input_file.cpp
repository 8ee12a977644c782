#include "perfgauge/harness/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::harness {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
    throw std::runtime_error(fmt::format("cannot read '{}': {}{}", path.string(), why,
                                         path == "-" ? " (standard input is /dev/stdin)" : ""));
}

std::string too_large(std::size_t limit) {
    return fmt::format(
        "it holds more than {} MB, far more than any result perfgauge writes (is it the "
        "right file?)",
        limit >> 20);
}

// Streams already consumed, by the path they were named by: their content cannot be read twice.
struct ConsumedStreams {
    std::mutex mutex;
    std::map<std::string, std::string> text;
};

ConsumedStreams& consumed_streams() {
    static ConsumedStreams streams;
    return streams;
}

std::string read_all(const std::filesystem::path& path, int fd, std::size_t limit) {
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(path, std::strerror(errno));
        if (n == 0)
            return text;
        if (text.size() + static_cast<std::size_t>(n) > limit)
            fail(path, too_large(limit));
        text.append(buffer, static_cast<std::size_t>(n));
    }
}

}  // namespace

std::string read_input_file(const std::filesystem::path& path, std::size_t limit) {
    if (path.empty())
        fail(path, "empty path");
    auto& streams = consumed_streams();
    std::lock_guard lock(streams.mutex);
    if (const auto it = streams.text.find(path.string()); it != streams.text.end())
        return it->second;
    // A FIFO's open waits for its writer, as cat's does. O_NOCTTY: a terminal named as the input
    // must not become perfgauge's controlling terminal.
    pmu::FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
    if (!fd)
        fail(path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        fail(path, std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        fail(path, "it is a directory, not a result file");
    if (S_ISREG(st.st_mode)) {
        if (static_cast<std::uintmax_t>(st.st_size) > limit)
            fail(path, too_large(limit));
        return read_all(path, fd.get(), limit);
    }
    std::string text = read_all(path, fd.get(), limit);
    streams.text.emplace(path.string(), text);
    return text;
}

}  // namespace perfgauge::harness
