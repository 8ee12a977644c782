// A file system with no space left, for tests of what perfgauge keeps when a write fails: a
// 64 KiB tmpfs mounted on a fresh directory and filled up, unmounted by the destructor whatever
// the test did. Mounting needs root (CAP_SYS_ADMIN); elsewhere available() is false and
// why_not() says why, for GTEST_SKIP.
#pragma once

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "temp_dir.hpp"

namespace perfgauge::test {

class FullFilesystem {
  public:
    FullFilesystem() : mount_point_(dir_.path() / "full") {
        std::filesystem::create_directory(mount_point_);
        if (::mount("tmpfs", mount_point_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
                    "size=64k,mode=1777") != 0) {
            why_not_ = std::string("cannot mount a tmpfs (needs root): ") + std::strerror(errno);
            return;
        }
        mounted_ = true;
        // Fill it: one file takes every block there is.
        std::ofstream filler(mount_point_ / "filler", std::ios::binary);
        const std::vector<char> block(4096, 'x');
        for (int i = 0; i < 64 && filler; ++i)
            filler.write(block.data(), static_cast<std::streamsize>(block.size())).flush();
    }
    ~FullFilesystem() {
        // Lazily, so that a process a failed test left in it cannot keep it mounted.
        if (mounted_)
            ::umount2(mount_point_.c_str(), MNT_DETACH);
    }
    FullFilesystem(const FullFilesystem&) = delete;
    FullFilesystem& operator=(const FullFilesystem&) = delete;

    bool available() const { return mounted_; }
    const std::string& why_not() const { return why_not_; }
    /// The full file system's root (writable by everyone, like /tmp).
    const std::filesystem::path& path() const { return mount_point_; }

  private:
    TempDir dir_;
    std::filesystem::path mount_point_;
    bool mounted_ = false;
    std::string why_not_;
};

}  // namespace perfgauge::test
