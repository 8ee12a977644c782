#include "perfgauge/harness/scratch_dir.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "perfgauge/harness/interrupt.hpp"

namespace perfgauge::harness {

namespace {

namespace fs = std::filesystem;

// The pid in a scratch directory's name ("perfgauge-run.pid1234-Ab3xYz"), 0 when it has none.
pid_t owner_pid(const std::string& name) {
    if (name.rfind("perfgauge-", 0) != 0)
        return 0;
    const auto at = name.find(kOwnerTag);
    if (at == std::string::npos)
        return 0;
    const auto digits = name.substr(at + std::strlen(kOwnerTag));
    const auto end = digits.find('-');
    if (end == 0 || end == std::string::npos || end > 9 ||
        digits.substr(0, end).find_first_not_of("0123456789") != std::string::npos)
        return 0;
    return static_cast<pid_t>(std::stol(digits.substr(0, end)));
}

}  // namespace

fs::path temp_root() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

void remove_entries_of_gone_processes(const fs::path& root, bool directories,
                                      const std::function<pid_t(const std::string&)>& owner) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        const pid_t pid = owner(entry.path().filename().string());
        struct stat st {};
        // Only this user's entries, whose process is gone: kill(pid, 0) says ESRCH. A pid
        // reused since keeps its entry (one more leftover beats removing live work).
        if (pid <= 0 || ::lstat(entry.path().c_str(), &st) != 0 ||
            (directories ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) ||
            st.st_uid != ::geteuid() || ::kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        fs::remove_all(entry.path(), ec);
    }
}

void remove_stale_scratch_dirs(const fs::path& root) {
    remove_entries_of_gone_processes(root, true, owner_pid);
}

int try_room(const fs::path& dir, std::size_t bytes) {
    std::string name = ((dir.empty() ? fs::path(".") : dir) / ".perfgauge-room.XXXXXX").string();
    const InterruptsBlocked blocked;
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        return errno;
    ::unlink(name.c_str());  // the name goes at once: only the descriptor holds the room
    int error = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
    if (error == EOPNOTSUPP || error == EINVAL) {  // a file system without fallocate
        const std::string zeros(bytes, '\0');
        error = ::write(fd, zeros.data(), zeros.size()) == static_cast<ssize_t>(zeros.size())
                    ? 0
                    : (errno != 0 ? errno : ENOSPC);
    }
    ::close(fd);
    return error;
}

ScratchDir::ScratchDir(const std::string& prefix, const std::string& purpose) {
    // What a perfgauge killed outright (SIGKILL, a crash) left behind, removed by the next one.
    static std::once_flag swept;
    std::call_once(swept, [] { remove_stale_scratch_dirs(temp_root()); });
    std::string pattern =
        (temp_root() / fmt::format("{}{}{}-XXXXXX", prefix, kOwnerTag, ::getpid())).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        // The directory it would have made never existed: the message names where it was to be.
        const int error = errno;
        const char* tmpdir = std::getenv("TMPDIR");
        throw std::runtime_error(fmt::format(
            "cannot create a directory for {} in {}{}: {}; point TMPDIR at a directory you can "
            "write, with room",
            purpose, temp_root().string(), tmpdir && *tmpdir ? " ($TMPDIR)" : "",
            std::strerror(error)));
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
