#include "perfgauge/harness/output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/interrupted.hpp"
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

[[noreturn]] void refuse(const fs::path& path, const std::string& why) {
    throw std::runtime_error(fmt::format("cannot write '{}': {}", path.string(), why));
}

// How a path is written (see the header).
enum class Method { replace, in_place, descriptor };

struct Target {
    Method method = Method::replace;
    fs::path path;  // replace: the file renamed over (symlinks followed); in_place: as given
    int fd = -1;    // descriptor: the open descriptor the path stands for
    bool exists = false;
    struct stat st {};
};

// /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N name a descriptor perfgauge already
// has open; reopening them would write from offset 0 over what the shell appended to.
std::optional<int> descriptor_alias(const std::string& path) {
    if (path == "/dev/stdout")
        return STDOUT_FILENO;
    if (path == "/dev/stderr")
        return STDERR_FILENO;
    for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        if (path.rfind(prefix, 0) != 0)
            continue;
        const std::string number = path.substr(prefix.size());
        if (number.empty() || number.size() > 9 ||
            number.find_first_not_of("0123456789") != std::string::npos)
            return std::nullopt;
        return std::stoi(number);
    }
    return std::nullopt;
}

Target resolve(const fs::path& path) {
    fs::path current = path;
    // Followed by hand, not by realpath(): a dangling link's target is where a new file goes.
    for (int hop = 0; hop < 40; ++hop) {
        Target t;
        t.path = current;
        if (const auto fd = descriptor_alias(current.string())) {
            t.method = Method::descriptor;
            t.fd = *fd;
            t.exists = ::fstat(*fd, &t.st) == 0;
            if (!t.exists)
                refuse(path, fmt::format("descriptor {} is not open", *fd));
            return t;
        }
        if (::lstat(current.c_str(), &t.st) != 0) {
            if (errno == ENOENT)
                return t;  // a new file: created by the rename
            fail(path, "looking it up", errno);
        }
        t.exists = true;
        if (S_ISLNK(t.st.st_mode)) {
            // The kernel's magic links (/proc/PID/fd/N -> "pipe:[123]") name no path to follow.
            if (current.string().rfind("/proc/", 0) == 0) {
                t.method = Method::in_place;
                if (::stat(current.c_str(), &t.st) != 0)
                    fail(path, "looking it up", errno);
                return t;
            }
            char buffer[PATH_MAX];
            const ssize_t n = ::readlink(current.c_str(), buffer, sizeof buffer);
            if (n < 0)
                fail(path, "reading the symlink", errno);
            const fs::path target(std::string(buffer, static_cast<std::size_t>(n)));
            current = target.is_absolute() ? target : directory_of(current) / target;
            continue;
        }
        if (S_ISDIR(t.st.st_mode))
            refuse(path, "it is a directory");
        if (S_ISSOCK(t.st.st_mode))
            refuse(path, "it is a socket (perfgauge writes files, devices and FIFOs)");
        t.method = S_ISREG(t.st.st_mode) ? Method::replace : Method::in_place;
        return t;
    }
    refuse(path, "too many levels of symbolic links");
}

// A write that blocks (a FIFO or terminal nobody reads) returns EINTR when an interrupt
// arrives (no SA_RESTART): it is given up then, and said to be incomplete, instead of waiting
// on for a reader that may never come.
[[noreturn]] void interrupted_writing(const fs::path& path, std::size_t written, std::size_t size) {
    const int signal = interrupt_signal();
    throw Interrupted(
        signal,
        fmt::format("interrupted by {} while writing {}: {}", signal_name(signal), path.string(),
                    written == 0 ? std::string("nothing was written")
                                 : fmt::format("{} of {} bytes written, the output "
                                               "is incomplete",
                                               written, size)));
}

void write_all(const fs::path& path, int fd, const std::string& content) {
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR && interrupt_signal() != 0)
            interrupted_writing(path, written, content.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            throw std::system_error(errno, std::generic_category());
        }
        written += static_cast<std::size_t>(n);
    }
}

void check_descriptor_writable(const fs::path& path, int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
        refuse(path, fmt::format("descriptor {} is not open for writing", fd));
}

void write_to_descriptor(const fs::path& path, const Target& t, const std::string& content) {
    // Whatever perfgauge printed through stdio before must come first.
    if (t.fd == STDOUT_FILENO)
        std::fflush(stdout);
    check_descriptor_writable(path, t.fd);
    try {
        write_all(path, t.fd, content);
    } catch (const std::system_error& e) {
        fail(path, "writing", e.code().value());
    }
}

void write_in_place(const fs::path& path, const Target& t, const std::string& content) {
    // O_TRUNC only where it means something (a regular file behind a /proc link); a device or
    // FIFO is written as it is. O_NOCTTY: a terminal given as -o must not become ours.
    const int flags =
        O_WRONLY | O_NOCTTY | O_CLOEXEC | (t.exists && S_ISREG(t.st.st_mode) ? O_TRUNC : 0);
    pmu::FileDescriptor fd(::open(t.path.c_str(), flags));
    // A FIFO blocks the open until a reader comes: an interrupt ends the wait.
    if (!fd && errno == EINTR && interrupt_signal() != 0)
        interrupted_writing(path, 0, content.size());
    if (!fd)
        fail(path, "opening", errno);
    try {
        write_all(path, fd.get(), content);
    } catch (const std::system_error& e) {
        fail(path, "writing", e.code().value());
    }
    if (::close(fd.release()) != 0)
        fail(path, "closing", errno);
}

// A complete temporary file beside `target` (flushed to disk, permissions set): the caller
// renames it into place or removes it.
class Temporary {
  public:
    Temporary(const fs::path& shown, const Target& target, const std::string& content)
        : name_((directory_of(target.path) / ("." + target.path.filename().string() + ".XXXXXX"))
                    .string()) {
        pmu::FileDescriptor fd(::mkstemp(name_.data()));
        if (!fd)
            fail(shown, "creating a temporary file", errno);
        created_ = true;
        try {
            write_all(shown, fd.get(), content);
        } catch (const std::system_error& e) {
            give_up(shown, "writing", e.code().value());
        }
        // mkstemp creates 0600: an existing file keeps its mode (and, as root, its owner); a
        // new one gets what the umask allows, like any file the shell creates.
        mode_t mode = 0;
        if (target.exists) {
            mode = target.st.st_mode & 07777;
            if (::geteuid() == 0 && ::fchown(fd.get(), target.st.st_uid, target.st.st_gid) != 0) {
                // Keeping the owner is a courtesy; the content is what was asked for.
            }
        } else {
            const mode_t mask = ::umask(0);
            ::umask(mask);
            mode = 0666 & ~mask;
        }
        if (::fchmod(fd.get(), mode) != 0)
            give_up(shown, "setting permissions", errno);
        if (::fsync(fd.get()) != 0)
            give_up(shown, "flushing to disk", errno);
        if (::close(fd.release()) != 0)
            give_up(shown, "closing", errno);
    }
    Temporary(const Temporary&) = delete;
    Temporary& operator=(const Temporary&) = delete;
    ~Temporary() {
        if (created_)
            ::unlink(name_.c_str());
    }
    const std::string& name() const { return name_; }
    /// After a successful rename there is nothing left to remove.
    void renamed() { created_ = false; }

  private:
    [[noreturn]] void give_up(const fs::path& shown, const char* what, int error) {
        ::unlink(name_.c_str());
        created_ = false;
        fail(shown, what, error);
    }
    std::string name_;
    bool created_ = false;
};

// In an append-only directory (chattr +a) the temporary file can be created but neither renamed
// into place nor removed: it would outlive the command. An immutable one takes nothing.
void refuse_unchangeable_directory(const fs::path& shown, const fs::path& dir) {
    pmu::FileDescriptor fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    int flags = 0;
    if (fd && ::ioctl(fd.get(), FS_IOC_GETFLAGS, &flags) == 0 &&
        (flags & (FS_APPEND_FL | FS_IMMUTABLE_FL))) {
        refuse(shown,
               fmt::format("directory '{}' is {} (chattr +{}): a file cannot be put in "
                           "place there",
                           dir.string(), (flags & FS_IMMUTABLE_FL) ? "immutable" : "append-only",
                           (flags & FS_IMMUTABLE_FL) ? 'i' : 'a'));
    }
}

void check_directory_writable(const fs::path& shown, const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        refuse(shown, fmt::format("directory '{}' does not exist", dir.string()));
    if (::access(dir.c_str(), W_OK) != 0)
        fail(shown, fmt::format("directory '{}'", dir.string()), errno);
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && st.st_nlink == 0)
        refuse(shown, fmt::format("directory '{}' has been deleted", dir.string()));
    refuse_unchangeable_directory(shown, dir);
}

}  // namespace

void check_writable(const fs::path& path) {
    const Target t = resolve(path);
    switch (t.method) {
        case Method::descriptor:
            check_descriptor_writable(path, t.fd);
            return;
        case Method::in_place:
            if (::access(t.path.c_str(), W_OK) != 0)
                fail(path, "no write permission", errno);
            return;
        case Method::replace:
            break;
    }
    check_directory_writable(path, directory_of(t.path));
    if (t.exists && ::access(t.path.c_str(), W_OK) != 0)
        fail(path, "existing file", errno);
    // Replacing takes a rename, which an append-only file (chattr +a) refuses although it is
    // writable: say so now rather than after the measurement.
    if (t.exists) {
        pmu::FileDescriptor fd(::open(t.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
        int flags = 0;
        if (fd && ::ioctl(fd.get(), FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_APPEND_FL))
            refuse(path, "it is append-only (chattr +a), so it cannot be replaced");
    }
}

void write_output_file(const fs::path& path, const std::string& content) {
    const Target t = resolve(path);
    if (t.method == Method::descriptor)
        return write_to_descriptor(path, t, content);
    if (t.method == Method::in_place)
        return write_in_place(path, t, content);
    // SIGINT, SIGTERM and SIGHUP wait until the temporary is renamed or removed (a disk write
    // and a rename: bounded), so that an interruption never leaves it behind.
    const InterruptsBlocked blocked;
    refuse_unchangeable_directory(path, directory_of(t.path));
    Temporary temporary(path, t, content);
    if (::rename(temporary.name().c_str(), t.path.c_str()) != 0)
        fail(path, "renaming into place", errno);
    temporary.renamed();
}

void check_new_file_directory(const fs::path& dir) {
    const fs::path where = dir.empty() ? fs::path(".") : dir;
    check_directory_writable(where, where);
}

fs::path write_new_output_file(const fs::path& dir, const std::string& stem,
                               const std::string& extension, const std::string& content) {
    const fs::path where = dir.empty() ? fs::path(".") : dir;  // "": the current directory
    Target first;
    first.path = dir / (stem + extension);
    const InterruptsBlocked blocked;  // as in write_output_file
    check_directory_writable(first.path, where);
    Temporary temporary(first.path, first, content);
    for (int n = 1; n < 100000; ++n) {
        const fs::path candidate =
            dir / (n == 1 ? stem + extension : fmt::format("{}-{}{}", stem, n, extension));
        if (::renameat2(AT_FDCWD, temporary.name().c_str(), AT_FDCWD, candidate.c_str(),
                        RENAME_NOREPLACE) == 0) {
            temporary.renamed();
            return candidate;
        }
        if (errno == EEXIST)
            continue;
        if (errno != EINVAL && errno != ENOSYS)
            fail(candidate, "renaming into place", errno);
        // A file system without RENAME_NOREPLACE: link() fails on an existing name too.
        if (::link(temporary.name().c_str(), candidate.c_str()) == 0)
            return candidate;  // the temporary's name is removed by its destructor
        if (errno != EEXIST)
            fail(candidate, "linking into place", errno);
    }
    refuse(first.path, "every numbered name up to 99999 is taken");
}

bool same_output(const fs::path& a, const fs::path& b) {
    const Target ta = resolve(a);
    const Target tb = resolve(b);
    if (ta.exists != tb.exists)
        return false;
    if (!ta.exists) {
        std::error_code ec;
        return fs::weakly_canonical(fs::absolute(ta.path), ec) ==
               fs::weakly_canonical(fs::absolute(tb.path), ec);
    }
    // lstat of a final target is the file itself; descriptors were fstat'ed.
    const bool device = S_ISCHR(ta.st.st_mode) || S_ISBLK(ta.st.st_mode);
    return !device && ta.st.st_dev == tb.st.st_dev && ta.st.st_ino == tb.st.st_ino;
}

void refuse_overlapping_paths(const std::vector<NamedPath>& outputs,
                              const std::vector<NamedPath>& inputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto& out = outputs[i];
        if (out.path.empty())
            continue;
        for (std::size_t j = i + 1; j < outputs.size(); ++j) {
            if (!outputs[j].path.empty() && same_output(out.path, outputs[j].path)) {
                throw std::runtime_error(fmt::format(
                    "{} {} and {} {} name the same file: one output would replace the other; "
                    "give them different names",
                    out.role, out.path.string(), outputs[j].role, outputs[j].path.string()));
            }
        }
        // The file a write would replace or truncate: the final target of any symlinks. Only a
        // regular file can be an input that writing destroys.
        const Target t = resolve(out.path);
        if (!t.exists || !S_ISREG(t.st.st_mode))
            continue;
        for (const auto& in : inputs) {
            struct stat st {};
            if (in.path.empty() || ::stat(in.path.c_str(), &st) != 0)
                continue;
            if (st.st_dev == t.st.st_dev && st.st_ino == t.st.st_ino) {
                throw std::runtime_error(fmt::format(
                    "{} {} is {} {}{}: writing there would destroy it; give another {}", out.role,
                    out.path.string(), in.role, in.path.string(),
                    out.path == in.path ? "" : " (the same file, through a link or another path)",
                    out.role));
            }
        }
    }
}

}  // namespace perfgauge::harness
