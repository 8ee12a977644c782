// RAII owner of a file descriptor: closed exactly once, movable, never copied.
#pragma once

#include <utility>

namespace perfgauge::pmu {

class FileDescriptor {
  public:
    FileDescriptor() = default;
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    FileDescriptor& operator=(FileDescriptor&& other) noexcept {
        if (this != &other)
            reset(std::exchange(other.fd_, -1));
        return *this;
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() { reset(); }

    int get() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    explicit operator bool() const { return valid(); }
    /// Closes the current descriptor (if any) and takes ownership of `fd`.
    void reset(int fd = -1);
    /// Gives the descriptor up without closing it: for a caller that must see close()'s
    /// error (a write-back failure on NFS shows only there).
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_ = -1;
};

}  // namespace perfgauge::pmu
